import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import type { MailStatus } from "@/lib/data/admin-mail";
import { idCursorSchema, idTrailSchema, paramReader, type SearchParams } from "@/lib/http/search-params";

export type { SearchParams };

// The mail screen's URL: the outbox filter (campaign, status), its keyset cursor with the trail back to
// newer pages, and the notice after a send. Each value is checked on its own with zod: a bad one is
// dropped with a note, never a 500. Pure, so a test can run it as the page does.

/** Outbox rows per page (admin_list_mail_outbox's p_limit). */
export const OUTBOX_PAGE_SIZE = 50;
const MAX_TRAIL = 100;

const trailSchema = idTrailSchema(MAX_TRAIL);

export type OutboxQuery = {
  campaign: string | null;
  status: MailStatus | null;
  /** Rows older than this outbox id (keyset cursor); null for the newest page. */
  before: number | null;
  /** The cursors of the pages before this one, oldest first, for the "Newer" link. */
  trail: number[];
  /** Just sent ("1"), or the same preview submitted again ("again"). */
  sent: "1" | "again" | null;
};

export function parseOutboxQuery(params: SearchParams): { query: OutboxQuery; ignored: string[] } {
  const { read, ignored } = paramReader(params);
  const campaign = read("campaign", z.string().uuid(), "That campaign link was not valid, so all mail is shown.");
  const status = read(
    "status",
    z.enum(ENUM_VALUES.mail_status),
    "That status is not queued, sent or failed, so every status is shown.",
  );
  const before = read("before", idCursorSchema, "That page link was not valid, so the newest page is shown.");
  const trail = before === null ? null : read("trail", trailSchema, "The link back to newer pages was lost.");
  const sent = read("sent", z.enum(["1", "again"]), "");
  return { query: { campaign, status, before, trail: trail ?? [], sent }, ignored: ignored.filter(Boolean) };
}

/** The mail page for this filter, from the newest row or from a cursor. */
export function outboxHref(
  filter: { campaign: string | null; status: MailStatus | null },
  page: { before: number | null; trail: number[] } | null = null,
): string {
  const params = new URLSearchParams();
  if (filter.campaign) params.set("campaign", filter.campaign);
  if (filter.status) params.set("status", filter.status);
  if (page?.before) {
    params.set("before", String(page.before));
    if (page.trail.length) params.set("trail", page.trail.join(","));
  }
  const text = params.toString();
  return `/admin/mail${text ? `?${text}` : ""}#outbox`;
}

/** The page after this one (older rows), or null when this is the oldest. */
export function olderOutboxHref(query: OutboxQuery, nextBefore: number | null): string | null {
  if (nextBefore === null) return null;
  const trail = query.before === null ? [] : [...query.trail, query.before].slice(-MAX_TRAIL);
  return outboxHref(query, { before: nextBefore, trail });
}

/** The page before this one (newer rows), or null on the newest page. */
export function newerOutboxHref(query: OutboxQuery): string | null {
  if (query.before === null) return null;
  return outboxHref(query, { before: query.trail.at(-1) ?? null, trail: query.trail.slice(0, -1) });
}
