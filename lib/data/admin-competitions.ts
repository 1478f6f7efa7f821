import "server-only";
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { randomnessAdapter } from "@/lib/draws/randomness";
import type { Json } from "@/lib/supabase/database.types";
import { competitionStatusSchema, instantWinAwardSchema, prizeChoiceSchema, prizeStatusSchema } from "./competitions";
import { callRpcWith, declared, type RpcClient } from "./rpc";
import { callRpc } from "./server-rpc";
import { adminStorySchema, publicStorySchema } from "./winner-stories";
import { instantWinsSchema, withPrizes, type InstantWins } from "./instant-wins";

// Every admin competition call in one place (supabase/migrations/*_competitions_and_tickets.sql, *_draws.sql,
// *_admin_competitions.sql): list, create, edit, publish, cancel, postal entries, prizes and the admin screens' reads.
// Every figure is worked out in SQL; these only parse it.

const money = z.coerce.number();
const timestamp = z.string();

/** A competition as the admin calls answer it (private.competition_json with the admin fields): jsonb, read with zod. */
const competitionDrawSummarySchema = z.object({
  id: z.string().uuid(),
  winning_number: z.number().int(),
  winner_display_name: z.string(),
  winner_town: z.string().nullable(),
  ticket_count: z.number().int(),
  drawn_at: timestamp,
  algorithm: z.string(),
  /** The winner's photo and quote, only while they consent to their publication. */
  story: publicStorySchema.nullable(),
});

const competitionSchema = z.object({
  id: z.string().uuid(),
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  description: z.string(),
  prize_description: z.string(),
  prize_value: money,
  images: z.array(z.string()),
  ticket_price: money,
  total_tickets: z.number().int(),
  tickets_sold: z.number().int(),
  tickets_left: z.number().int(),
  max_tickets_per_user: z.number().int(),
  /** in_order: numbers given in purchase order; pick: players choose them (or take a lucky dip). */
  ticket_numbering: z.enum(ENUM_VALUES.ticket_numbering),
  opens_at: timestamp,
  closes_at: timestamp,
  /** Postal entries are accepted until this moment; fixed at publish (drafts show the default). */
  postal_deadline: timestamp,
  /** When the draw happens, whatever the sales; fixed at publish. */
  draw_at: timestamp,
  /** The cash the winner may take instead of the prize, in pounds; null when not offered. */
  cash_alternative: money.nullable(),
  postal_entries: z.number().int(),
  /** Postal tickets, numbered after the online pool (total_tickets + 1 onwards). */
  postal_tickets: z.number().int(),
  /** Stamp parity, worked out in SQL: tickets one postal entry gets. */
  postal_tickets_per_entry: z.number().int(),
  stamp_price: money,
  /** Online sales have ended, so the public entry list is open. */
  entry_list_open: z.boolean(),
  status: competitionStatusSchema,
  is_open: z.boolean(),
  skill_question: z.string().nullable(),
  skill_options: z.array(z.string()).nullable(),
  seed_commitment: z.string().nullable(),
  external_randomness: z.record(z.string(), z.unknown()).nullable(),
  published_at: timestamp.nullable(),
  closed_at: timestamp.nullable(),
  cancelled_at: timestamp.nullable(),
  cancel_reason: z.string().nullable(),
  draw: competitionDrawSummarySchema.nullable(),
});
export const adminCompetitionSchema = competitionSchema.extend({
  skill_answer: z.string().nullable(),
  created_by: z.string().uuid().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  entry_count: z.number().int(),
  postal_entry_count: z.number().int(),
  revenue: money,
  prize_status: prizeStatusSchema.nullable(),
});
export type AdminCompetition = z.infer<typeof adminCompetitionSchema>;

export const cancelResultSchema = z.object({
  competition: adminCompetitionSchema,
  refunded_entries: z.number().int(),
  refunded_total: money,
});

export const postalEntryResultSchema = z.object({
  entry_id: z.string().uuid(),
  ticket_numbers: z.array(z.number().int()),
  tickets: z.number().int(),
  instant_wins: z.array(instantWinAwardSchema),
});

