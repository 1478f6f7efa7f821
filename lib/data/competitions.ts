import "server-only";
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { PRIZE_STATUSES } from "@/lib/prizes/steps";
import { DbError } from "./errors";
import { declared } from "./rpc";
import { callPublicRpc } from "./public-rpc";
import { callRpc } from "./server-rpc";
import { publicStorySchema } from "./winner-stories";

// Typed wrappers around the competition RPCs (supabase/migrations/*_competitions.sql).
// numeric columns arrive as JSON numbers; money is only formatted here, never computed.

const money = z.coerce.number();
const timestamp = z.string();

export const competitionStatusSchema = z.enum(ENUM_VALUES.competition_status);
export type CompetitionStatus = z.infer<typeof competitionStatusSchema>;

export const prizeChoiceSchema = z.enum(ENUM_VALUES.prize_choice);
export type PrizeChoice = z.infer<typeof prizeChoiceSchema>;
export const prizeStatusSchema = z.enum(PRIZE_STATUSES);

export const competitionDrawSummarySchema = z.object({
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

export const competitionSchema = z.object({
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
export type Competition = z.infer<typeof competitionSchema>;

export const competitionPageSchema = competitionSchema.extend({
  /** The caller's ticket numbers; null when signed out. */
  my_tickets: z.array(z.number().int()).nullable(),
  /** The quick picks one person may buy now (1, 5, 10, 25), each with its cost worked out in SQL. */
  bundles: z.array(z.object({ tickets: z.number().int(), cost: money })),
});
export type CompetitionPage = z.infer<typeof competitionPageSchema>;
export type TicketBundle = CompetitionPage["bundles"][number];

/** An instant win awarded in the purchase (private.award_instant_wins). */
export const instantWinAwardSchema = z.object({
  ticket_number: z.number().int(),
  kind: z.enum(["credit", "spin", "physical"]),
  prize: z.string(),
  credit_amount: money.nullable(),
});
export type InstantWinAward = z.infer<typeof instantWinAwardSchema>;

export const entryResultSchema = z.object({
  entry_id: z.string().uuid(),
  ticket_numbers: z.array(z.number().int()),
  balance: money,
  instant_wins: z.array(instantWinAwardSchema),
});
export type EntryResult = z.infer<typeof entryResultSchema>;

export const drawSchema = z.object({
  id: z.string().uuid(),
  algorithm: z.string(),
  competition: z.object({
    id: z.string().uuid(),
    slug: z.string(),
    title: z.string(),
    total_tickets: z.number().int(),
  }),
  trigger: z.enum(ENUM_VALUES.draw_trigger),
  drawn_at: timestamp,
  ticket_count: z.number().int(),
  ticket_list_hash: z.string(),
  seed_commitment: z.string(),
  seed_hex: z.string(),
  external_randomness: z.record(z.string(), z.unknown()).nullable(),
  external_hex: z.string().nullable(),
  counter: z.number().int(),
  /** labcash-draw-v2: the winning row of the ticket list (1-based); null for v1, where it equals the number. */
  winning_position: z.number().int().nullable(),
  winning_number: z.number().int(),
  winning_ticket_id: z.string().uuid(),
  winner_display_name: z.string(),
  winner_town: z.string().nullable(),
  /** v1 only: ticket ids in number order. v2 draws are checked against the ticket-list CSV instead. */
  tickets: z.array(z.string().uuid()).nullable(),
});
export type Draw = z.infer<typeof drawSchema>;

export const listCompetitions = (status?: Exclude<CompetitionStatus, "draft">) =>
  callRpc("list_competitions", status ? { p_status: status } : {}, z.array(competitionSchema));

/** null when there is no published competition with this slug. */
export async function getCompetition(slug: string): Promise<CompetitionPage | null> {
  try {
    return await callRpc("get_competition", { p_slug: slug }, competitionPageSchema);
  } catch (e) {
    if (e instanceof DbError && e.code === "competition_not_found") return null;
    throw e;
  }
}

// What anyone may see, read as anon for the cached public pages (lib/cache/public-pages.ts says
// when they are regenerated).

export const listPublicCompetitions = (status?: Exclude<CompetitionStatus, "draft">) =>
  callPublicRpc("list_competitions", status ? { p_status: status } : {}, z.array(competitionSchema), []);

/** As anon (`my_tickets` is null); null when there is no published competition with this slug. */
export async function getPublicCompetition(slug: string): Promise<CompetitionPage | null> {
  try {
    return await callPublicRpc("get_competition", { p_slug: slug }, competitionPageSchema);
  } catch (e) {
    if (e instanceof DbError && e.code === "competition_not_found") return null;
    throw e;
  }
}

/**
 * Every draw, newest first; the image and the winner's town may be missing, and the delivery date until delivered.
 * The story (photo and quote, only while the winner consents) is a jsonb field of the declared row: read with zod.
 */
export const listWinners = async () =>
  (
    await callPublicRpc(
      "list_winners",
      {},
      declared(
        "draw_id",
        "competition_id",
        "slug",
        "title",
        "prize_description",
        "prize_value",
        "winner_display_name",
        "winning_number",
        "ticket_count",
        "drawn_at",
        "prize_status",
      ),
      [],
    )
  ).map((winner) => ({ ...winner, story: publicStorySchema.nullable().parse(winner.story) }));
export type Winner = Awaited<ReturnType<typeof listWinners>>[number];
export const getDraw = (drawId: string) => callPublicRpc("get_draw", { p_draw_id: drawId }, drawSchema.nullable());

/** A wrong skill answer, which enter_competition returns (so the miss it records commits) rather than raises. */
const entryRefusedSchema = z.object({
  refused: z.object({ code: z.literal("answer_incorrect"), message: z.string(), retry_at: timestamp.nullable() }),
});

/**
 * Buys tickets (on a pick competition the chosen `numbers`, or a lucky dip of `quantity` without them); every
 * refusal, a wrong answer included, is thrown as a DbError with its code.
 */
export async function enterCompetition(
  competitionId: string,
  quantity: number,
  answer?: string | null,
  numbers?: number[] | null,
) {
  const result = await callRpc(
    "enter_competition",
    {
      p_competition_id: competitionId,
      p_quantity: quantity,
      p_answer: answer ?? null,
      p_numbers: numbers ?? undefined,
    },
    z.union([entryResultSchema, entryRefusedSchema]),
  );
  if ("refused" in result) throw new DbError(result.refused.code, result.refused.message, "P0001", "enter_competition");
  return result;
}

/** A page of a pick competition's number grid: sold, held by others, and the caller's basket (get_ticket_numbers). */
export const getTicketNumbers = (competitionId: string, from: number, to: number) =>
  callRpc(
    "get_ticket_numbers",
    { p_competition_id: competitionId, p_from: from, p_to: to },
    declared("sold", "held", "mine"),
  );
export type TicketNumberPage = Awaited<ReturnType<typeof getTicketNumbers>>;

/** Sets the caller's basket to `numbers` plus a lucky dip of `luckyDip` free numbers; answers with the grid page. */
export const holdTicketNumbers = (
  competitionId: string,
  numbers: number[],
  luckyDip: number,
  page: { from: number; to: number },
) =>
  callRpc(
    "hold_ticket_numbers",
    { p_competition_id: competitionId, p_numbers: numbers, p_lucky_dip: luckyDip, p_from: page.from, p_to: page.to },
    declared("sold", "held", "mine"),
  );

/**
 * The caller's entries, newest first, with their ticket numbers (ascending), the competition (its first image, if
 * any) and the draw once drawn; `draw.prize_choice` is the winner's claim, null until they claim and for the others.
 */
export const getMyEntries = () =>
  callRpc(
    "get_my_entries",
    {},
    declared("entry_id", "kind", "quantity", "amount", "status", "created_at", "ticket_numbers", "competition").with({
      competition: declared("id", "slug", "title", "status", "closes_at", "total_tickets", "tickets_sold"),
      draw: declared("id", "winning_number", "drawn_at", "won", "prize_description", "prize_status"),
    }),
  );
export type MyEntry = Awaited<ReturnType<typeof getMyEntries>>[number];

/** The winner's choice of the prize or its cash alternative (claim_prize; changeable until the prize is verified). */
export const claimPrize = (drawId: string, choice: PrizeChoice, deliveryAddress: string | null) =>
  callRpc(
    "claim_prize",
    { p_draw_id: drawId, p_choice: choice, p_delivery_address: deliveryAddress ?? undefined },
    z.object({
      draw_id: z.string().uuid(),
      prize_choice: prizeChoiceSchema,
      claimed_at: timestamp,
      prize_status: prizeStatusSchema,
      delivery_address: z.string().nullable(),
    }),
  );

/**
 * The caller's prizes, newest first, with their claim and each step's date (get_my_prizes); the proof of delivery
 * once delivered, and their consent to a published photo and quote (`story`, null until first given).
 */
export const getMyPrizes = () =>
  callRpc(
    "get_my_prizes",
    {},
    declared(
      "draw_id",
      "competition",
      "prize_description",
      "prize_value",
      "winning_number",
      "drawn_at",
      "prize_status",
    ).with({
      competition: declared("id", "slug", "title"),
      story: declared("consent", "consent_source", "consent_changed_at", "published"),
    }),
  );
export type MyPrize = Awaited<ReturnType<typeof getMyPrizes>>[number];

/**
 * What the signed-in caller would pay for each quantity, and what they are short (get_entry_quote): costs[i] and
 * shortfalls[i] are for i + 1 tickets (up to 1000), worked out in SQL; `skill_retry_at` is until when a wrong skill
 * answer closes the question to them (null: it does not); `block` is what stops them playing now (a break,
 * self-exclusion, closure, restriction), with its end date in the message, or null.
 */
export const getEntryQuote = (competitionId: string) =>
  callRpc(
    "get_entry_quote",
    { p_competition_id: competitionId },
    declared("balance", "approved", "rejected", "held", "cap_left", "tickets_left", "costs", "shortfalls").with({
      block: declared("code", "message"),
    }),
  );
export type EntryQuote = Awaited<ReturnType<typeof getEntryQuote>>;
