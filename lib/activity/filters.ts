import { z } from "zod";
import type { ActivityFilter } from "@/lib/data/admin-console";
import { idCursorSchema, idTrailSchema, paramReader, type SearchParams } from "@/lib/http/search-params";

export type { SearchParams };

// The activity screen's URL (actor, kind, subject, from, to and the keyset cursor) read with zod.
// Each parameter is checked on its own: a bad one is dropped with a note, never a 500, and the
// rest of the filter still applies. Pure, so a test can run it as the page does.

/** Rows per page (admin_list_activity's p_limit). */
export const ACTIVITY_PAGE_SIZE = 50;
/** How many earlier pages the "Newer" link remembers (the URL stays short). */
const MAX_TRAIL = 100;

const searchSchema = z.string().max(200);
// An action (competition.entered) or a family (competition), as the SQL accepts them.
const kindSchema = z
  .string()
  .max(100)
  .regex(/^[a-z_]+(\.[a-z_]+)*$/);
const daySchema = z.iso.date().refine((day) => day >= "2000-01-01" && day <= "2999-12-31");
const trailSchema = idTrailSchema(MAX_TRAIL);

export type ActivityQuery = ActivityFilter & {
  /** Show rows older than this log id (keyset cursor); null for the newest page. */
  before: number | null;
  /** The cursors of the pages before this one, oldest page first, for the "Newer" link. */
  trail: number[];
};

/** Reads the activity query from the URL; `ignored` says, in words, which values were not used. */
export function parseActivityQuery(params: SearchParams): { query: ActivityQuery; ignored: string[] } {
  const { read, ignored } = paramReader(params);
  const actor = read("actor", searchSchema, () => "The actor search was over 200 characters, so it was not used.");
  const subject = read(
    "subject",
    searchSchema,
    () => "The subject search was over 200 characters, so it was not used.",
  );
  const kind = read("kind", kindSchema, (v) => `“${v}” is not a kind of activity, so every kind is shown.`);
  let from = read("from", daySchema, (v) => `“${v}” is not a date, so there is no start date.`);
  let to = read("to", daySchema, (v) => `“${v}” is not a date, so there is no end date.`);
  if (from && to && from > to) {
    ignored.push("The start date was after the end date, so neither date was used.");
    from = null;
    to = null;
  }
  const before = read("before", idCursorSchema, () => "That page link was not valid, so the newest page is shown.");
  const trail = before === null ? null : read("trail", trailSchema, () => "The link back to newer pages was lost.");
  return { query: { actor, kind, subject, from, to, before, trail: trail ?? [] }, ignored };
}

export function isFiltered(filter: ActivityFilter): boolean {
  return Boolean(filter.actor || filter.kind || filter.subject || filter.from || filter.to);
}

function queryString(entries: Record<string, string | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(entries)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

const filterEntries = (filter: ActivityFilter) => ({
  actor: filter.actor,
  kind: filter.kind,
  subject: filter.subject,
  from: filter.from,
  to: filter.to,
});

/** The activity page for these filters, from the newest row or from a cursor. */
export function activityHref(filter: ActivityFilter, page: { before: number | null; trail: number[] } | null = null) {
  return `/admin/activity${queryString({
    ...filterEntries(filter),
    before: page?.before ? String(page.before) : null,
    trail: page?.before && page.trail.length ? page.trail.join(",") : null,
  })}`;
}

/** The page after this one (older rows), or null when this is the oldest. */
export function olderActivityHref(query: ActivityQuery, nextBefore: number | null): string | null {
  if (nextBefore === null) return null;
  const trail = query.before === null ? [] : [...query.trail, query.before].slice(-MAX_TRAIL);
  return activityHref(query, { before: nextBefore, trail });
}

/** The page before this one (newer rows), or null on the newest page. */
export function newerActivityHref(query: ActivityQuery): string | null {
  if (query.before === null) return null;
  const previous = query.trail.at(-1) ?? null;
  return activityHref(query, { before: previous, trail: query.trail.slice(0, -1) });
}

/** The CSV of every row under these filters (the route handler beside the page). */
export const activityCsvHref = (filter: ActivityFilter) =>
  `/admin/activity/export${queryString(filterEntries(filter))}`;

/** What an action is called on screen: one label map (activity-kinds.ts). */
export { activityKindLabel } from "@/lib/activity/kinds";
