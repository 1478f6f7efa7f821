// A function that returns a declared composite type (docs/decisions/007), read with
// `declared` through real supabase-js and the embedded backend: a set arrives as an array and one row as an
// object, as PostgREST answers them, with the JSON the jsonb versions gave; a filled field that is null fails.
import { describe, expect, expectTypeOf, it } from "vitest";
import { ACTIVITY_CSV_HEADER, activityCsvLines, type ActivityCsvRow } from "@/lib/activity/csv";
import { myAccount } from "@/lib/data/account-schema";
import { topUpOptions, topUpQuote } from "@/lib/data/payments-schema";
import { callRpcWith, declared, type RpcReader } from "@/lib/data/rpc";
import type { Database, Json } from "@/lib/supabase/database.types";
import { adminClient, client, PLAYER_ID, signIn, signInAtAal2 } from "./helpers";
import { contractServer } from "./support/server";

type CompetitionStatus = Database["public"]["Enums"]["competition_status"];

const contract = contractServer();

const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/;

describe("declared result shapes", () => {
  it("read a set of composites as an array of objects, numbers and instants as the jsonb gave them", async () => {
    const winners = await callRpcWith(
      client(contract.server),
      "list_winners",
      {},
      declared("draw_id", "drawn_at", "prize_value"),
    );
    expect(winners.length).toBeGreaterThan(0);
    for (const w of winners) {
      expect(w.drawn_at).toMatch(ISO_WITH_OFFSET);
      expect(typeof w.prize_value).toBe("number");
      expect(typeof w.winning_number).toBe("number");
    }
  });

  it("read one composite as an object, with its enum as a string", async () => {
    const player = await contract.player();
    const protections = await callRpcWith(player, "get_my_protections", {}, declared("state", "month_spent"));
    expect(Array.isArray(protections)).toBe(false);
    expect(protections.state).toBe("active");
    expect(typeof protections.month_spent).toBe("number");
  });

  it("read get_my_account (the proxy's call on every request) with every key, null and type the jsonb gave", async () => {
    const player = await contract.player();
    const account = await callRpcWith(player, "get_my_account", {}, myAccount);
    expect(Object.keys(account).sort()).toEqual(
      [
        "id",
        "name",
        "email",
        "email_notifications",
        "date_of_birth",
        "town",
        "show_initials_only",
        "credits",
        "role",
        "approved",
        "approved_at",
        "approved_by",
        "rejected_at",
        "rejection_reason",
        "total_spent",
        "total_entries",
        "kyc_status",
        "is_verified",
        "verified_at",
        "age_verified",
        "metadata",
        "created_at",
        "two_step_owed",
        "welcome_due",
      ].sort(),
    );
    expect(account).toMatchObject({ email: "player@labcash.test", role: "user", approved: true, two_step_owed: false });
    expect(typeof account.credits).toBe("number");
    expect(typeof account.total_entries).toBe("number");
    expect(account.created_at).toMatch(ISO_WITH_OFFSET);
    expect(account.date_of_birth).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(account.rejected_at).toBeNull();
  });

  it("read nested declared types: a composite in a composite, an array of them, a null one", async () => {
    const segment = declared("position", "label", "prize_credits", "weight", "probability");
    const wheel = await callRpcWith(
      client(contract.server),
      "get_spinner_wheel",
      {},
      declared("wheel_id", "enabled", "segments").with({ segments: segment }),
    );
    expect(Array.isArray(wheel.segments)).toBe(true);
    expect(wheel.segments.length).toBeGreaterThan(1);
    expect(wheel.segments.map((s) => s.position)).toEqual(wheel.segments.map((_, i) => i + 1));
    for (const s of wheel.segments) {
      expect(typeof s.probability).toBe("number");
      expect(typeof s.prize_credits).toBe("number");
    }

    const player = await contract.player();
    const spinner = await callRpcWith(
      player,
      "get_my_spinner",
      {},
      declared("credits", "seed", "recent_spins").with({
        credits: declared("available", "to_next"),
        seed: declared("id", "server_seed_hash", "created_at"),
      }),
    );
    expect(spinner.block).toBeNull();
    expect(typeof spinner.credits.available).toBe("number");
    // Typed from the generated CompositeTypes: what a reader names is not null, the rest keeps its `| null`.
    expectTypeOf(spinner.credits.available).toEqualTypeOf<number>();
    expectTypeOf(spinner.credits.earned).toEqualTypeOf<number | null>();
    expectTypeOf(spinner.seed.server_seed_hash).toEqualTypeOf<string>();
    expectTypeOf(spinner.block).toEqualTypeOf<{ code: string | null; message: string | null } | null>();
    expect(spinner.seed.server_seed).toBeNull();
    expect(spinner.seed.created_at).toMatch(ISO_WITH_OFFSET);
    expect(Array.isArray(spinner.recent_spins)).toBe(true);
  });

  it("read the player's competition calls: the entry quote, their entries and their prizes, nested parts included", async () => {
    const buyers = ["oliver.bennett", "amelia.clarke", "harry.patel", "isla.morgan", "george.evans"];
    const { data: listed } = await client(contract.server).rpc("list_competitions", { p_status: "live" });
    const iphone = (listed as { id: string; slug: string }[]).find((c) => c.slug === "iphone-17-pro-max");
    const { client: buyer } = await signIn(contract.server, `${buyers[0]}@labcash.test`);
    const quote = await callRpcWith(
      buyer,
      "get_entry_quote",
      { p_competition_id: iphone!.id },
      declared("balance", "cap_left", "costs").with({ block: declared("code", "message") }),
    );
    expect(Array.isArray(quote)).toBe(false);
    expect(quote.block).toBeNull();
    expect(quote.costs.slice(0, 2)).toEqual([0.99, 1.98]);
    expectTypeOf(quote.costs).toEqualTypeOf<number[]>();
    expectTypeOf(quote.block).toEqualTypeOf<{ code: string; message: string } | null>();

    const entries = await callRpcWith(
      buyer,
      "get_my_entries",
      {},
      declared("entry_id", "ticket_numbers", "competition").with({ competition: declared("slug", "status") }),
    );
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      expect(e.created_at).toMatch(ISO_WITH_OFFSET);
      expect(e.ticket_numbers).toEqual([...e.ticket_numbers].sort((a, b) => a - b));
    }
    expectTypeOf(entries[0].competition.status).toEqualTypeOf<CompetitionStatus>();

    // The seed draws its past competitions from the CSPRNG, so which demo buyer won is found, not assumed.
    let prizes: { draw_id: string; competition: { title: string }; story: unknown; prize_value: number | null }[] = [];
    for (const name of buyers) {
      const { client: player } = await signIn(contract.server, `${name}@labcash.test`);
      prizes = await callRpcWith(
        player,
        "get_my_prizes",
        {},
        declared("draw_id", "competition").with({ competition: declared("title") }),
      );
      if (prizes.length) break;
    }
    expect(prizes.length).toBeGreaterThan(0);
    expect(typeof prizes[0].competition.title).toBe("string");
    expect(typeof prizes[0].prize_value).toBe("number");
  });

  it("read a ledger page (rows and totals nested) and the admin's instant wins to deliver (a set, [] when none)", async () => {
    const player = await contract.player();
    const page = await callRpcWith(
      player,
      "get_my_ledger_page",
      { p_limit: 1 },
      declared("rows", "totals").with({ rows: declared("id", "kind", "amount"), totals: declared("count", "net") }),
    );
    expect(page.rows).toHaveLength(1);
    expect(typeof page.rows[0].amount).toBe("number");
    expect(page.totals.count).toBeGreaterThan(1);
    expect(typeof page.next_before).toBe("number");
    expectTypeOf(page.rows[0].kind).toEqualTypeOf<Database["public"]["Enums"]["ledger_kind"]>();
    expectTypeOf(page.next_before).toEqualTypeOf<number | null>();

    const admin = await contract.admin();
    const toDeliver = await callRpcWith(admin, "admin_list_instant_win_fulfilment", {}, declared("id", "won_at"));
    expect(Array.isArray(toDeliver)).toBe(true);
    for (const w of toDeliver) expect(w.won_at).toMatch(ISO_WITH_OFFSET);
  });

  it("read the admin users list and a user's page: the approval_state enum, nested protections, entries, activity", async () => {
    const admin = await contract.admin();
    const page = await callRpcWith(
      admin,
      "admin_list_users",
      { p_limit: 2 },
      declared("rows").with({ rows: declared("id", "approval", "credits") }),
    );
    expect(page.rows).toHaveLength(2);
    expect(typeof page.next_cursor).toBe("string");
    expectTypeOf(page.rows[0].approval).toEqualTypeOf<Database["public"]["Enums"]["approval_state"]>();
    const pending = await callRpcWith(
      admin,
      "admin_list_users",
      { p_approval: "pending" },
      declared("rows").with({ rows: declared("id", "approval") }),
    );
    expect(pending.rows.map((r) => r.approval)).toEqual(pending.rows.map(() => "pending"));

    const buyer = await callRpcWith(
      admin,
      "admin_list_users",
      { p_search: "oliver.bennett@labcash.test" },
      declared("rows").with({ rows: declared("id") }),
    );
    const detail = await callRpcWith(
      admin,
      "admin_get_user",
      { p_user_id: buyer.rows[0].id },
      declared("user", "protections", "entries", "activity").with({
        user: declared("approval", "date_of_birth"),
        protections: declared("state", "month_spent"),
        entries: declared("competition_title", "amount"),
      }),
    );
    expect(detail.user.approval).toBe("approved");
    expect(detail.user.date_of_birth).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(detail.protections.state).toBe("active");
    expect(detail.entries.length).toBeGreaterThan(0);
    expect(typeof detail.entries[0].amount).toBe("number");
    expect(typeof detail.large_adjustment_threshold).toBe("number");
    expectTypeOf(detail.activity[0].details).toEqualTypeOf<Json | null>();
  });

  it("read player protection's queue and a player's record: sets and arrays of flags, their jsonb details", async () => {
    const admin = await contract.admin();
    const queue = await callRpcWith(
      admin,
      "admin_list_player_flags",
      { p_status: "reviewed" },
      declared("id", "user").with({ user: declared("name") }),
    );
    expect(Array.isArray(queue)).toBe(true);
    const player = await contract.player();
    const me = await callRpcWith(player, "get_my_account", {}, declared("id"));
    const record = await callRpcWith(
      admin,
      "admin_get_player_protection",
      { p_user_id: me.id },
      declared("flags", "interventions"),
    );
    expect(record).toMatchObject({ restricted_at: null });
    expect(Array.isArray(record.flags)).toBe(true);
    expect(Array.isArray(record.interventions)).toBe(true);
    expectTypeOf(record.flags).toEqualTypeOf<Database["public"]["CompositeTypes"]["player_flag"][]>();
  });

  it("read the admin mail screen: a preview with nested parts, the campaigns (a set) and an outbox page", async () => {
    const admin = await contract.admin();
    const preview = await callRpcWith(
      admin,
      "admin_preview_mail",
      {
        p_kind: "service",
        p_segment: "all_players",
        p_competition_id: null,
        p_subject: "A service notice",
        p_body: "The site will be down for ten minutes on Sunday morning.",
      },
      declared("kind", "members", "held_back", "rendered").with({
        held_back: declared("no_consent", "protected"),
        sample: declared("name", "email"),
      }),
    );
    expect(preview).toMatchObject({ kind: "service", competition: null, held_back: { no_consent: 0, protected: 0 } });
    expect(preview.members).toBeGreaterThan(0);
    expect(preview.sample?.email).toMatch(/@labcash\.test$/);
    expectTypeOf(preview.kind).toEqualTypeOf<Database["public"]["Enums"]["mail_kind"]>();

    const campaigns = await callRpcWith(admin, "admin_list_mail_campaigns", {}, declared("id", "queued"));
    expect(Array.isArray(campaigns)).toBe(true);
    const outbox = await callRpcWith(
      admin,
      "admin_list_mail_outbox",
      { p_limit: 1 },
      declared("rows").with({ rows: declared("id", "status") }),
    );
    expect(outbox.campaign).toBeNull();
    expect(outbox.rows.length).toBeLessThanOrEqual(1);
  });

  it("read the admin dashboard (30 days, dates as YYYY-MM-DD), an activity page (its kinds a text array) and CSV chunks", async () => {
    const admin = await contract.admin();
    const dashboard = await callRpcWith(
      admin,
      "admin_dashboard",
      {},
      declared("from", "to", "counts", "days", "totals").with({
        counts: declared("players"),
        days: declared("day", "credit_sold"),
        totals: declared("signups"),
      }),
    );
    expect(dashboard.days).toHaveLength(30);
    expect(dashboard.to).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(dashboard.days.at(-1)?.day).toBe(dashboard.to);
    expect(typeof dashboard.counts.players).toBe("number");
    expect(dashboard.generated_at).toMatch(ISO_WITH_OFFSET);

    const activity = await callRpcWith(
      admin,
      "admin_list_activity",
      { p_limit: 3 },
      declared("rows", "kinds").with({ rows: declared("id", "action") }),
    );
    expect(activity.rows).toHaveLength(3);
    expect(activity.kinds).toEqual([...activity.kinds].sort());
    expectTypeOf(activity.kinds).toEqualTypeOf<string[]>();

    // The CSV's rows in chunks, as the export route reads them, written as the route writes them.
    const exportRows = declared("rows").with({ rows: declared("id", "created_at", "action", "details", "refs") });
    const first = await callRpcWith(admin, "admin_activity_export", { p_limit: 2 }, exportRows);
    expect(Object.keys(first).sort()).toEqual(["next_before", "rows"]);
    expect(first.next_before).toBe(activity.rows[1].id);
    expectTypeOf(first.next_before).toEqualTypeOf<number | null>();
    const second = await callRpcWith(
      admin,
      "admin_activity_export",
      { p_limit: 2, p_before: first.next_before },
      exportRows,
    );
    expect(second.rows[0].id).toBe(activity.rows[2].id);
    const csv = activityCsvLines(first.rows as ActivityCsvRow[])
      .trimEnd()
      .split("\n");
    expect(ACTIVITY_CSV_HEADER.split(",")).toEqual([
      ...["id", "created_at", "action", "actor_id", "actor", "actor_email", "subject_id", "subject_kind", "subject"],
      ...["details", "details_json"],
    ]);
    expect(csv).toHaveLength(2);
    expect(csv[0].startsWith(`${first.rows[0].id},`)).toBe(true);
    // The recorded JSON comes last, for machines.
    expect(csv[0]).toMatch(/,"\{.*\}"$|,\{\}$/);
  });

  it("read the public competitions: a set with nested draws and jsonb stories, and one page with its bundles", async () => {
    const listed = await callRpcWith(
      client(contract.server),
      "list_competitions",
      {},
      declared("id", "slug", "images", "prize_value", "closes_at").with({
        draw: declared("id", "winning_number", "drawn_at"),
      }),
    );
    expect(listed.length).toBeGreaterThan(3);
    expect(listed.some((c) => c.draw !== null)).toBe(true);
    for (const c of listed) {
      expect(typeof c.prize_value).toBe("number");
      expect(c.closes_at).toMatch(ISO_WITH_OFFSET);
      if (c.draw) expect(c.draw.drawn_at).toMatch(ISO_WITH_OFFSET);
    }
    expectTypeOf(listed[0].images).toEqualTypeOf<string[]>();
    expectTypeOf(listed[0].external_randomness).toEqualTypeOf<Json | null>();

    const { client: buyer } = await signIn(contract.server, "oliver.bennett@labcash.test");
    const page = await callRpcWith(
      buyer,
      "get_competition",
      { p_slug: "iphone-17-pro-max" },
      declared("id", "bundles").with({ bundles: declared("tickets", "cost") }),
    );
    expect(Array.isArray(page)).toBe(false);
    expect(page.bundles[0]).toEqual({ tickets: 1, cost: 0.99 });
    expect(Array.isArray(page.my_tickets)).toBe(true);
    const anonymous = await callRpcWith(
      client(contract.server),
      "get_competition",
      { p_slug: "iphone-17-pro-max" },
      declared("id"),
    );
    expect(anonymous.my_tickets).toBeNull();
  });

  it("read the admin competition calls: one competition's life, its admin page, the history and prize fulfilment", async () => {
    const admin = await contract.admin();
    const adminCompetition = declared("id", "slug", "status", "revenue", "entry_count", "created_at").with({
      draw: declared("id", "drawn_at"),
    });
    const listed = await callRpcWith(admin, "admin_list_competitions", {}, adminCompetition);
    expect(listed.some((c) => c.status === "draft" || c.draw !== null)).toBe(true);
    for (const c of listed) {
      expect(typeof c.revenue).toBe("number");
      expect(typeof c.entry_count).toBe("number");
      expect(c.created_at).toMatch(ISO_WITH_OFFSET);
    }
    expectTypeOf(listed[0].prize_status).toEqualTypeOf<Database["public"]["Enums"]["prize_status"] | null>();
    expectTypeOf(listed[0].external_randomness).toEqualTypeOf<Json | null>();

    const created = await callRpcWith(
      admin,
      "admin_create_competition",
      {
        p: {
          title: "Contract declared",
          prize_description: "A kettle",
          prize_value: 40,
          ticket_price: 0.5,
          total_tickets: 20,
          max_tickets_per_user: 5,
          closes_at: new Date(Date.now() + 3 * 86400_000).toISOString(),
        },
      },
      adminCompetition,
    );
    expect(created).toMatchObject({ status: "draft", draw: null, entry_count: 0, revenue: 0 });
    const prizes = await callRpcWith(
      admin,
      "admin_set_instant_win_prizes",
      { p_competition_id: created.id, p_prizes: [{ kind: "spin", quantity: 2 }] },
      declared("prizes", "wins").with({ prizes: declared("kind", "title", "won") }),
    );
    expect(prizes).toMatchObject({ commitment: null, numbers: null, wins: [], prizes: [{ kind: "spin", won: 0 }] });
    expectTypeOf(prizes.prizes[0].kind).toEqualTypeOf<Database["public"]["Enums"]["instant_win_kind"]>();
    await callRpcWith(
      admin,
      "admin_set_instant_win_prizes",
      { p_competition_id: created.id, p_prizes: [] },
      declared("prizes"),
    );
    const updated = await callRpcWith(
      admin,
      "admin_update_competition",
      { p_id: created.id, p: { summary: "Boils fast" } },
      adminCompetition,
    );
    expect(updated.summary).toBe("Boils fast");
    const published = await callRpcWith(admin, "admin_publish_competition", { p_id: created.id }, adminCompetition);
    expect(published.status).toBe("live");
    const cancelled = await callRpcWith(
      admin,
      "admin_cancel_competition",
      { p_id: created.id, p_reason: "Kettle recalled" },
      declared("competition", "refunded_entries", "refunded_total").with({ competition: adminCompetition }),
    );
    expect(cancelled).toMatchObject({ refunded_entries: 0, refunded_total: 0, competition: { status: "cancelled" } });

    const drawn = listed.find((c) => c.draw !== null);
    const detail = await callRpcWith(
      admin,
      "admin_competition_detail",
      { p_id: drawn?.id ?? created.id },
      declared("competition", "stored_dates", "figures", "postal_entries").with({
        competition: adminCompetition,
        figures: declared("players", "revenue"),
        postal_entries: declared("entry_id", "ticket_numbers", "status"),
        fulfilment: declared("draw_id", "competition", "prize_status").with({ competition: declared("slug") }),
      }),
    );
    expect(detail.fulfilment?.competition.slug).toBe(detail.competition.slug);
    expect(typeof detail.figures.revenue).toBe("number");
    expect(Array.isArray(detail.postal_entries)).toBe(true);
    expectTypeOf(detail.stored_dates.draw_at).toEqualTypeOf<string | null>();

    const history = await callRpcWith(
      admin,
      "admin_competition_history",
      {},
      declared("rows", "totals").with({ rows: declared("id", "net", "finished_at"), totals: declared("net") }),
    );
    expect(history.rows.map((r) => r.id)).toContain(created.id);
    expect(typeof history.totals.net).toBe("number");
    const fulfilment = await callRpcWith(
      admin,
      "admin_list_prize_fulfilment",
      {},
      declared("draw_id", "route", "prize_cost").with({ story: declared("consent") }),
    );
    expect(fulfilment.length).toBeGreaterThan(0);
    for (const f of fulfilment) expect(["online", "postal"]).toContain(f.route);
  });

  it("read a postal entry: its ticket numbers and the instant wins they won (an array of the declared award)", async () => {
    const admin = await contract.admin();
    const created = await callRpcWith(
      admin,
      "admin_create_competition",
      {
        p: {
          title: "Contract postal",
          prize_description: "A toaster",
          prize_value: 30,
          ticket_price: 0.25,
          total_tickets: 4,
          max_tickets_per_user: 4,
          closes_at: new Date(Date.now() + 3 * 86400_000).toISOString(),
        },
      },
      declared("id"),
    );
    // Every number wins, so each postal ticket (numbered after the pool, matched within it) wins one.
    await callRpcWith(
      admin,
      "admin_set_instant_win_prizes",
      {
        p_competition_id: created.id,
        p_prizes: [
          { kind: "credit", credit_amount: 1.5, quantity: 2 },
          { kind: "physical", title: "A mug", quantity: 2 },
        ],
      },
      declared("prizes"),
    );
    await callRpcWith(admin, "admin_publish_competition", { p_id: created.id }, declared("id"));
    const entry = await callRpcWith(
      admin,
      "admin_record_postal_entry",
      {
        p_competition_id: created.id,
        p_user_id: null,
        p_name: "Contract Letter",
        p_address: "2 Mill Lane, Norwich NR2 4PT",
        p_answer: null,
      },
      declared("entry_id", "ticket_numbers", "tickets", "instant_wins").with({
        instant_wins: declared("ticket_number", "kind", "prize"),
      }),
    );
    expect(Array.isArray(entry)).toBe(false);
    expect(entry.ticket_numbers).toHaveLength(entry.tickets);
    expect(entry.ticket_numbers[0]).toBe(5);
    expect(entry.instant_wins.map((w) => w.ticket_number)).toEqual(entry.ticket_numbers);
    for (const w of entry.instant_wins) {
      expect(w.credit_amount).toBe(w.kind === "credit" ? 1.5 : null);
    }
    expectTypeOf(entry.instant_wins[0].kind).toEqualTypeOf<Database["public"]["Enums"]["instant_win_kind"]>();
    expectTypeOf(entry.instant_wins[0].credit_amount).toEqualTypeOf<number | null>();
    await callRpcWith(
      admin,
      "admin_cancel_competition",
      { p_id: created.id, p_reason: "Contract done" },
      declared("refunded_entries"),
    );
  });

  it("read the public entry list (competition, draw and rows nested), a ticket-list chunk and the draw cron's outcome (arrays)", async () => {
    const list = await callRpcWith(
      client(contract.server),
      "get_entry_list",
      { p_slug: "dji-mini-5-pro", p_limit: 3 },
      declared("competition", "rows", "has_after").with({
        competition: declared("slug", "closes_at"),
        draw: declared("ticket_list_hash"),
        rows: declared("number", "entrant", "route"),
      }),
    );
    expect(list.competition.slug).toBe("dji-mini-5-pro");
    expect(list.rows.length).toBeLessThanOrEqual(3);
    expect(list.competition.closes_at).toMatch(ISO_WITH_OFFSET);
    expectTypeOf(list.rows[0].town).toEqualTypeOf<string | null>();
    await expect(
      callRpcWith(client(contract.server), "get_entry_list", { p_slug: "no-such-competition" }, declared("rows")),
    ).rejects.toMatchObject({ code: "competition_not_found" });

    const chunk = await callRpcWith(
      client(contract.server),
      "get_ticket_list_csv",
      { p_slug: "dji-mini-5-pro", p_limit: 2 },
      declared("csv", "done"),
    );
    expect(chunk.csv.startsWith("ticket_number,ticket_id\n")).toBe(true);
    expect(typeof chunk.last_number).toBe("number");
    expectTypeOf(chunk.last_number).toEqualTypeOf<number | null>();

    const admin = await contract.admin();
    const ran = await callRpcWith(admin, "run_due_draws", {}, declared("drawn", "closed"));
    expect(Array.isArray(ran.drawn)).toBe(true);
    expect(Array.isArray(ran.closed)).toBe(true);
    expectTypeOf(ran.closed).toEqualTypeOf<string[]>();
  });

  it("read a player's top-up, notification and referral calls: nested refusals and arrays, enums and counts", async () => {
    const player = await contract.player();
    const options = await callRpcWith(player, "get_top_up_options", {}, topUpOptions);
    expect(options).toMatchObject({ quick_picks: [10, 25, 50, 100, 200], blocked: null });
    expect(options.bonus_tiers[0]).toEqual({ from: expect.any(Number), percent: expect.any(Number) });
    expectTypeOf(options.bonus_tiers).toEqualTypeOf<{ from: number; percent: number }[]>();
    const quote = await callRpcWith(player, "quote_top_up", { p_amount: 0 }, topUpQuote);
    expect(quote).toMatchObject({ amount: null, refusal: { code: "invalid_input" } });
    expectTypeOf(quote.refusal).toEqualTypeOf<{ code: string; message: string } | null>();
    expect((await callRpcWith(player, "quote_top_up", { p_amount: 10 }, topUpQuote)).refusal).toBeNull();

    const notifications = await callRpcWith(
      player,
      "get_my_notifications",
      { p_limit: 2 },
      declared("items", "unread").with({ items: declared("id", "kind", "created_at") }),
    );
    expect(notifications.items.length).toBeLessThanOrEqual(2);
    expect(typeof notifications.unread).toBe("number");
    const push = await callRpcWith(player, "get_my_push_settings", {}, declared("kinds", "endpoints"));
    expect(push).toEqual({ kinds: expect.any(Array), endpoints: expect.any(Array) });

    const mine = await callRpcWith(
      player,
      "get_my_referrals",
      {},
      declared("code", "friends").with({ friends: declared("id", "status") }),
    );
    expect(mine).toMatchObject({ code: expect.stringMatching(/^[A-Z0-9]+$/), invited: null });
    expect(typeof mine.credit).toBe("number");
    const admin = await contract.admin();
    const theirs = await callRpcWith(
      admin,
      "admin_get_user_referrals",
      { p_user: PLAYER_ID },
      declared("referred").with({ referred: declared("id", "user_id") }),
    );
    expect(theirs).toMatchObject({ code: mine.code, referred_by: null });
    expectTypeOf(theirs.referred_by).toEqualTypeOf<Database["public"]["CompositeTypes"]["admin_referral"] | null>();
    const none = await callRpcWith(
      admin,
      "admin_approve_users",
      { p_user_ids: ["00000000-0000-4000-8000-00000000abcd"] },
      declared("approved", "skipped"),
    );
    expect(none).toEqual({ approved: [], skipped: 1 });

    const secret = adminClient(contract.server);
    expect(await callRpcWith(secret, "settle_referrals", {}, declared("checked"))).toEqual({ checked: 0 });
    const flags = await callRpcWith(secret, "raise_player_flags", {}, declared("raised"));
    expectTypeOf(flags.raised).toEqualTypeOf<number>();
  });

  it("read the health checks and the System page: a table's own row type nested as the object its row was", async () => {
    const secret = adminClient(contract.server);
    const event = `evt_${crypto.randomUUID()}`;
    const { error } = await secret.rpc("record_webhook_delivery", {
      p_provider: "stripe",
      p_event_id: event,
      p_event_type: "checkout.session.completed",
      p_status: "failed",
      p_http_status: 500,
      p_error: "it went wrong",
    });
    expect(error).toBeNull();
    const ops = await callRpcWith(secret, "ops_check", {}, declared("cron", "mail").with({ cron: declared("state") }));
    expect(["ok", "failing"]).toContain(ops.mail);

    const { client: superAdmin } = await signInAtAal2(contract.server, "superadmin@labcash.test");
    const overview = await callRpcWith(
      superAdmin,
      "admin_system_overview",
      {},
      declared("can_act", "cron", "webhooks", "storage", "alerts").with({
        cron: declared("stale", "runs"),
        storage: declared("database_bytes"),
      }),
    );
    expect(overview.can_act).toBe(true);
    const delivery = overview.webhooks.find((w) => w.event_id === event);
    expect(delivery).toMatchObject({ provider: "stripe", status: "failed", http_status: 500, attempts: 1 });
    expect(Object.keys(delivery!).sort()).toEqual(
      [
        "id",
        "provider",
        "event_id",
        "event_type",
        "status",
        "http_status",
        "attempts",
        "last_error",
        "first_seen_at",
        "last_seen_at",
      ].sort(),
    );
    expect(delivery!.first_seen_at).toMatch(ISO_WITH_OFFSET);
    expectTypeOf(overview.webhooks).toEqualTypeOf<Database["public"]["Tables"]["webhook_deliveries"]["Row"][]>();
    expect(typeof overview.storage.database_bytes).toBe("number");
    const deep = await callRpcWith(superAdmin, "admin_deep_health", {}, declared("webhooks_waiting"));
    expect(deep.webhooks_waiting).toBeGreaterThan(0);
    const refusals = await callRpcWith(superAdmin, "admin_webhook_refusals", {}, declared("hour", "refusals"));
    expect(Array.isArray(refusals)).toBe(true);
  });

  it("fail when a nested field named as always filled is null, naming its path", async () => {
    const player = await contract.player();
    // A nested reader may name only fields of the type it reads; the type check refuses any other.
    expectTypeOf(declared("seed").with({ seed: declared("revealed_at") })).toExtend<RpcReader<"get_my_spinner">>();
    expectTypeOf(declared("seed").with({ seed: declared("no_such_field") })).not.toExtend<
      RpcReader<"get_my_spinner">
    >();
    await expect(
      callRpcWith(player, "get_my_spinner", {}, declared("seed").with({ seed: declared("revealed_at") })),
    ).rejects.toThrow("get_my_spinner answered without seed.revealed_at");
  });

  it("fail when a field named as always filled is null", async () => {
    const player = await contract.player();
    await expect(callRpcWith(player, "get_my_protections", {}, declared("break_until"))).rejects.toThrow(
      "get_my_protections answered without break_until",
    );
  });
});
