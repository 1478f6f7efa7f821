// The draw derivation, with WebCrypto only, so the same code runs in the visitor's browser on the
// verification page and in Node in the tests. It mirrors private.draw_derive() in SQL:
//
//   h(counter)       SHA-256(seed 32 bytes ‖ competition id 16 raw bytes ‖ ticket_list_hash 32 bytes
//                            ‖ external randomness bytes (none, or as published) ‖ counter uint32 big-endian)
//   x                first 6 bytes of h, unsigned big-endian (48 bits: exact in a JS number)
//   accept           x < 2^48 − (2^48 mod N) → (x mod N) + 1; otherwise counter + 1
//
// labcash-draw-v1   ticket list "1:<ticket uuid>\n2:<ticket uuid>\n…" (numbers 1…N, no gaps), published
//                   in get_draw; (x mod N) + 1 is the winning number.
// labcash-draw-v2   ticket list "ticket_number,ticket_id\n" then "<number>,<ticket uuid>\n" per ticket in
//                   number order (lib/draws/ticket-list.ts), served as the entry list's ticket-list CSV;
//                   numbers may have gaps, so (x mod N) + 1 is the winning position (row from 1, header
//                   excluded) and the winning number is the number on that row.
// ticket_list_hash is SHA-256 of the list's UTF-8 bytes in both.
//
// Several prizes (v2): one counter stream for every prize. Counter 0, 1, 2… are hashed as above; each accepted row
// that no earlier prize took goes to the next prize, first prize first, so the first prize is exactly the one-prize
// draw and no ticket wins twice. Each prize records the counter that picked its row (private.draw_derive_prizes).

import { bytesToHex, concat, first48Bits, hexToBytes, sha256, uniformBelow, type Bytes } from "@/lib/crypto/bytes";
import { ordinal } from "@/lib/format";
import { TicketListReader } from "./ticket-list";

export const DRAW_ALGORITHM_V1 = "labcash-draw-v1";
/** The most prizes one competition has (competition_prizes_position_check in SQL). */
export const MAX_PRIZES = 10;
export const DRAW_ALGORITHM_V2 = "labcash-draw-v2";
/** The algorithm of the in-browser demo (its list is small enough to show whole). */
export const DRAW_ALGORITHM = DRAW_ALGORITHM_V1;

export function uuidToBytes(id: string): Bytes {
  const hex = id.replace(/-/g, "");
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error(`Not a UUID: ${id}`);
  return hexToBytes(hex);
}

/** The v1 ticket list: ticket ids in number order (element i is ticket i + 1). */
export function ticketListText(ticketIds: readonly string[]): string {
  return ticketIds.map((id, i) => `${i + 1}:${id.toLowerCase()}\n`).join("");
}

export async function ticketListHash(ticketIds: readonly string[]): Promise<string> {
  return bytesToHex(await sha256(ticketListText(ticketIds)));
}

export async function commitmentOf(seedHex: string): Promise<string> {
  return bytesToHex(await sha256(hexToBytes(seedHex)));
}

/** One rejection-sampling step: the winning number for a 48-bit value, or null in the biased tail. */
export function pick(x: number, ticketCount: number): number | null {
  if (!Number.isInteger(ticketCount) || ticketCount < 1) throw new Error("A draw needs at least one ticket");
  const offset = uniformBelow(x, ticketCount);
  return offset === null ? null : offset + 1;
}

export interface DeriveInput {
  seedHex: string;
  competitionId: string;
  ticketListHashHex: string;
  externalHex?: string | null;
  ticketCount: number;
}

/** The winners of `prizes` prizes in order (element i is prize i + 1): each one's winning row and its counter. */
export async function deriveWinners(
  input: DeriveInput,
  prizes: number,
): Promise<{ winningNumber: number; counter: number }[]> {
  const seed = hexToBytes(input.seedHex);
  const listHash = hexToBytes(input.ticketListHashHex);
  if (seed.length !== 32 || listHash.length !== 32)
    throw new Error("The seed and the ticket list hash must be 32 bytes each");
  if (!Number.isInteger(prizes) || prizes < 1 || prizes > input.ticketCount)
    throw new Error("A draw is for 1 to as many prizes as there are tickets");
  const prefix = concat(seed, uuidToBytes(input.competitionId), listHash, hexToBytes(input.externalHex ?? ""));
  const winners: { winningNumber: number; counter: number }[] = [];
  const taken = new Set<number>();
  for (let counter = 0; counter <= 0xffffffff; counter++) {
    const block = new Uint8Array(4);
    new DataView(block.buffer).setUint32(0, counter, false);
    const h = await sha256(concat(prefix, block));
    const winningNumber = pick(first48Bits(h), input.ticketCount);
    if (winningNumber === null || taken.has(winningNumber)) continue;
    taken.add(winningNumber);
    winners.push({ winningNumber, counter });
    if (winners.length === prizes) return winners;
  }
  throw new Error("No counter accepted");
}

