import "server-only";
import { unstable_cache } from "next/cache";
import { z } from "zod";
import { createAdminClient } from "@/lib/supabase/admin";
import { readTransparencyCharityFigures, type CharityFigures } from "./charities";
import { callRpcWith, declared, type RpcOutput } from "./rpc";

/**
 * Every figure of a period. Null: the median of a period with no draw, and how winners chose between prize and cash
 * (with the cash paid) until at least five in the period have chosen.
 */
const figures = declared(
  "period",
  "competitions_drawn",
  "prize_value",
  "awaiting_claim",
  "prizes_delivered",
  "instant_wins_published",
  "instant_wins_won",
  "online_entries",
  "online_tickets",
  "postal_received",
  "postal_entered",
  "postal_tickets",
  "complaints_received",
  "complaints_acknowledged_in_time",
  "complaints_answered_in_time",
  "complaints_open",
  "complaints_overdue",
  "draw_checks",
  "draws_checked",
);

const report = declared("generated_at", "all_time", "months", "towns", "winners_without_town", "draws").with({
  all_time: figures,
  months: figures,
  towns: declared("town", "winners"),
  draws: declared(
    "draw_id",
    "slug",
    "title",
    "month",
    "drawn_at",
    "ticket_count",
    "postal_tickets",
    "prize_value",
    "prize_status",
    "instant_wins_published",
    "instant_wins_won",
    "checks",
  ),
});

/** The report, with what charities were owed and paid in each period that has any (charities). */
export type TransparencyReport = RpcOutput<"get_transparency_report", typeof report> & { charities: CharityFigures[] };
export type PeriodFigures = TransparencyReport["all_time"];
export type ReportDraw = TransparencyReport["draws"][number];

const NOTHING_YET: PeriodFigures = {
  period: "all",
  competitions_drawn: 0,
  prize_value: 0,
  prizes_chosen: null,
  cash_chosen: null,
  cash_paid: null,
  awaiting_claim: 0,
  prizes_delivered: 0,
  median_tickets: null,
  instant_wins_published: 0,
  instant_wins_won: 0,
  online_entries: 0,
  online_tickets: 0,
  postal_received: 0,
  postal_entered: 0,
  postal_tickets: 0,
  complaints_received: 0,
  complaints_acknowledged_in_time: 0,
  complaints_answered_in_time: 0,
  complaints_open: 0,
  complaints_overdue: 0,
  draw_checks: 0,
  draws_checked: 0,
};

/** The cache tag of the trust page's figures: a draw or any change the app makes to competitions expires it. */
export const TRANSPARENCY_TAG = "transparency";

// The figures aggregate every entry, so they are computed at most once a minute (and at once after a draw), while
// the page itself regenerates like the other public pages. Only the site may call the function (with the secret key:
// no cookies, so the page stays static), so nobody can make the database compute it at will. The build has no
// database and must not put its stand-in into the data cache the running site reads, so the build's answer is given
// outside the cache.
const readReport = unstable_cache(
  async (): Promise<TransparencyReport> => {
    const [figures, charities] = await Promise.all([
      callRpcWith(createAdminClient(), "get_transparency_report", {}, report),
      readTransparencyCharityFigures(),
    ]);
    return { ...figures, charities };
  },
  ["transparency-report"],
  { revalidate: 60, tags: [TRANSPARENCY_TAG] },
);

/** The trust page's figures (get_transparency_report). */
export const getTransparencyReport = (): Promise<TransparencyReport> =>
  process.env.NEXT_PHASE === "phase-production-build"
    ? Promise.resolve({
        generated_at: new Date(0).toISOString(),
        all_time: NOTHING_YET,
        months: [],
        towns: [],
        winners_without_town: 0,
        draws: [],
        charities: [],
      })
    : readReport();

/**
 * Counts a visitor's browser check of a draw that checked out (once per visitor, draw and London day, in SQL);
 * with the secret key, since only the site may say which visitor it was. False when not counted.
 */
export const countDrawCheck = (drawId: string, visitor: string | null): Promise<boolean> =>
  visitor
    ? callRpcWith(createAdminClient(), "record_draw_check", { p_draw_id: drawId, p_visitor: visitor }, z.boolean())
    : Promise.resolve(false);
