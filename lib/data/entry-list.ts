import "server-only";
import { createClient } from "@supabase/supabase-js";
import { unstable_cache } from "next/cache";
import { z } from "zod";
import { supabaseEnv } from "@/lib/env";
import type { Database } from "@/lib/supabase/database.types";
import { competitionStatusSchema } from "./competitions";
import { DbError } from "./errors";
import { callRpcWith, declared, type RpcOutput } from "./rpc";

// The public entry list of a competition once online sales have ended (get_entry_list,
// get_ticket_list_csv, get_entrants_csv). It is the same for every visitor, so it is read with the
// publishable key and no session: the page's data and the CSVs never depend on who asks, which is
// what lets a drawn list be cached (below) and the CSVs carry public cache headers.

const timestamp = z.string();

/**
 * One page of the entry list: the competition, its draw once drawn, every ticket's count (online and postal, not just
 * this page's), the rows (the public name as on the winners page, or "Postal entry"; the town unless initials only)
 * and whether there are pages before and after.
 */
const entryList = declared("competition", "ticket_count", "rows", "has_before", "has_after").with({
  competition: declared(
    "id",
    "slug",
    "title",
    "status",
    "closes_at",
    "postal_deadline",
    "draw_at",
    "total_tickets",
    "tickets_sold",
    "postal_tickets",
  ),
  draw: declared("id", "algorithm", "ticket_list_hash"),
  rows: declared("number", "ticket_id", "entrant", "route"),
});

/** One chunk of a CSV (public.csv_chunk): its lines, the last ticket number in it (null when empty), whether it is the last. */
export const csvChunk = declared("csv", "done");
export type CsvChunk = RpcOutput<"get_ticket_list_csv", typeof csvChunk>;

/** Rows per CSV call: a 1,000,000-ticket list is ten calls, and never whole in memory. */
export const CSV_CHUNK_ROWS = 100_000;
export const ENTRY_LIST_PAGE_SIZE = 50;

/** The anon client: no cookies, no session, the same answer for everyone. */
function publicClient() {
  const { url, publishableKey } = supabaseEnv();
  return createClient<Database>(url, publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

export type EntryListQuery = {
  slug: string;
  /** Tickets numbered after this one. */
  after?: number | null;
  /** The page of tickets just before this number. */
  before?: number | null;
  /** Only this ticket number. */
  ticket?: number | null;
  limit?: number;
};

/** Throws DbError `competition_not_found` or `entry_list_not_available`. */
export const getEntryList = (q: EntryListQuery) =>
  callRpcWith(
    publicClient(),
    "get_entry_list",
    {
      p_slug: q.slug,
      p_after: q.after ?? null,
      p_before: q.before ?? null,
      p_ticket: q.ticket ?? null,
      p_limit: q.limit ?? ENTRY_LIST_PAGE_SIZE,
    },
    entryList,
  );
export type EntryList = Awaited<ReturnType<typeof getEntryList>>;
export type EntryListRow = EntryList["rows"][number];

/** Carries a list that must not be cached out of unstable_cache (which caches results, never throws). */
class NotFinal extends Error {
  constructor(readonly list: EntryList) {
    super("The entry list is not final yet");
  }
}

/** The cache tag of every cached entry-list page (lib/cache/public-pages.ts expires it). */
export const ENTRY_LIST_TAG = "entry-list";
/** The cache tag of one competition's cached entry-list pages. */
export const entryListTag = (slug: string) => `entry-list:${slug}`;

// Tagged, so a draw, a postal entry or any change the app makes to competitions expires it at once
// (revalidateCompetitionPages); otherwise a cached page is at most an hour old: numbers and ticket ids
// never change after the draw, a name may (a winner can choose initials only at any time).
const cachedFinalList = (q: EntryListQuery) =>
  unstable_cache(
    async () => {
      const list = await getEntryList(q);
      if (!list.draw) throw new NotFinal(list);
      return list;
    },
    ["entry-list", JSON.stringify([q.slug, q.after ?? null, q.before ?? null, q.ticket ?? null, q.limit ?? null])],
    { revalidate: 3600, tags: [ENTRY_LIST_TAG, entryListTag(q.slug)] },
  )();

/**
 * The entry list for a page. Once drawn the list is final, so a page of it is served from Next's
 * data cache; before the draw, postal entries may still arrive and every request reads afresh.
 */
export async function getEntryListPage(q: EntryListQuery): Promise<EntryList> {
  try {
    return await cachedFinalList(q);
  } catch (e) {
    if (e instanceof NotFinal) return e.list;
    throw e;
  }
}

export const getTicketListCsvChunk = (slug: string, after: number, limit = CSV_CHUNK_ROWS) =>
  callRpcWith(publicClient(), "get_ticket_list_csv", { p_slug: slug, p_after: after, p_limit: limit }, csvChunk);

export const getEntrantsCsvChunk = (slug: string, after: number, limit = CSV_CHUNK_ROWS) =>
  callRpcWith(publicClient(), "get_entrants_csv", { p_slug: slug, p_after: after, p_limit: limit }, csvChunk);

/**
 * A CSV read chunk by chunk as the client takes it (pull-based, so a slow download never has more
 * than one chunk waiting): the header comes with the first chunk (p_after = 0), and each next chunk
 * starts after the last number of the one before.
 */
export function csvStream(fetchChunk: (after: number) => Promise<CsvChunk>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = await fetchChunk(after);
        if (chunk.csv) controller.enqueue(encoder.encode(chunk.csv));
        if (chunk.done || chunk.last_number === null) controller.close();
        else after = chunk.last_number;
      },
    },
    { highWaterMark: 0 },
  );
}

/** What the not-yet-available page and the CSV routes need: the competition's title, state, dates and draw. */
export const competitionDatesSchema = z.object({
  slug: z.string(),
  title: z.string(),
  status: competitionStatusSchema,
  closes_at: timestamp,
  postal_deadline: timestamp,
  draw_at: timestamp,
  entry_list_open: z.boolean(),
  draw: z.object({ id: z.string().uuid(), algorithm: z.string() }).nullable(),
});
export type CompetitionDates = z.infer<typeof competitionDatesSchema>;

/** null for an unknown slug (or a draft). */
export async function getCompetitionDates(slug: string): Promise<CompetitionDates | null> {
  try {
    return await callRpcWith(publicClient(), "get_competition", { p_slug: slug }, competitionDatesSchema);
  } catch (e) {
    if (e instanceof DbError && e.code === "competition_not_found") return null;
    throw e;
  }
}

/** The draw's ticket-list hash (get_draw; cheap for v2, which carries no ticket array). */
export async function getTicketListHash(drawId: string): Promise<string | null> {
  const draw = await callRpcWith(
    publicClient(),
    "get_draw",
    { p_draw_id: drawId },
    z.object({ ticket_list_hash: z.string() }).nullable(),
  );
  return draw?.ticket_list_hash ?? null;
}