export type PrizeStatus = z.infer<typeof prizeStatusSchema>;

export const prizeFulfilmentSchema = z.object({
  draw_id: z.string().uuid(),
  competition: z.object({ id: z.string().uuid(), slug: z.string(), title: z.string() }),
  prize_description: z.string(),
  prize_value: money,
  cash_alternative: money.nullable(),
  winning_number: z.number().int(),
  drawn_at: timestamp,
  winner_display_name: z.string(),
  winner_town: z.string().nullable(),
  winner_user_id: z.string().uuid().nullable(),
  winner_name: z.string().nullable(),
  winner_email: z.string().nullable(),
  winner_address: z.string().nullable(),
  route: z.enum(["online", "postal"]),
  prize_choice: prizeChoiceSchema.nullable(),
  /** Where the winner wants the prize sent (their claim); null for cash. */
  delivery_address: z.string().nullable(),
  claimed_at: timestamp.nullable(),
  prize_status: prizeStatusSchema,
  prize_status_updated_at: timestamp.nullable(),
  verified_at: timestamp.nullable(),
  delivered_at: timestamp.nullable(),
  fulfilment_note: z.string().nullable(),
  proof_of_delivery: z.string().nullable(),
  /** The cash alternative when the winner chose it, else the prize value (SQL). */
  prize_cost: money,
  /** The winner asked to appear by initials only: a photo needs their consent to the photo itself. */
  winner_initials_only: z.boolean(),
  /** Photo consent and what is published; null until consent is first given or recorded. */
  story: adminStorySchema.nullable(),
});
export type PrizeFulfilment = z.infer<typeof prizeFulfilmentSchema>;

export const postalEntryRowSchema = z.object({
  entry_id: z.string().uuid(),
  name: z.string(),
  address: z.string(),
  postcode: z.string().nullable(),
  user_id: z.string().uuid().nullable(),
  email: z.string().nullable(),
  answer: z.string().nullable(),
  tickets: z.number().int(),
  ticket_numbers: z.array(z.number().int()),
  status: z.enum(ENUM_VALUES.entry_status),
  recorded_by: z.string().nullable(),
  created_at: timestamp,
});
export type PostalEntryRow = z.infer<typeof postalEntryRowSchema>;

export const competitionDetailSchema = z.object({
  competition: adminCompetitionSchema,
  /** What is stored: null in a draft means the default at publish (competition.postal_deadline shows it). */
  stored_dates: z.object({ postal_deadline: timestamp.nullable(), draw_at: timestamp.nullable() }),
  figures: z.object({
    online_tickets: z.number().int(),
    postal_tickets: z.number().int(),
    paid_entries: z.number().int(),
    postal_entries: z.number().int(),
    players: z.number().int(),
    revenue: money,
    refunded_entries: z.number().int(),
    refunded_total: money,
    void_postal_entries: z.number().int(),
  }),
  postal_entries: z.array(postalEntryRowSchema),
  fulfilment: prizeFulfilmentSchema.nullable(),
});
export type CompetitionDetail = z.infer<typeof competitionDetailSchema>;

export const historyRowSchema = z.object({
  id: z.string().uuid(),
  slug: z.string(),
  title: z.string(),
  status: z.enum(["drawn", "closed", "cancelled"]),
  closes_at: timestamp,
  draw_at: timestamp.nullable(),
  finished_at: timestamp,
  ticket_price: money,
  total_tickets: z.number().int(),
  tickets_sold: z.number().int(),
  postal_tickets: z.number().int(),
  revenue: money,
  refunded_total: money,
  prize_value: money,
  cash_alternative: money.nullable(),
  prize_choice: prizeChoiceSchema.nullable(),
  prize_status: prizeStatusSchema.nullable(),
  draw_id: z.string().uuid().nullable(),
  winner_display_name: z.string().nullable(),
  prize_cost: money,
  net: money,
});
export type HistoryRow = z.infer<typeof historyRowSchema>;