/** The winner of a one-prize draw: the first prize of deriveWinners. */
export async function deriveWinner(input: DeriveInput): Promise<{ winningNumber: number; counter: number }> {
  return (await deriveWinners(input, 1))[0];
}

/** One prize of a draw as get_draw() lists them all. */
export interface PublishedPrize {
  prize_position: number;
  draw_id: string;
  counter: number;
  winning_position: number | null;
  winning_number: number;
  winning_ticket_id: string;
  winner_display_name: string;
  winner_town: string | null;
  prize_description: string;
}

/** What get_draw() returns, as far as verification needs it. */
export interface PublishedDraw {
  algorithm: string;
  competition: { id: string };
  ticket_count: number;
  ticket_list_hash: string;
  seed_commitment: string;
  seed_hex: string;
  external_hex: string | null;
  counter: number;
  winning_number: number;
  winning_ticket_id: string;
  /** v1: the ticket ids in number order. v2: null (the list is the ticket-list CSV). */
  tickets?: string[] | null;
  /** v2: the winning row of the ticket list, from 1; null for v1. */
  winning_position?: number | null;
  /** Which prize this draw is (1 for the first); absent for a draw published before prizes had positions. */
  prize_position?: number;
  /** Every prize of the same draw, first prize first: each is recomputed and checked. */
  prizes?: PublishedPrize[] | null;
  /** How many prizes the competition offered before entry: as many are drawn, unless there were fewer tickets. */
  prizes_offered?: number;
}

/** What a check is about, in the order a draw is worked out: the live draw page reveals them in this order. */
export type CheckStep = "seed" | "list" | "derivation" | "ticket";

export interface Check {
  name: string;
  step: CheckStep;
  ok: boolean;
  /** The published value (or, for `source: "format"`, what the format requires). */
  expected: string;
  computed: string;
  /** "published" (a value the site published) or "format" (a rule of the algorithm). */
  source?: "published" | "format";
  /** With several prizes: the prize this check is about (its position). */
  prize?: number;
}

export interface Verification {
  ok: boolean;
  checks: Check[];
  /** This draw's prize (`prize_position`): its winning number, counter and row. */
  winningNumber: number | null;
  counter: number | null;
  /** v2: the row of the ticket list the derivation picked; null for v1. */
  winningPosition: number | null;
  /** v2 with several prizes: every prize as recomputed, first prize first (empty otherwise). */
  prizes: { prizePosition: number; counter: number; winningPosition: number; winningNumber: number | null }[];
}

/** A v2 ticket list as it arrives: a fetch body, any stream or iterable of chunks, or the whole text. */
export type TicketListSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Uint8Array | string;

export type VerifyProgress =
  | { stage: "download"; rows: number; bytes: number; expectedRows: number }
  | { stage: "hash"; rows: number; bytes: number }
  | { stage: "derive" };

export interface VerifyOptions {
  /** The v2 ticket list (required for labcash-draw-v2, ignored for v1). */
  ticketList?: TicketListSource;
  /** Called as the list downloads (at most every `progressEveryMs`) and at each later stage. */
  onProgress?: (progress: VerifyProgress) => void;
  progressEveryMs?: number;
}

type Adder = (
  step: CheckStep,
  name: string,
  expected: string | number,
  computed: string | number,
  prize?: number,
) => void;

function checker(): { checks: Check[]; add: Adder } {
  const checks: Check[] = [];
  const add: Adder = (step, name, expected, computed, prize) =>
    checks.push({
      name,
      step,
      ok: String(expected) === String(computed),
      expected: String(expected),
      computed: String(computed),
      ...(prize === undefined ? {} : { prize }),
    });
  return { checks, add };
}

const isSeedHex = (hex: string) => /^[0-9a-f]{64}$/.test(hex);

/** The seed against the commitment published before sales; true when they match. */
async function checkSeed(draw: PublishedDraw, add: Adder): Promise<boolean> {
  if (!isSeedHex(draw.seed_hex)) {
    add("seed", "Seed is 32 bytes of hex", "64 hex digits", draw.seed_hex);
    return false;
  }
  const commitment = await commitmentOf(draw.seed_hex);
  add("seed", "Seed matches the commitment published before sales", draw.seed_commitment, commitment);
  return commitment === draw.seed_commitment;
}

/**
 * Recomputes a draw from its published inputs: the seed matches the commitment published before
 * sales, the ticket list matches its hash and count, and the derivation gives the recorded counter,
 * winning number and ticket. A v1 draw carries its list (`tickets`); a v2 draw is checked against
 * the ticket-list CSV passed as `options.ticketList`, read as it arrives.
 */
