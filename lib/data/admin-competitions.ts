import "server-only";
import { z } from "zod";
import { randomnessAdapter } from "@/lib/draws/randomness";
import type { EnumValue } from "@/lib/labels";
import type { Json } from "@/lib/supabase/database.types";
import { competition, prizeStatusSchema, withJsonParts } from "./competitions";
import { csvChunk } from "./entry-list";
import { callRpcWith, declared, type RpcClient } from "./rpc";
import { callRpc } from "./server-rpc";
import { instantWinsSchema, withPrizes, type InstantWins } from "./instant-wins";

// Every admin competition call in one place (supabase/migrations/*_competitions_and_tickets.sql, *_draws.sql,
// *_admin_competitions.sql): list, create, edit, publish, cancel, postal entries, prizes and the admin screens' reads.
// Every figure is worked out in SQL; these only parse it.

/**
 * What public.admin_competition always fills: public.competition's fields, then when it was created and last changed and
 * its figures (active entries, postal entries, revenue); the skill answer, creator and prize status may be null.
 */
const adminCompetition = declared(
  ...competition.filled,
  "created_at",
  "updated_at",
  "entry_count",
  "postal_entry_count",
  "revenue",
).with(competition.nested);

export type PrizeStatus = z.infer<typeof prizeStatusSchema>;

/**
 * One prize to fulfil (public.prize_fulfilment): the winner's contact is their account's name and e-mail or the
 * letter's name and address; `delivery_address` is where they want the prize (null for cash); `prize_cost` is the cash
 * alternative when they chose it, else the prize value (SQL); `story` is null until photo consent is first given or
 * recorded; `identity_check` is what was checked for the verification that stands (null before it or after a step
 * back; its `checked_by` is null once that admin's account is gone).
 */
const prizeFulfilment = declared(
  "draw_id",
  "competition",
  "prize_description",
  "prize_value",
  "winning_number",
  "drawn_at",
  "winner_display_name",
  "route",
  "prize_status",
  "prize_cost",
  "winner_initials_only",
  "prize_position",
).with({
  competition: declared("id", "slug", "title"),
  story: declared("consent", "consent_source", "consent_changed_at"),
  identity_check: declared("document_type", "document_last_four", "checked_at"),
});

/**
 * A competition's admin page: the competition, its stored dates (null in a draft means the default at publish, which
 * the competition's own dates show), its figures, every postal entry and the prize fulfilment once drawn.
 */
const competitionDetail = declared("competition", "stored_dates", "figures", "postal_entries").with({
  competition: adminCompetition,
  figures: declared(
    "online_tickets",
    "postal_tickets",
    "paid_entries",
    "postal_entries",
    "players",
    "revenue",
    "refunded_entries",
    "refunded_total",
    "void_postal_entries",
  ),
  postal_entries: declared("entry_id", "name", "address", "tickets", "ticket_numbers", "status", "created_at"),
  fulfilment: prizeFulfilment,
});

/** The competition fields admin_create_competition and admin_update_competition read (validated in SQL). */
export type CompetitionFields = { [field: string]: Json | undefined };

export const adminListCompetitions = async () =>
  (await callRpc("admin_list_competitions", {}, adminCompetition)).map(withJsonParts);
export type AdminCompetition = Awaited<ReturnType<typeof adminListCompetitions>>[number];
export const adminGetCompetition = async (id: string) =>
  withJsonParts(await callRpc("admin_get_competition", { p_id: id }, adminCompetition));
export const adminCreateCompetition = async (fields: CompetitionFields) =>
  withJsonParts(await callRpc("admin_create_competition", { p: fields }, adminCompetition));
export const adminUpdateCompetition = async (id: string, fields: CompetitionFields) =>
  withJsonParts(await callRpc("admin_update_competition", { p_id: id, p: fields }, adminCompetition));

/** Publishes a draft, fixing the configured external randomness (if any) with the seed commitment. */
export async function adminPublishCompetition(id: string): Promise<AdminCompetition> {
  // random.org's signed `random` object is typed unknown, but it is JSON as the service sent it.
  const external = (await randomnessAdapter().fetch()) as Json | null;
  return withJsonParts(
    await callRpc("admin_publish_competition", { p_id: id, p_external_randomness: external }, adminCompetition),
  );
}

export async function adminCancelCompetition(id: string, reason: string) {
  const cancelled = await callRpc(
    "admin_cancel_competition",
    { p_id: id, p_reason: reason },
    declared("competition", "refunded_entries", "refunded_total").with({ competition: adminCompetition }),
  );
  return { ...cancelled, competition: withJsonParts(cancelled.competition) };
}
export const adminRecordPostalEntry = (entry: {
  competitionId: string;
  userId?: string | null;
  name: string;
  address: string;
  answer?: string | null;
}) =>
  callRpc(
    "admin_record_postal_entry",
    {
      p_competition_id: entry.competitionId,
      p_user_id: entry.userId ?? null,
      p_name: entry.name,
      p_address: entry.address,
      p_answer: entry.answer ?? null,
    },
    // An instant win's credit_amount is null but for a credit prize.
    declared("entry_id", "ticket_numbers", "tickets", "instant_wins").with({
      instant_wins: declared("ticket_number", "kind", "prize"),
    }),
  );

