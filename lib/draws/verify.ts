// The draw derivation (labcash-draw-v1), with WebCrypto only, so the same code
// runs in the visitor's browser on the verification page and in Node in the
// tests. It mirrors private.draw_derive() in the draws migration:
//
//   ticket list      "1:<ticket uuid>\n2:<ticket uuid>\n…" (UTF-8, number order)
//   ticket_list_hash SHA-256(ticket list)
//   h(counter)       SHA-256(seed 32 bytes ‖ competition id 16 raw bytes ‖ ticket_list_hash 32 bytes
//                            ‖ external randomness bytes (none, or as published) ‖ counter uint32 big-endian)
//   x                first 6 bytes of h, unsigned big-endian (48 bits: exact in a JS number)
//   accept           x < 2^48 − (2^48 mod N) → winning number (x mod N) + 1; otherwise counter + 1

export const DRAW_ALGORITHM = "labcash-draw-v1";

const TWO_POW_48 = 2 ** 48;

type Bytes = Uint8Array<ArrayBuffer>;

export function hexToBytes(hex: string): Bytes {
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error("Not a hex string of whole bytes");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return hex;
}

export function uuidToBytes(id: string): Bytes {
  const hex = id.replace(/-/g, "");
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error(`Not a UUID: ${id}`);
  return hexToBytes(hex);
}

function concat(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export async function sha256(data: Uint8Array | string): Promise<Bytes> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : concat(data);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** The canonical ticket list: ticket ids in number order (element i is ticket i + 1). */
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
  const limit = TWO_POW_48 - (TWO_POW_48 % ticketCount);
  return x < limit ? (x % ticketCount) + 1 : null;
}

export interface DeriveInput {
  seedHex: string;
  competitionId: string;
  ticketListHashHex: string;
  externalHex?: string | null;
  ticketCount: number;
}

export async function deriveWinner(input: DeriveInput): Promise<{ winningNumber: number; counter: number }> {
  const seed = hexToBytes(input.seedHex);
  const listHash = hexToBytes(input.ticketListHashHex);
  if (seed.length !== 32 || listHash.length !== 32)
    throw new Error("The seed and the ticket list hash must be 32 bytes each");
  const prefix = concat(seed, uuidToBytes(input.competitionId), listHash, hexToBytes(input.externalHex ?? ""));
  for (let counter = 0; counter <= 0xffffffff; counter++) {
    const block = new Uint8Array(4);
    new DataView(block.buffer).setUint32(0, counter, false);
    const h = await sha256(concat(prefix, block));
    let x = 0;
    for (let i = 0; i < 6; i++) x = x * 256 + h[i];
    const winningNumber = pick(x, input.ticketCount);
    if (winningNumber !== null) return { winningNumber, counter };
  }
  throw new Error("No counter accepted");
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
  tickets: string[];
}

export interface Check {
  name: string;
  ok: boolean;
  expected: string;
  computed: string;
}

export interface Verification {
  ok: boolean;
  checks: Check[];
  winningNumber: number | null;
  counter: number | null;
}

/**
 * Recomputes a draw from its published inputs: the seed matches the commitment
 * published before sales, the ticket list matches its hash and count, and the
 * derivation gives the recorded counter, winning number and ticket.
 */
export async function verifyDraw(draw: PublishedDraw): Promise<Verification> {
  const checks: Check[] = [];
  const add = (name: string, expected: string | number, computed: string | number) =>
    checks.push({
      name,
      ok: String(expected) === String(computed),
      expected: String(expected),
      computed: String(computed),
    });

  add("Algorithm", DRAW_ALGORITHM, draw.algorithm);
  let seedOk = /^[0-9a-f]{64}$/.test(draw.seed_hex);
  if (seedOk) {
    const commitment = await commitmentOf(draw.seed_hex);
    add("Seed matches the commitment published before sales", draw.seed_commitment, commitment);
    seedOk = commitment === draw.seed_commitment;
  } else {
    add("Seed is 32 bytes of hex", "64 hex digits", draw.seed_hex);
  }
  add("Number of tickets", draw.ticket_count, draw.tickets.length);
  const listHash = await ticketListHash(draw.tickets);
  add("Ticket list hash", draw.ticket_list_hash, listHash);

  let winningNumber: number | null = null;
  let counter: number | null = null;
  if (/^[0-9a-f]{64}$/.test(draw.seed_hex) && draw.tickets.length > 0) {
    const derived = await deriveWinner({
      seedHex: draw.seed_hex,
      competitionId: draw.competition.id,
      ticketListHashHex: listHash,
      externalHex: draw.external_hex,
      ticketCount: draw.tickets.length,
    });
    winningNumber = derived.winningNumber;
    counter = derived.counter;
    add("Counter", draw.counter, counter);
    add("Winning ticket number", draw.winning_number, winningNumber);
    add("Winning ticket", draw.winning_ticket_id, draw.tickets[winningNumber - 1]);
  }
  return { ok: seedOk && checks.every((c) => c.ok), checks, winningNumber, counter };
}
