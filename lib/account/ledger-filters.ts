import { z } from "zod";
import { ENUM_VALUES, enumLabel, type EnumValue } from "@/lib/labels";
import { idCursorSchema, idTrailSchema, paramReader, type SearchParams } from "@/lib/http/search-params";

export type { SearchParams };

// The ledger screen's URL (kind, month and the keyset cursor) read with zod. Each parameter is
// checked on its own, so one bad value falls back to its default with a note instead of a 500,
// and the rest of the filter still applies. Pure, so the unit tests run it as the page does.

/** Every kind the credit ledger records (the SQL enum), in the order the filter lists them. */
export const LEDGER_KINDS = ENUM_VALUES.ledger_kind;
export type LedgerKind = EnumValue<"ledger_kind">;

/** The label of a ledger kind; an unknown kind (one added later) shows as it is stored. */
export const ledgerKindLabel = (kind: string): string => enumLabel("ledger_kind", kind);

/** Rows per page of the ledger (get_my_ledger_page's p_limit). */
export const LEDGER_PAGE_SIZE = 50;
/** How many earlier pages the "Newer" link remembers (the URL stays short). */
const MAX_TRAIL = 100;

const kindSchema = z.enum(LEDGER_KINDS);
// Months from 2000 to 2099: older or later ones cannot hold a LabCash movement.
const monthSchema = z.string().regex(/^20\d\d-(0[1-9]|1[0-2])$/);
const trailSchema = idTrailSchema(MAX_TRAIL);

export type LedgerFilters = {
  kind: LedgerKind | null;
  /** A calendar month as YYYY-MM. */
  month: string | null;
};

export type LedgerQuery = LedgerFilters & {
  /** Show rows older than this ledger id (keyset cursor); null for the newest page. */
  before: number | null;
  /** The cursors of the pages before this one, oldest page last, for the "Newer" link. */
  trail: number[];
};

/** Reads the ledger query from the URL; `ignored` says, in words, which values were not used. */
export function parseLedgerQuery(params: SearchParams): { query: LedgerQuery; ignored: string[] } {
  const { read, ignored } = paramReader(params);
  const kind = read("kind", kindSchema, (v) => `“${v}” is not a kind of movement, so every kind is shown.`);
  const month = read("month", monthSchema, (v) => `“${v}” is not a month (YYYY-MM), so every month is shown.`);
  const before = read("before", idCursorSchema, () => "That page link was not valid, so the newest page is shown.");
  const trail = before === null ? null : read("trail", trailSchema, () => "The link back to newer pages was lost.");
  return { query: { kind, month, before, trail: trail ?? [] }, ignored };
}

/** The first day of a YYYY-MM month, as get_my_ledger_page and get_my_ledger_csv take it. */
export const monthStart = (month: string | null): string | null => (month ? `${month}-01` : null);

function queryString(entries: Record<string, string | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(entries)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The ledger page for these filters, from the newest row or from a cursor. */
export function ledgerHref(filters: LedgerFilters, page: { before: number | null; trail: number[] } | null = null) {
  return `/account/credits${queryString({
    kind: filters.kind,
    month: filters.month,
    before: page?.before ? String(page.before) : null,
    trail: page?.before && page.trail.length ? page.trail.join(",") : null,
  })}`;
}

/** The page after this one (older rows), or null when this is the oldest. */
export function olderHref(query: LedgerQuery, nextBefore: number | null): string | null {
  if (nextBefore === null) return null;
  const trail = query.before === null ? [] : [...query.trail, query.before].slice(-MAX_TRAIL);
  return ledgerHref(query, { before: nextBefore, trail });
}

/** The page before this one (newer rows), or null on the newest page. */
export function newerHref(query: LedgerQuery): string | null {
  if (query.before === null) return null;
  const previous = query.trail.at(-1) ?? null;
  return ledgerHref(query, { before: previous, trail: query.trail.slice(0, -1) });
}

/** The CSV of every row under these filters (the route handler beside the page). */
export const ledgerCsvHref = (filters: LedgerFilters) =>
  `/account/credits/export${queryString({ kind: filters.kind, month: filters.month })}`;
