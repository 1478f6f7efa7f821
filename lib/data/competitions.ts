import "server-only";
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { PRIZE_STATUSES } from "@/lib/prizes/steps";
import { DbError } from "./errors";
import { declared, noResult } from "./rpc";
import { callPublicRpc } from "./public-rpc";
import { callRpc } from "./server-rpc";
import { publicStorySchema, type PublicStory } from "./winner-stories";

// Typed wrappers around the competition RPCs (supabase/migrations/*_competitions.sql).
// numeric columns arrive as JSON numbers; money is only formatted here, never computed.

const money = z.coerce.number();
const timestamp = z.string();

export const competitionStatusSchema = z.enum(ENUM_VALUES.competition_status);
export type CompetitionStatus = z.infer<typeof competitionStatusSchema>;

export const prizeChoiceSchema = z.enum(ENUM_VALUES.prize_choice);
export type PrizeChoice = z.infer<typeof prizeChoiceSchema>;
export const prizeStatusSchema = z.enum(PRIZE_STATUSES);

/**
 * What public.competition always fills: a draft's postal deadline and draw time are the defaults; the cash
 * alternative, question, seed commitment, dates of publishing, closing and cancelling, and the draw may be null.
 * `postal_tickets` are numbered after the online pool; `postal_tickets_per_entry` is stamp parity, worked out in SQL;
 * `entry_list_open` says online sales have ended, so the public entry list is open.
 */
export const competition = declared(
  "id",
  "slug",
  "title",
  "summary",
  "description",
  "prize_description",
  "prize_value",
  "images",
  "ticket_price",
  "total_tickets",
  "tickets_sold",
  "tickets_left",
  "max_tickets_per_user",
  "ticket_numbering",
  "opens_at",
  "closes_at",
  "postal_deadline",
  "draw_at",
  "postal_entries",
  "postal_tickets",
  "postal_tickets_per_entry",
  "stamp_price",
  "entry_list_open",
  "status",
  "is_open",
).with({ draw: declared("id", "algorithm", "winning_number", "winner_display_name", "ticket_count", "drawn_at") });

const externalRandomness = z.record(z.string(), z.unknown()).nullable();
/** A declared competition with its two jsonb fields read (below). */
type WithJsonParts<C extends { draw: object | null }> = Omit<C, "external_randomness" | "draw"> & {
  external_randomness: z.infer<typeof externalRandomness>;
  draw: (Omit<NonNullable<C["draw"]>, "story"> & { story: PublicStory | null }) | null;
};
/**
 * The two jsonb fields of a declared competition, read with zod: the external randomness named at publish, and the
 * winner's photo and quote (only while they consent to their publication).
 */
export const withJsonParts = <C extends { external_randomness: unknown; draw: { story: unknown } | null }>(c: C) =>
  // The spread keeps C's other fields; TypeScript cannot see that for a generic C, so the result is named.
  ({
    ...c,
    external_randomness: externalRandomness.parse(c.external_randomness),
    draw: c.draw && { ...c.draw, story: publicStorySchema.nullable().parse(c.draw.story) },
  }) as WithJsonParts<C>;

/** The page's reader: the competition's, the ticket bundles and the caller's numbers (null when signed out). */
const competitionPage = declared(...competition.filled, "bundles").with({
  ...competition.nested,
  bundles: declared("tickets", "cost"),
});

/** An instant win awarded in the purchase (private.award_instant_wins). */
export const instantWinAwardSchema = z.object({
  ticket_number: z.number().int(),
  kind: z.enum(ENUM_VALUES.instant_win_kind),
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

/** One prize's result, as get_draw gives it for the prize itself and for each prize of the same draw. */
const prizeResult = {
  counter: z.number().int(),
  /** labcash-draw-v2: the winning row of the ticket list (1-based); null for v1, where it equals the number. */
  winning_position: z.number().int().nullable(),
  winning_number: z.number().int(),
  winning_ticket_id: z.string().uuid(),
  winner_display_name: z.string(),
  winner_town: z.string().nullable(),
  prize_description: z.string(),
  prize_value: z.number(),
};

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
  ...prizeResult,
  /** v1 only: ticket ids in number order. v2 draws are checked against the ticket-list CSV instead. */
  tickets: z.array(z.string().uuid()).nullable(),
  /** Which prize this draw is: 1 for the first (the competition's own prize). */
  prize_position: z.number().int(),
  /** How many prizes the competition offered before entry. */
  prizes_offered: z.number().int(),
  /** Every prize of the same draw, first prize first: the verifier recomputes them all. */
  prizes: z.array(z.object({ prize_position: z.number().int(), draw_id: z.string().uuid(), ...prizeResult })),
});
export type Draw = z.infer<typeof drawSchema>;

/** Published competitions (never drafts), live ones first by closing soonest; optionally one status. */
export const listCompetitions = async (status?: Exclude<CompetitionStatus, "draft">) =>
  (await callRpc("list_competitions", status ? { p_status: status } : {}, competition)).map(withJsonParts);
export type Competition = Awaited<ReturnType<typeof listCompetitions>>[number];

/** One competition's page with the caller's ticket numbers; null when there is no published competition with this slug. */
export async function getCompetition(slug: string) {
  try {
    return withJsonParts(await callRpc("get_competition", { p_slug: slug }, competitionPage));
  } catch (e) {
    if (e instanceof DbError && e.code === "competition_not_found") return null;
    throw e;
  }
}
export type CompetitionPage = NonNullable<Awaited<ReturnType<typeof getCompetition>>>;
/** A quick pick one person may buy now (1, 5, 10, 25), with its cost worked out in SQL. */
export type TicketBundle = CompetitionPage["bundles"][number];

// What anyone may see, read as anon for the cached public pages (lib/cache/public-pages.ts says
// when they are regenerated).

export const listPublicCompetitions = async (status?: Exclude<CompetitionStatus, "draft">) =>
  (await callPublicRpc("list_competitions", status ? { p_status: status } : {}, competition, [])).map(withJsonParts);

/** As anon (`my_tickets` is null); null when there is no published competition with this slug. */
export async function getPublicCompetition(slug: string): Promise<CompetitionPage | null> {
  try {
    return withJsonParts(await callPublicRpc("get_competition", { p_slug: slug }, competitionPage));
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
        "prize_position",
        "prizes",
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
 * refusal, a wrong answer included, is thrown as a DbError with its code. The purchase commits without waiting
 * for the disk (enter_competition), so it is answered only after make_entries_durable has flushed it. If that
 * call fails the purchase most likely stands, but a crash could still undo it: that is thrown as a plain Error
 * (not a refusal), which the action reports as an entry it could not confirm.
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
  try {
    await callRpc("make_entries_durable", {}, noResult);
  } catch (e) {
    throw new Error(`Entry ${result.entry_id} was made but not confirmed durable`, { cause: e });
  }
  return result;
}

/** A page of a pick competition's number grid: sold, held by others, the caller's basket and own tickets (get_ticket_numbers). */
export const getTicketNumbers = (competitionId: string, from: number, to: number) =>
  callRpc(
    "get_ticket_numbers",
    { p_competition_id: competitionId, p_from: from, p_to: to },
    declared("sold", "held", "mine", "owned"),
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
    declared("sold", "held", "mine", "owned"),
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
    declared("draw_id", "prize_choice", "claimed_at", "prize_status"),
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
      "prize_position",
      "prizes",
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
