// labcash-instant-win-v1, with WebCrypto only, so the same code runs in the visitor's browser (the
// verification page) and in Node (the tests). It mirrors private.instant_win_derive and
// private.instant_win_list_text in SQL (tests/unit/instant-wins-sql-agreement.test.ts):
//
//   h(counter)   HMAC-SHA256(key = the competition's 32-byte draw seed, "instant-win:<competition id>:<counter>")
//   x            first 6 bytes of h (48 bits); the draw's rejection step (pick) gives a number of 1..N or none
//   numbers      the first `count` distinct accepted numbers, in order: number k is slot k
//   prizes       slots are dealt to the prizes in their order, `quantity` each
//   commitment   SHA-256 of "labcash-instant-win-v1\ncompetition:<id>\nseed:<hex>\ntickets:<N>\n" then
//                "<slot>,<number>,<prize position>\n" per slot (the seed is in it, so a short list of
//                numbers cannot be found by trying every combination against the commitment)

import { bytesToHex, first48Bits, hexToBytes, hmacSha256Key, sha256 } from "@/lib/crypto/bytes";
import { pick } from "@/lib/draws/verify";

export const INSTANT_WIN_ALGORITHM = "labcash-instant-win-v1";

export interface InstantWinInput {
  seedHex: string;
  competitionId: string;
  /** N: the online tickets, 1..N. */
  ticketCount: number;
  /** How many winning numbers (the prizes' quantities added up). */
  count: number;
}

/** The winning numbers in slot order. */
export async function deriveInstantWinNumbers(input: InstantWinInput): Promise<number[]> {
  const { seedHex, competitionId, ticketCount, count } = input;
  if (!Number.isSafeInteger(count) || count < 0 || count > ticketCount)
    throw new Error("At most one winning number per ticket");
  const key = await hmacSha256Key(hexToBytes(seedHex));
  const encoder = new TextEncoder();
  const chosen = new Set<number>();
  const numbers: number[] = [];
  for (let counter = 0; numbers.length < count; counter++) {
    const message = encoder.encode(`instant-win:${competitionId.toLowerCase()}:${counter}`);
    const n = pick(first48Bits(new Uint8Array(await crypto.subtle.sign("HMAC", key, message))), ticketCount);
    if (n !== null && !chosen.has(n)) {
      chosen.add(n);
      numbers.push(n);
    }
  }
  return numbers;
}

export interface InstantWinSlot {
  slot: number;
  number: number;
  prizePosition: number;
}

/** Deals the numbers (slot order) to the prizes in position order, `quantity` each. */
export function assignSlots(numbers: readonly number[], prizes: readonly { position: number; quantity: number }[]) {
  const positions = [...prizes]
    .sort((a, b) => a.position - b.position)
    .flatMap((p) => Array.from({ length: p.quantity }, () => p.position));
  if (positions.length !== numbers.length) throw new Error("One winning number per prize");
  return numbers.map((number, i): InstantWinSlot => ({ slot: i + 1, number, prizePosition: positions[i] }));
}

export function instantWinListText(
  competitionId: string,
  seedHex: string,
  ticketCount: number,
  slots: readonly InstantWinSlot[],
) {
  return (
    `${INSTANT_WIN_ALGORITHM}\ncompetition:${competitionId.toLowerCase()}\nseed:${seedHex.toLowerCase()}\ntickets:${ticketCount}\n` +
    slots.map((s) => `${s.slot},${s.number},${s.prizePosition}\n`).join("")
  );
}

export async function instantWinCommitment(...args: Parameters<typeof instantWinListText>): Promise<string> {
  return bytesToHex(await sha256(instantWinListText(...args)));
}

/** What get_instant_wins publishes after the draw (the seed and numbers are null before it). */
export interface PublishedInstantWins {
  commitment: string | null;
  ticket_count: number;
  prizes: { position: number; title: string; quantity: number }[];
  wins: {
    ticket_number: number;
    winning_number: number;
    prize_position: number;
    prize: string;
    display_name: string;
  }[];
  seed_hex: string | null;
  numbers: { slot: number; number: number; prize_position: number }[] | null;
}

export interface InstantWinCheck {
  label: string;
  ok: boolean;
}

/**
 * Recomputes the winning numbers from the revealed seed, checks the published commitment and each
 * award: its ticket holds a winning number (or, for a postal ticket after the online pool, its place
 * number − N does) and it got that number's prize.
 */
export async function verifyInstantWins(
  competitionId: string,
  published: PublishedInstantWins,
): Promise<InstantWinCheck[]> {
  if (!published.seed_hex || !published.commitment) return [];
  const count = published.prizes.reduce((n, p) => n + p.quantity, 0);
  const numbers = await deriveInstantWinNumbers({
    seedHex: published.seed_hex,
    competitionId,
    ticketCount: published.ticket_count,
    count,
  });
  const slots = assignSlots(numbers, published.prizes);
  const commitment = await instantWinCommitment(competitionId, published.seed_hex, published.ticket_count, slots);
  const byNumber = new Map(slots.map((s) => [s.number, s]));
  const checks: InstantWinCheck[] = [
    {
      label: `The instant-win commitment ${published.commitment} matches the list rebuilt from the seed`,
      ok: commitment === published.commitment,
    },
    {
      label: "The published winning numbers are the derived ones",
      ok:
        JSON.stringify(slots.map((s) => [s.slot, s.number, s.prizePosition])) ===
        JSON.stringify((published.numbers ?? []).map((s) => [s.slot, s.number, s.prize_position])),
    },
  ];
  for (const win of published.wins) {
    const place =
      win.ticket_number > published.ticket_count ? win.ticket_number - published.ticket_count : win.ticket_number;
    const slot = byNumber.get(place);
    checks.push({
      label: `Ticket #${win.ticket_number} (${win.display_name}) won ${win.prize}`,
      ok: slot !== undefined && slot.number === win.winning_number && slot.prizePosition === win.prize_position,
    });
  }
  return checks;
}
