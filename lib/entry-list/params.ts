// The entry list page's URL: ?after=N (the page after ticket N), ?before=N (the page before ticket N),
// ?ticket=N (search). Each is read on its own; a bad one is explained and ignored, never a 500.

const MAX_TICKET_NUMBER = 2 ** 31 - 1;

export type EntryListParams = {
  after: number | null;
  before: number | null;
  ticket: number | null;
  /** What the visitor typed in the search box, to show it again. */
  ticketInput: string;
  /** Why the search was not run (shown at the field), or null. */
  ticketError: string | null;
  /** A page link that could not be read (the list starts from the first ticket instead). */
  cursorProblem: string | null;
};

type Raw = Record<string, string | string[] | undefined>;

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** A ticket number from 1, or null. Accepts "42", " 42 " and "#42". */
export function parseTicketNumber(input: string): number | null {
  const text = input.trim().replace(/^#\s*/, "");
  if (!/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= MAX_TICKET_NUMBER ? n : null;
}

/** A cursor: a ticket number from 0 (after=0 is the first page). */
function parseCursor(input: string | undefined): number | null | "bad" {
  if (input === undefined || input === "") return null;
  if (!/^\d{1,10}$/.test(input)) return "bad";
  const n = Number(input);
  return n <= MAX_TICKET_NUMBER ? n : "bad";
}

export function parseEntryListParams(raw: Raw): EntryListParams {
  const ticketInput = single(raw.ticket)?.trim() ?? "";
  let ticket: number | null = null;
  let ticketError: string | null = null;
  if (ticketInput !== "") {
    ticket = parseTicketNumber(ticketInput);
    if (ticket === null) ticketError = "Enter a ticket number: a whole number from 1, such as 42.";
  }

  let after = parseCursor(single(raw.after));
  let before = parseCursor(single(raw.before));
  let cursorProblem: string | null = null;
  if (after === "bad" || before === "bad" || (after !== null && before !== null)) {
    cursorProblem = "That page link could not be read, so the list starts from the first ticket.";
    after = null;
    before = null;
  }
  return { after, before, ticket, ticketInput, ticketError, cursorProblem };
}

/** The URL of a page of the list. */
export function entryListHref(slug: string, query: { after?: number; before?: number; ticket?: string } = {}): string {
  const params = new URLSearchParams();
  if (query.ticket !== undefined) params.set("ticket", query.ticket);
  if (query.after !== undefined) params.set("after", String(query.after));
  if (query.before !== undefined) params.set("before", String(query.before));
  const search = params.toString();
  return `/competitions/${slug}/entries${search ? `?${search}` : ""}`;
}