export async function verifyDraw(draw: PublishedDraw, options: VerifyOptions = {}): Promise<Verification> {
  if (draw.algorithm === DRAW_ALGORITHM_V2) return verifyV2(draw, options);
  if (draw.algorithm !== DRAW_ALGORITHM_V1) {
    const { checks, add } = checker();
    add("derivation", "Algorithm", `${DRAW_ALGORITHM_V1} or ${DRAW_ALGORITHM_V2}`, draw.algorithm);
    return { ok: false, checks, winningNumber: null, counter: null, winningPosition: null, prizes: [] };
  }
  if (!draw.tickets) throw new Error("A labcash-draw-v1 draw carries its ticket list");
  const tickets = draw.tickets;
  const { checks, add } = checker();
  add("derivation", "Algorithm", DRAW_ALGORITHM_V1, draw.algorithm);
  const seedOk = await checkSeed(draw, add);
  add("list", "Number of tickets", draw.ticket_count, tickets.length);
  const listHash = await ticketListHash(tickets);
  add("list", "Ticket list hash", draw.ticket_list_hash, listHash);

  let winningNumber: number | null = null;
  let counter: number | null = null;
  if (isSeedHex(draw.seed_hex) && tickets.length > 0) {
    const derived = await deriveWinner({
      seedHex: draw.seed_hex,
      competitionId: draw.competition.id,
      ticketListHashHex: listHash,
      externalHex: draw.external_hex,
      ticketCount: tickets.length,
    });
    winningNumber = derived.winningNumber;
    counter = derived.counter;
    add("derivation", "Counter", draw.counter, counter);
    add("ticket", "Winning ticket number", draw.winning_number, winningNumber);
    add("ticket", "Winning ticket", draw.winning_ticket_id, tickets[winningNumber - 1]);
  }
  return { ok: seedOk && checks.every((c) => c.ok), checks, winningNumber, counter, winningPosition: null, prizes: [] };
}

async function* chunksOf(source: TicketListSource): AsyncGenerator<Uint8Array> {
  if (typeof source === "string") {
    yield new TextEncoder().encode(source);
  } else if (source instanceof Uint8Array) {
    yield source;
  } else if ("getReader" in source) {
    // getReader rather than for-await: not every browser iterates a ReadableStream yet.
    const reader = source.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  } else {
    yield* source;
  }
}

/** Reads a v2 ticket list into a TicketListReader, reporting progress as it goes. */
export async function readTicketList(
  source: TicketListSource,
  expectedRows: number,
  onProgress?: (progress: VerifyProgress) => void,
  progressEveryMs = 100,
): Promise<TicketListReader> {
  const reader = new TicketListReader(expectedRows);
  let reported = 0;
  for await (const chunk of chunksOf(source)) {
    reader.push(chunk);
    const now = Date.now();
    if (onProgress && now - reported >= progressEveryMs) {
      reported = now;
      onProgress({ stage: "download", rows: reader.rows, bytes: reader.bytes, expectedRows });
    }
  }
  reader.finish();
  onProgress?.({ stage: "download", rows: reader.rows, bytes: reader.bytes, expectedRows });
  return reader;
}