export const historySchema = z.object({
  rows: z.array(historyRowSchema),
  totals: z.object({
    competitions: z.number().int(),
    revenue: money,
    refunded_total: money,
    prize_cost: money,
    net: money,
  }),
});
export type CompetitionHistory = z.infer<typeof historySchema>;

const csvChunkSchema = z.object({ csv: z.string(), last_number: z.number().int().nullable(), done: z.boolean() });

/** The competition fields admin_create_competition and admin_update_competition read (validated in SQL). */
export type CompetitionFields = { [field: string]: Json | undefined };

export const adminListCompetitions = () => callRpc("admin_list_competitions", {}, z.array(adminCompetitionSchema));
export const adminGetCompetition = (id: string) =>
  callRpc("admin_get_competition", { p_id: id }, adminCompetitionSchema);
export const adminCreateCompetition = (fields: CompetitionFields) =>
  callRpc("admin_create_competition", { p: fields }, adminCompetitionSchema);
export const adminUpdateCompetition = (id: string, fields: CompetitionFields) =>
  callRpc("admin_update_competition", { p_id: id, p: fields }, adminCompetitionSchema);

/** Publishes a draft, fixing the configured external randomness (if any) with the seed commitment. */
export async function adminPublishCompetition(id: string): Promise<AdminCompetition> {
  // random.org's signed `random` object is typed unknown, but it is JSON as the service sent it.
  const external = (await randomnessAdapter().fetch()) as Json | null;
  return callRpc("admin_publish_competition", { p_id: id, p_external_randomness: external }, adminCompetitionSchema);
}

export const adminCancelCompetition = (id: string, reason: string) =>
  callRpc("admin_cancel_competition", { p_id: id, p_reason: reason }, cancelResultSchema);
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
    postalEntryResultSchema,
  );
export const adminUpdatePrizeStatus = (drawId: string, status: "awaiting_claim" | "verified" | "delivered") =>
  callRpc(
    "admin_update_prize_status",
    { p_draw_id: drawId, p_status: status },
    z.object({ draw_id: z.string().uuid(), prize_status: z.string(), prize_status_updated_at: timestamp.nullable() }),
  );

export const adminCompetitionDetail = (id: string) =>
  callRpc("admin_competition_detail", { p_id: id }, competitionDetailSchema);

export const adminCompetitionHistory = () => callRpc("admin_competition_history", {}, historySchema);

export const adminListPrizeFulfilment = (status?: PrizeStatus) =>
  callRpc("admin_list_prize_fulfilment", status ? { p_status: status } : {}, z.array(prizeFulfilmentSchema));

export const adminUpdatePrizeFulfilment = (change: {
  drawId: string;
  status: PrizeStatus;
  note: string | null;
  proofOfDelivery: string | null;
}) =>
  callRpc(
    "admin_update_prize_fulfilment",
    {
      p_draw_id: change.drawId,
      p_status: change.status,
      p_note: change.note,
      p_proof_of_delivery: change.proofOfDelivery,
    },
    prizeFulfilmentSchema,
  );

/** The admin entries CSV of a competition, chunk by chunk (the header is in the first chunk). */
export async function* adminEntriesCsvChunks(client: RpcClient, competitionId: string): AsyncGenerator<string> {
  let after = 0;
  for (;;) {
    const chunk: z.infer<typeof csvChunkSchema> = await callRpcWith(
      client,
      "admin_competition_entries_csv",
      { p_id: competitionId, p_after: after, p_limit: 10_000 },
      csvChunkSchema,
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
  kind: "credit" | "spin" | "physical";
  title: string | null;
  credit_amount: number | null;
  quantity: number;
};

export const adminSetInstantWinPrizes = (id: string, prizes: InstantWinPrizeInput[]) =>
  callRpc("admin_set_instant_win_prizes", { p_competition_id: id, p_prizes: prizes }, instantWinsSchema);

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
  callRpc("admin_mark_instant_win_delivered", { p_id: id }, z.object({ id: z.string().uuid() }));
