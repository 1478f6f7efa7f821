import { describe, expect, it } from "vitest";
import { TICKET_LIST_HEADER, TicketListReader, ticketListCsv, type TicketRow } from "@/lib/draws/ticket-list";
import { bytesToHex, sha256 } from "@/lib/crypto/bytes";
import {
  commitmentOf,
  deriveWinner,
  DRAW_ALGORITHM_V2,
  verifyDraw,
  type PublishedDraw,
  type TicketListSource,
  type VerifyProgress,
} from "@/lib/draws/verify";

// labcash-draw-v2: the ticket list is a CSV that may have gaps in its numbers; the derivation picks a
// row (the winning position) and the winner is the number on that row.

const hexOf = async (label: string) => bytesToHex(await sha256(label));
const uuidOf = async (label: string) => {
  const h = await hexOf(label);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** Online numbers 1…online with some unsold, then postal tickets from total + 1. */
async function rowsWithGaps(label: string, online: number, total: number, postal: number): Promise<TicketRow[]> {
  const numbers: number[] = [];
  for (let n = 1; n <= online; n++) if (n % 7 !== 3) numbers.push(n);
  for (let n = total + 1; n <= total + postal; n++) numbers.push(n);
  return Promise.all(numbers.map(async (number) => ({ number, id: await uuidOf(`ticket:${label}:${number}`) })));
}

async function v2Draw(label: string, rows: TicketRow[], externalHex: string | null = null) {
  const seed = await hexOf(`seed:${label}`);
  const competitionId = await uuidOf(`competition:${label}`);
  const csv = ticketListCsv(rows);
  const listHash = bytesToHex(await sha256(csv));
  const { winningNumber: position, counter } = await deriveWinner({
    seedHex: seed,
    competitionId,
    ticketListHashHex: listHash,
    externalHex,
    ticketCount: rows.length,
  });
  const draw: PublishedDraw = {
    algorithm: DRAW_ALGORITHM_V2,
    competition: { id: competitionId },
    ticket_count: rows.length,
    ticket_list_hash: listHash,
    seed_commitment: await commitmentOf(seed),
    seed_hex: seed,
    external_hex: externalHex,
    counter,
    winning_position: position,
    winning_number: rows[position - 1].number,
    winning_ticket_id: rows[position - 1].id,
    tickets: null,
  };
  return { draw, csv };
}

/** The text as a stream of `size`-byte chunks, as a download arrives. */
function streamOf(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function* iterableOf(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

const failed = (checks: { name: string; ok: boolean }[]) => checks.filter((c) => !c.ok).map((c) => c.name);

describe("the v2 ticket list", () => {
  it("has a fixed format (pins the bytes the draw hashes)", async () => {
    const csv = ticketListCsv([
      { number: 1, id: "A0000000-0000-4000-8000-000000000001" },
      { number: 51, id: "a0000000-0000-4000-8000-000000000051" },
    ]);
    expect(csv).toBe(
      "ticket_number,ticket_id\n1,a0000000-0000-4000-8000-000000000001\n51,a0000000-0000-4000-8000-000000000051\n",
    );
    expect(TICKET_LIST_HEADER).toBe("ticket_number,ticket_id\n");
    expect(bytesToHex(await sha256(TICKET_LIST_HEADER))).toBe(
      bytesToHex(await sha256(new TextEncoder().encode("ticket_number,ticket_id\n"))),
    );
  });

  it("reads the same rows and bytes however the download is split", async () => {
    const rows = await rowsWithGaps("split", 60, 100, 9);
    const csv = ticketListCsv(rows);
    const bytes = new TextEncoder().encode(csv);
    for (const size of [1, 2, 7, 45, 46, 1000, bytes.length]) {
      const reader = new TicketListReader(size === 1 ? 0 : rows.length);
      for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, at + size));
      reader.finish();
      expect(reader.problem, `chunks of ${size}`).toBeNull();
      expect(reader.rows).toBe(rows.length);
      expect(reader.bytes).toBe(bytes.length);
      expect(Buffer.from(reader.data()).equals(Buffer.from(bytes))).toBe(true);
      expect(reader.row(1)).toEqual(rows[0]);
      expect(reader.row(rows.length)).toEqual(rows.at(-1));
      expect(reader.row(17)).toEqual(rows[16]);
      expect(reader.row(0)).toBeNull();
      expect(reader.row(rows.length + 1)).toBeNull();
    }
  });

  it("names the first line that breaks the format", () => {
    const id = "a0000000-0000-4000-8000-000000000001";
    const problem = (text: string) => {
      const reader = new TicketListReader();
      reader.push(new TextEncoder().encode(text));
      reader.finish();
      return reader.problem;
    };
    expect(problem(`${TICKET_LIST_HEADER}1,${id}\n2,${id.replace("a", "b")}\n`)).toBeNull();
    expect(problem(TICKET_LIST_HEADER)).toBeNull();
    expect(problem("")).toMatch(/^Line 1: the list is empty/);
    expect(problem(`number,id\n1,${id}\n`)).toMatch(/^Line 1: the header must be/);
    expect(problem(`${TICKET_LIST_HEADER}1,${id}`)).toMatch(/^Line 2: the last line does not end with a newline/);
    expect(problem(`${TICKET_LIST_HEADER}2,${id}\n2,${id}\n`)).toMatch(/^Line 3: ticket 2 is not after ticket 2/);
    expect(problem(`${TICKET_LIST_HEADER}5,${id}\n3,${id}\n`)).toMatch(/^Line 3: ticket 3 is not after ticket 5/);
    expect(problem(`${TICKET_LIST_HEADER}0,${id}\n`)).toMatch(/^Line 2: expected a ticket number from 1/);
    expect(problem(`${TICKET_LIST_HEADER}01,${id}\n`)).toMatch(/^Line 2: expected a ticket number from 1/);
    expect(problem(`${TICKET_LIST_HEADER}1,${id.toUpperCase()}\n`)).toMatch(/^Line 2: expected a ticket id/);
    expect(problem(`${TICKET_LIST_HEADER}1,${id}\r\n`)).toMatch(/^Line 2: expected a ticket id/);
    expect(problem(`${TICKET_LIST_HEADER}1;${id}\n`)).toMatch(/^Line 2: expected a comma/);
    expect(problem(`${TICKET_LIST_HEADER}99999999999,${id}\n`)).toMatch(/^Line 2: the ticket number is too large/);
  });
});

describe("verifying a labcash-draw-v2 draw", () => {
  it("derives the winning row and reads its number and id, with gaps in the numbers", async () => {
    for (const [label, online, total, postal, ext] of [
      ["one", 1, 10, 0, null],
      ["postal-only", 0, 10, 3, null],
      ["gaps", 80, 100, 12, null],
      ["external", 40, 50, 6, "ab".repeat(32)],
    ] as const) {
      const rows = await rowsWithGaps(label, online, total, postal);
      const { draw, csv } = await v2Draw(label, rows, ext);
      const result = await verifyDraw(draw, { ticketList: csv });
      expect(failed(result.checks), label).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.winningPosition).toBe(draw.winning_position);
      expect(result.winningNumber).toBe(draw.winning_number);
    }
  });

  it("accepts the list as a stream, an async iterable or bytes", async () => {
    const rows = await rowsWithGaps("sources", 300, 400, 20);
    const { draw, csv } = await v2Draw("sources", rows);
    const sources: TicketListSource[] = [
      streamOf(csv, 1024),
      streamOf(csv, 3),
      iterableOf(csv, 500),
      new TextEncoder().encode(csv),
    ];
    for (const ticketList of sources) expect((await verifyDraw(draw, { ticketList })).ok).toBe(true);
  });

  it("a position and a number differ when numbers have gaps, and only the position is drawn", async () => {
    // Ticket 1 unsold: every number is past its row.
    const rows = (await rowsWithGaps("position", 200, 250, 30)).filter((r) => r.number !== 1);
    const { draw, csv } = await v2Draw("position", rows);
    expect(draw.winning_number).toBeGreaterThan(draw.winning_position!);
    // The derivation's (x mod N) + 1 read as a number would name another ticket (or none).
    expect(rows.findIndex((r) => r.number === draw.winning_number) + 1).toBe(draw.winning_position);
    const asNumber = await verifyDraw({ ...draw, winning_number: draw.winning_position! }, { ticketList: csv });
    expect(failed(asNumber.checks)).toEqual(["Winning ticket number"]);
  });

  it("reports progress while downloading, then hashing, then deriving", async () => {
    const rows = await rowsWithGaps("progress", 2000, 2000, 0);
    const { draw, csv } = await v2Draw("progress", rows);
    const seen: VerifyProgress[] = [];
    await verifyDraw(draw, { ticketList: streamOf(csv, 4096), onProgress: (p) => seen.push(p), progressEveryMs: 0 });
    const stages = seen.map((p) => p.stage);
    expect(stages[0]).toBe("download");
    expect(stages.slice(-2)).toEqual(["hash", "derive"]);
    const downloads = seen.filter((p) => p.stage === "download");
    expect(downloads.length).toBeGreaterThan(10);
    expect(downloads.at(-1)).toEqual({
      stage: "download",
      rows: rows.length,
      bytes: new TextEncoder().encode(csv).length,
      expectedRows: rows.length,
    });
  });

  it("a tampered list, seed or result fails, naming the check", async () => {
    const rows = await rowsWithGaps("tamper", 90, 100, 8);
    const { draw, csv } = await v2Draw("tamper", rows, "cd".repeat(32));
    const flipped = (hex: string) => (hex[0] === "0" ? "1" : "0") + hex.slice(1);
    const lines = csv.split("\n");

    const swappedIds = [...rows];
    [swappedIds[0], swappedIds[1]] = [
      { ...swappedIds[0], id: rows[1].id },
      { ...swappedIds[1], id: rows[0].id },
    ];
    expect(failed((await verifyDraw(draw, { ticketList: ticketListCsv(swappedIds) })).checks)).toContain(
      "Ticket list hash",
    );

    const dropped = [lines[0], ...lines.slice(2)].join("\n");
    const droppedResult = await verifyDraw(draw, { ticketList: dropped });
    expect(failed(droppedResult.checks)).toEqual(expect.arrayContaining(["Number of tickets", "Ticket list hash"]));

    const outOfOrder = [lines[0], lines[2], lines[1], ...lines.slice(3)].join("\n");
    const outOfOrderResult = await verifyDraw(draw, { ticketList: outOfOrder });
    expect(failed(outOfOrderResult.checks)).toContain("Ticket list is well formed");
    expect(outOfOrderResult.checks.find((c) => c.name === "Ticket list is well formed")?.computed).toMatch(/^Line 3:/);
    expect(outOfOrderResult.ok).toBe(false);

    const truncated = await verifyDraw(draw, { ticketList: csv.slice(0, -10) });
    expect(failed(truncated.checks)).toContain("Ticket list is well formed");

    expect(
      failed((await verifyDraw({ ...draw, seed_hex: flipped(draw.seed_hex) }, { ticketList: csv })).checks),
    ).toEqual(expect.arrayContaining(["Seed matches the commitment published before sales"]));
    expect((await verifyDraw({ ...draw, external_hex: flipped(draw.external_hex!) }, { ticketList: csv })).ok).toBe(
      false,
    );
    const otherPosition = (draw.winning_position! % rows.length) + 1;
    expect(
      failed((await verifyDraw({ ...draw, winning_position: otherPosition }, { ticketList: csv })).checks),
    ).toEqual(["Winning position in the list"]);
    expect(
      failed(
        (await verifyDraw({ ...draw, winning_ticket_id: rows[otherPosition - 1].id }, { ticketList: csv })).checks,
      ),
    ).toEqual(["Winning ticket"]);
  });

  it("needs the ticket list, and refuses an algorithm it does not know", async () => {
    const { draw } = await v2Draw("no-list", await rowsWithGaps("no-list", 5, 5, 0));
    await expect(verifyDraw(draw)).rejects.toThrow(/ticket-list CSV/);
    const unknown = await verifyDraw({ ...draw, algorithm: "labcash-draw-v9" });
    expect(unknown.ok).toBe(false);
    expect(failed(unknown.checks)).toEqual(["Algorithm"]);
  });

  it("reads a ticket list in small chunks in time that grows with its length, not faster", async () => {
    /** An n-ticket draw and its list, and a verification of it read 64 KiB at a time: whether it checked out, and its milliseconds. */
    const listOf = async (n: number) => {
      const rows: TicketRow[] = [];
      for (let number = 1; number <= n; number++) {
        const hex = number.toString(16).padStart(12, "0");
        rows.push({ number, id: `00000000-0000-4000-8000-${hex}` });
      }
      return v2Draw(`list of ${n}`, rows);
    };
    const reading = async ({ draw, csv }: Awaited<ReturnType<typeof listOf>>) => {
      const started = performance.now();
      const { ok } = await verifyDraw(draw, { ticketList: streamOf(csv, 65_536) });
      return { ok, ms: performance.now() - started };
    };
    const lists = { small: await listOf(20_000), large: await listOf(200_000) };
    const small = { ok: true, ms: Infinity };
    const large = { ok: true, ms: Infinity };
    // The fastest of three readings each, taken in turns: a pause of a busy machine's lands in one reading of one
    // size, not the code's time, and a burst of load slows both sizes alike.
    for (let turn = 0; turn < 3; turn++)
      for (const [size, best] of [
        ["small", small],
        ["large", large],
      ] as const) {
        const { ok, ms } = await reading(lists[size]);
        best.ok &&= ok;
        best.ms = Math.min(best.ms, ms);
      }
    // Ten times the tickets, about ten times the time however fast the machine: a reading that rescans what it has
    // read (a hundred times the time) fails, and no clock is assumed.
    expect(small.ok && large.ok).toBe(true);
    expect(large.ms / small.ms).toBeLessThan(30);
  });
});