async function verifyV2(draw: PublishedDraw, options: VerifyOptions): Promise<Verification> {
  if (!options.ticketList) throw new Error("A labcash-draw-v2 draw is checked against its ticket-list CSV");
  const { checks, add } = checker();
  add("derivation", "Algorithm", DRAW_ALGORITHM_V2, draw.algorithm);
  const seedOk = await checkSeed(draw, add);

  const list = await readTicketList(options.ticketList, draw.ticket_count, options.onProgress, options.progressEveryMs);
  checks.push({
    name: "Ticket list is well formed",
    step: "list",
    ok: list.problem === null,
    expected: "a header, then one number,id line per ticket in number order",
    computed: list.problem ?? "well formed",
    source: "format",
  });
  add("list", "Number of tickets", draw.ticket_count, list.rows);
  options.onProgress?.({ stage: "hash", rows: list.rows, bytes: list.bytes });
  const listHash = bytesToHex(await sha256(list.data()));
  add("list", "Ticket list hash", draw.ticket_list_hash, listHash);

  let winningNumber: number | null = null;
  let counter: number | null = null;
  let winningPosition: number | null = null;
  const prizes: Verification["prizes"] = [];
  const thisPrize = draw.prize_position ?? 1;
  // Every prize the draw lists (just this one for a draw published before prizes had positions).
  const published = draw.prizes?.length
    ? draw.prizes
    : [
        {
          prize_position: thisPrize,
          counter: draw.counter,
          winning_position: draw.winning_position ?? null,
          winning_number: draw.winning_number,
          winning_ticket_id: draw.winning_ticket_id,
        },
      ];
  // How many prizes to recompute: as many as were offered (fewer only when there were fewer tickets), and never fewer
  // than this page's own prize or any prize the list names, so a prize left out of the list, or one it adds, fails.
  const offered = draw.prizes_offered ?? published.length;
  const expected = Math.min(offered, list.rows);
  const prizeCount = Math.max(thisPrize, expected, ...published.map((p) => p.prize_position));
  const positions = published.map((p) => p.prize_position).join(",");
  if (offered > 1 || published.length > 1) {
    add("derivation", "Prizes drawn", expected, published.length);
    checks.push({
      name: "Prizes listed in order",
      step: "derivation",
      ok: positions === Array.from({ length: published.length }, (_, i) => i + 1).join(","),
      expected: "1st, 2nd, 3rd… each once",
      computed: positions,
      source: "format",
    });
  }
  const derivable = prizeCount <= list.rows && prizeCount <= MAX_PRIZES;
  const several = prizeCount > 1;
  if (!derivable)
    add("derivation", "Prizes the list can hold", `at most ${Math.min(list.rows, MAX_PRIZES)}`, prizeCount);
  if (isSeedHex(draw.seed_hex) && list.rows > 0 && !list.problem && derivable) {
    options.onProgress?.({ stage: "derive" });
    const derived = await deriveWinners(
      {
        seedHex: draw.seed_hex,
        competitionId: draw.competition.id,
        ticketListHashHex: listHash,
        externalHex: draw.external_hex,
        ticketCount: list.rows,
      },
      prizeCount,
    );
    derived.forEach((winner, i) => {
      const position = i + 1;
      const row = list.row(winner.winningNumber);
      const number = row?.number ?? null;
      prizes.push({
        prizePosition: position,
        counter: winner.counter,
        winningPosition: winner.winningNumber,
        winningNumber: number,
      });
      // This draw's own prize is checked against what its page shows; the others against the list of prizes.
      const claimed =
        position === thisPrize
          ? {
              counter: draw.counter,
              winning_position: draw.winning_position ?? null,
              winning_number: draw.winning_number,
              winning_ticket_id: draw.winning_ticket_id,
            }
          : published.find((p) => p.prize_position === position);
      // This draw's own prize keeps the plain names; the others say which prize they are about.
      const name = (what: string) =>
        position === thisPrize ? what : `${ordinal(position)} prize: ${what.toLowerCase()}`;
      if (position === thisPrize) {
        winningPosition = winner.winningNumber;
        counter = winner.counter;
        winningNumber = number;
      }
      add("derivation", name("Counter"), claimed?.counter ?? "none", winner.counter, several ? position : undefined);
      add(
        "derivation",
        name("Winning position in the list"),
        claimed?.winning_position ?? "none",
        winner.winningNumber,
        several ? position : undefined,
      );
      add(
        "ticket",
        name("Winning ticket number"),
        claimed?.winning_number ?? "none",
        number ?? "none",
        several ? position : undefined,
      );
      add(
        "ticket",
        name("Winning ticket"),
        claimed?.winning_ticket_id ?? "none",
        row?.id ?? "none",
        several ? position : undefined,
      );
    });
  }
  return { ok: seedOk && checks.every((c) => c.ok), checks, winningNumber, counter, winningPosition, prizes };
}

/**
 * verifyDraw as a page runs it: a v2 draw's ticket list is fetched from `ticketListUrl` (the entry list's
 * ticket-list CSV) and read as it arrives. Shared by the verification page and the live draw page.
 */
export async function verifyPublishedDraw(
  draw: PublishedDraw,
  {
    ticketListUrl,
    signal,
    onProgress,
  }: { ticketListUrl?: string; signal?: AbortSignal; onProgress?: VerifyOptions["onProgress"] },
): Promise<Verification> {
  let ticketList: ReadableStream<Uint8Array> | undefined;
  if (draw.algorithm === DRAW_ALGORITHM_V2) {
    if (!ticketListUrl) throw new Error("this page does not say where the ticket list is");
    // The server starts sending once SQL has the first 100,000 rows: say what is happening meanwhile.
    onProgress?.({ stage: "download", rows: 0, bytes: 0, expectedRows: draw.ticket_count });
    const response = await fetch(ticketListUrl, { signal });
    if (!response.ok || !response.body) {
      throw new Error(`the ticket list could not be downloaded (HTTP ${response.status})`);
    }
    ticketList = response.body;
  }
  return verifyDraw(draw, { ticketList, onProgress });
}
