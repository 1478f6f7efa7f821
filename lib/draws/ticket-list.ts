// The public ticket list of labcash-draw-v2: the exact bytes the draw hashes, served as
// /competitions/{slug}/entries/ticket-list.csv (get_ticket_list_csv in SQL):
//
//   ticket_number,ticket_id\n
//   <number>,<ticket uuid, lower case>\n      one line per ticket, in number order (UTF-8)
//
// Numbers may have gaps (unsold online numbers; postal tickets start at total_tickets + 1), so the
// draw picks a row (its position, from 1, header excluded) and the winner is the number on that row.
//
// TicketListReader takes the list as it downloads, keeps its bytes in one growing buffer (so the
// SHA-256 is of exactly what was received) and checks the format line by line as it goes, so a
// 1,000,000-ticket list (about 45 MB) is read once and never turned into a million strings.

export const TICKET_LIST_HEADER = "ticket_number,ticket_id\n";

export interface TicketRow {
  number: number;
  id: string;
}

/** The canonical ticket list for these rows (already in number order). */
export function ticketListCsv(rows: readonly TicketRow[]): string {
  return TICKET_LIST_HEADER + rows.map((r) => `${r.number},${r.id.toLowerCase()}\n`).join("");
}

const NEWLINE = 10;
const COMMA = 44;
const HYPHEN = 45;
const ZERO = 48;
const NINE = 57;
const LOWER_A = 97;
const LOWER_F = 102;
const UUID_LENGTH = 36;
const MAX_TICKET_NUMBER = 2 ** 31 - 1;
const HEADER_BYTES = new TextEncoder().encode(TICKET_LIST_HEADER.slice(0, -1));
/** A typical row ("123456,<uuid>\n"), for sizing the buffer before the first byte arrives. */
const TYPICAL_ROW_BYTES = 45;

type Bytes = Uint8Array<ArrayBuffer>;

export class TicketListReader {
  private buffer: Bytes;
  private length = 0;
  /** Where the next unparsed line starts. */
  private parsed = 0;
  private line = 0;
  private lastNumber = 0;
  /** Byte offset of each row's first byte (row i + 1 of the list). */
  private offsets: Uint32Array<ArrayBuffer>;
  private rowCount = 0;
  private firstProblem: string | null = null;
  private finished = false;

  /** `expectedRows` only sizes the buffers; any number of rows may arrive. */
  constructor(expectedRows = 0) {
    const rows = Math.max(0, Math.floor(expectedRows));
    this.buffer = new Uint8Array(Math.max(4096, HEADER_BYTES.length + 1 + rows * TYPICAL_ROW_BYTES));
    this.offsets = new Uint32Array(Math.max(1024, rows));
  }

  /** Tickets read so far (complete lines after the header). */
  get rows(): number {
    return this.rowCount;
  }

  /** Bytes received so far. */
  get bytes(): number {
    return this.length;
  }

  /** The first thing wrong with the list ("Line 3: …"), or null while it is well formed. */
  get problem(): string | null {
    return this.firstProblem;
  }

  push(chunk: Uint8Array): void {
    if (this.finished) throw new Error("The ticket list was already finished");
    if (chunk.length === 0) return;
    this.reserve(this.length + chunk.length);
    this.buffer.set(chunk, this.length);
    this.length += chunk.length;
    this.parseLines();
  }

  /** The end of the list: anything after the last newline is an unfinished line. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.firstProblem) return;
    if (this.length === 0) this.fail(1, "the list is empty: it must start with the header line");
    else if (this.parsed < this.length) this.fail(this.line + 1, "the last line does not end with a newline");
  }

  /** Exactly the bytes received (a view: no copy). */
  data(): Bytes {
    return this.buffer.subarray(0, this.length);
  }

  /** The ticket on row `position` (from 1, header excluded), or null when there is no such row. */
  row(position: number): TicketRow | null {
    if (!Number.isInteger(position) || position < 1 || position > this.rowCount) return null;
    const start = this.offsets[position - 1];
    const end = this.buffer.indexOf(NEWLINE, start);
    const text = new TextDecoder().decode(this.buffer.subarray(start, end));
    const comma = text.indexOf(",");
    return { number: Number(text.slice(0, comma)), id: text.slice(comma + 1) };
  }

  private reserve(size: number) {
    if (size <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < size) capacity *= 2;
    const bigger = new Uint8Array(capacity);
    bigger.set(this.buffer.subarray(0, this.length));
    this.buffer = bigger;
  }

  private parseLines() {
    // Only the bytes received: the rest of the buffer is spare room.
    const received = this.buffer.subarray(0, this.length);
    while (!this.firstProblem) {
      const end = received.indexOf(NEWLINE, this.parsed);
      if (end < 0) return;
      const start = this.parsed;
      this.parsed = end + 1;
      this.line++;
      if (this.line === 1) this.checkHeader(start, end);
      else this.checkRow(start, end);
    }
  }

  private checkHeader(start: number, end: number) {
    const ok = end - start === HEADER_BYTES.length && HEADER_BYTES.every((byte, i) => this.buffer[start + i] === byte);
    if (!ok) this.fail(1, `the header must be "${TICKET_LIST_HEADER.trim()}"`);
  }

  private checkRow(start: number, end: number) {
    const b = this.buffer;
    let at = start;
    let n = 0;
    while (at < end && b[at] >= ZERO && b[at] <= NINE) {
      n = n * 10 + (b[at] - ZERO);
      at++;
      if (n > MAX_TICKET_NUMBER) return this.fail(this.line, "the ticket number is too large");
    }
    if (at === start || b[start] === ZERO) return this.fail(this.line, "expected a ticket number from 1");
    if (b[at] !== COMMA) return this.fail(this.line, "expected a comma after the ticket number");
    at++;
    if (end - at !== UUID_LENGTH) return this.fail(this.line, "expected a ticket id (a lower-case UUID)");
    for (let i = 0; i < UUID_LENGTH; i++) {
      const c = b[at + i];
      const ok =
        i === 8 || i === 13 || i === 18 || i === 23
          ? c === HYPHEN
          : (c >= ZERO && c <= NINE) || (c >= LOWER_A && c <= LOWER_F);
      if (!ok) return this.fail(this.line, "expected a ticket id (a lower-case UUID)");
    }
    if (n <= this.lastNumber) return this.fail(this.line, `ticket ${n} is not after ticket ${this.lastNumber}`);
    this.lastNumber = n;
    if (this.rowCount === this.offsets.length) {
      const bigger = new Uint32Array(this.offsets.length * 2);
      bigger.set(this.offsets);
      this.offsets = bigger;
    }
    this.offsets[this.rowCount++] = start;
  }

  private fail(line: number, reason: string) {
    this.firstProblem ??= `Line ${line}: ${reason}`;
  }
}