export async function adminCompetitionDetail(id: string) {
  const detail = await callRpc("admin_competition_detail", { p_id: id }, competitionDetail);
  return { ...detail, competition: withJsonParts(detail.competition) };
}
export type CompetitionDetail = Awaited<ReturnType<typeof adminCompetitionDetail>>;
export type PostalEntryRow = CompetitionDetail["postal_entries"][number];

/**
 * Finished competitions (drawn, closed, cancelled), most recently finished first, with their money worked out in SQL:
 * revenue, refunds, the prize's cost (drawn only) and net; and the totals.
 */
/** Only these have finished; the SQL lists no other, and the type says so. */
const finishedStatus = z.enum(["drawn", "closed", "cancelled"]);
export async function adminCompetitionHistory() {
  const history = await callRpc(
    "admin_competition_history",
    {},
    declared("rows", "totals").with({
      rows: declared(
        "id",
        "slug",
        "title",
        "status",
        "closes_at",
        "finished_at",
        "ticket_price",
        "total_tickets",
        "tickets_sold",
        "postal_tickets",
        "revenue",
        "refunded_total",
        "prize_value",
        "prize_cost",
        "net",
        "charity_owed",
      ),
      totals: declared("competitions", "revenue", "refunded_total", "prize_cost", "net", "charity_owed"),
    }),
  );
  return { ...history, rows: history.rows.map((row) => ({ ...row, status: finishedStatus.parse(row.status) })) };
}
export type HistoryRow = Awaited<ReturnType<typeof adminCompetitionHistory>>["rows"][number];

export const adminListPrizeFulfilment = (status?: PrizeStatus) =>
  callRpc("admin_list_prize_fulfilment", status ? { p_status: status } : {}, prizeFulfilment);
export type PrizeFulfilment = Awaited<ReturnType<typeof adminListPrizeFulfilment>>[number];

/** What an admin checked to verify a claim: only the last four characters of the document's number. */
export type IdentityCheck = {
  documentType: EnumValue<"identity_document">;
  documentLastFour: string;
  note: string | null;
};

export const adminUpdatePrizeFulfilment = (change: {
  drawId: string;
  status: PrizeStatus;
  note: string | null;
  proofOfDelivery: string | null;
  /** Given with the step to verified, which SQL refuses without it. */
  identityCheck: IdentityCheck | null;
}) =>
  callRpc(
    "admin_update_prize_fulfilment",
    {
      p_draw_id: change.drawId,
      p_status: change.status,
      p_note: change.note,
      p_proof_of_delivery: change.proofOfDelivery,
      p_document_type: change.identityCheck?.documentType ?? null,
      p_document_last_four: change.identityCheck?.documentLastFour ?? null,
      p_identity_note: change.identityCheck?.note ?? null,
    },
    prizeFulfilment,
  );

/** The admin entries CSV of a competition, chunk by chunk (the header is in the first chunk). */
export async function* adminEntriesCsvChunks(client: RpcClient, competitionId: string): AsyncGenerator<string> {
  let after = 0;
  for (;;) {
    const chunk = await callRpcWith(
      client,
      "admin_competition_entries_csv",
      { p_id: competitionId, p_after: after, p_limit: 10_000 },
      csvChunk,
    );
    yield chunk.csv;
    if (chunk.done || chunk.last_number === null) return;
    after = chunk.last_number;
  }
}

/** The account with this e-mail (case ignored), or null: to link a postal entry to the account on the letter. */
export const adminFindAccount = (email: string) =>
  callRpc(
    "admin_find_account",
    { p_email: email },
    z.object({ id: z.string().uuid(), name: z.string(), email: z.string().nullable() }).nullable(),
  );

/** A competition's instant wins as an admin sees them (a draft's too); null when it has none. */
export async function adminGetInstantWins(slug: string): Promise<InstantWins | null> {
  return withPrizes(await callRpc("get_instant_wins", { p_slug: slug }, instantWinsSchema.nullable()));
}

export type InstantWinPrizeInput = {
  kind: EnumValue<"instant_win_kind">;
  title: string | null;
  credit_amount: number | null;
  quantity: number;
};

export const adminSetInstantWinPrizes = (id: string, prizes: InstantWinPrizeInput[]) =>
  callRpc(
    "admin_set_instant_win_prizes",
    { p_competition_id: id, p_prizes: prizes },
    declared("algorithm", "ticket_count", "prizes", "wins").with({
      prizes: declared("position", "kind", "title", "quantity", "won"),
    }),
  );

/**
 * Instant wins an admin delivers by hand: physical prizes, and any prize of a postal entrant without an account,
 * newest first, with the winner's e-mail or the letter's name and address.
 */
export const adminListInstantWinFulfilment = () =>
  callRpc(
    "admin_list_instant_win_fulfilment",
    {},
    declared("id", "competition_title", "slug", "prize", "kind", "ticket_number", "display_name", "status", "won_at"),
  );

export const adminMarkInstantWinDelivered = (id: string) =>
  callRpc("admin_mark_instant_win_delivered", { p_id: id }, declared("id", "status", "delivered_at"));
