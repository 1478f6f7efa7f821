// What the competition calls answer through a competition's life (bought, a wrong answer, sold out, drawn, claimed,
// consented, verified, delivered, cancelled) and for players who cannot play (pending, rejected, on a break) or have
// nothing yet: the pages read these declared types field by field, so each step checks the fields they show.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, dbPerFile, eachPage, type Caller } from "./support";

const db = dbPerFile();

const NO_QUESTION = { skill_question: null, skill_options: null, skill_answer: null };
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

let admin: string;
beforeAll(async () => {
  admin = await db().createUser({ role: "super_admin", approved: true });
});

/** A call's answer, or its refusal's stable code. */
async function answer<T = unknown>(caller: Caller, fn: string, args: Record<string, unknown> = {}) {
  const res = await db().rpc<T>(caller, fn, args);
  return { data: res.error ? null : res.data, hint: res.error?.hint ?? null };
}

const quote = (userId: string, competitionId: string) =>
  db().call<Record<string, unknown>>(asUser(userId), "get_entry_quote", { p_competition_id: competitionId });

async function entriesAndPrizes(userId: string): Promise<{ entries: unknown[]; prizes: unknown[] }> {
  const entries = await db().call<unknown[]>(asUser(userId), "get_my_entries");
  const prizes = await db().call<Array<{ prize_status: string; competition: { title: string } }>>(
    asUser(userId),
    "get_my_prizes",
  );
  // The account dashboard's one read (get_my_dashboard) names the same prizes awaiting a claim, newest first.
  const dashboard = await db().call<{ unclaimed_prizes: string[] }>(asUser(userId), "get_my_dashboard");
  expect(dashboard.unclaimed_prizes).toEqual(
    prizes.filter((p) => p.prize_status === "awaiting_claim").map((p) => p.competition.title),
  );
  return { entries, prizes };
}

describe("the player's competition calls", () => {
  it("quote an entry: cap, sold out, a wrong answer, a break, pending and rejected", async () => {
    const buyer = await db().createPlayer({ credits: 20 });
    const asked = await db().createCompetition(admin, {
      ticket_price: 2.5,
      total_tickets: 40,
      max_tickets_per_user: 6,
    });
    const plain = await db().createCompetition(admin, { ticket_price: 0.99, total_tickets: 3, ...NO_QUESTION });

    expect(await quote(buyer, asked)).toMatchObject({ cap_left: 6, block: null, skill_retry_at: null });
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: asked, p_quantity: 2, p_answer: "4" });
    expect(await quote(buyer, asked)).toMatchObject({ held: 2, cap_left: 4, balance: 15 });
    // A wrong answer closes the question for a while: skill_retry_at is set.
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: asked, p_quantity: 1, p_answer: "5" });
    expect((await quote(buyer, asked)).skill_retry_at).not.toBeNull();

    expect(await quote(buyer, plain)).toMatchObject({ costs: [0.99, 1.98, 2.97], tickets_left: 3 });
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: plain, p_quantity: 3 });
    // Sold out: nothing left to price, so both arrays are empty.
    expect(await quote(buyer, plain)).toMatchObject({ tickets_left: 0, costs: [], shortfalls: [] });

    const resting = await db().createPlayer({ credits: 5 });
    await db().call(asUser(resting), "take_break", { p_period: "1 week" });
    expect((await quote(resting, asked)).block).toMatchObject({ code: "on_break" });

    const pending = await db().createUser();
    expect(await quote(pending, asked)).toMatchObject({ approved: false, rejected: false });
    const rejected = await db().createUser();
    await db().sql("update public.user_account_data set rejected_at = now() where id = $1", [rejected]);
    expect(await quote(rejected, asked)).toMatchObject({ approved: false, rejected: true });
  });

  it("list entries and prizes, from nothing through a prize delivered", async () => {
    const winner = await db().createPlayer({ credits: 30 });
    const other = await db().createPlayer({ credits: 30 });
    expect(await entriesAndPrizes(winner)).toEqual({ entries: [], prizes: [] });

    const live = await db().createCompetition(admin, { ticket_price: 1.25, cash_alternative: 80 });
    await db().call(asUser(winner), "enter_competition", { p_competition_id: live, p_quantity: 2, p_answer: "4" });
    await db().call(asUser(other), "enter_competition", { p_competition_id: live, p_quantity: 1, p_answer: "4" });
    const { drawId } = await db().wonBy(admin, winner, { cash_alternative: 90 });

    const drawn = await entriesAndPrizes(winner);
    expect(drawn.entries).toHaveLength(2);
    expect(drawn.prizes).toMatchObject([{ draw_id: drawId, prize_choice: null, story: null }]);
    expect((await entriesAndPrizes(other)).prizes).toEqual([]);

    await db().call(asUser(winner), "claim_prize", { p_draw_id: drawId, p_choice: "cash" });
    expect((await entriesAndPrizes(winner)).prizes).toMatchObject([{ prize_choice: "cash", prize_status: "claimed" }]);
    await db().call(asUser(winner), "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: true });
    await db().call(asUser(admin), "admin_update_prize_fulfilment", {
      p_draw_id: drawId,
      p_status: "verified",
      p_document_type: "passport",
      p_document_last_four: "1234",
    });
    expect((await entriesAndPrizes(winner)).prizes).toMatchObject([
      { prize_choice: "cash", prize_status: "verified", story: { consent: true, published: false } },
    ]);
    await db().call(asUser(admin), "admin_update_prize_fulfilment", {
      p_draw_id: drawId,
      p_status: "delivered",
      p_proof_of_delivery: "BACS 1234",
    });
    expect((await entriesAndPrizes(winner)).prizes).toMatchObject([{ proof_of_delivery: "BACS 1234" }]);

    // The first competition drawn as well: one of its two entrants won it, and only the winner's entry says so.
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
      [live],
    );
    await db().call(asUser(admin), "run_due_draws");
    const won = (id: string) =>
      entriesAndPrizes(id).then(({ entries }) =>
        (entries as { competition: { id: string }; draw: { won: boolean } | null }[])
          .filter((e) => e.competition.id === live)
          .map((e) => e.draw?.won),
      );
    expect([...(await won(winner)), ...(await won(other))].sort()).toEqual([false, true]);
  });
});

describe("the admin's instant wins to deliver", () => {
  it("lists nothing yet, prizes to deliver newest first, one delivered, a postal entrant's", async () => {
    expect(await db().call(asUser(admin), "admin_list_instant_win_fulfilment")).toEqual([]);
    const prizes = async (prizeList: unknown[], fields: Record<string, unknown>) => {
      const id = await db().createCompetition(admin, { ...NO_QUESTION, ...fields }, false);
      await db().call(asUser(admin), "admin_set_instant_win_prizes", { p_competition_id: id, p_prizes: prizeList });
      await db().call(asUser(admin), "admin_publish_competition", { p_id: id });
      return id;
    };
    // Every ticket wins: two prints bought in one purchase, and a postal letter without an account.
    const prints = await prizes([{ kind: "physical", title: "A signed print", quantity: 2 }], { total_tickets: 2 });
    const player = await db().createPlayer({ credits: 10 });
    await db().call(asUser(player), "enter_competition", { p_competition_id: prints, p_quantity: 2 });
    const letters = await prizes([{ kind: "credit", credit_amount: 3, quantity: 2 }], { total_tickets: 2 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: letters,
      p_user_id: null,
      p_name: "Omar Farouk",
      p_address: "1 High St, Leeds LS1 1AA",
      p_answer: null,
    });

    const listed = async () => {
      const now = await db().call<{ id: string; won_at: string; postal_name: string | null; status: string }[]>(
        asUser(admin),
        "admin_list_instant_win_fulfilment",
      );
      const times = now.map((w) => Date.parse(w.won_at));
      expect(times).toEqual(times.toSorted((a, b) => b - a));
      return now;
    };
    const first = await listed();
    expect(first.map((w) => w.postal_name).sort()).toEqual(["Omar Farouk", null, null]);
    await db().call(asUser(admin), "admin_mark_instant_win_delivered", { p_id: first[first.length - 1].id });
    expect((await listed()).filter((w) => w.status === "delivered")).toHaveLength(1);
  });
});

describe("get_my_ledger_page", () => {
  it("pages every filter to its end, and answers an empty filter with no rows", async () => {
    const player = await db().createPlayer({ credits: 40 });
    await db().call(asUser(admin), "admin_adjust_credit", {
      p_user_id: player,
      p_amount: -2.5,
      p_reason: "Correction",
    });
    const competition = await db().createCompetition(admin, { ticket_price: 1.2, ...NO_QUESTION });
    for (const quantity of [1, 3]) {
      await db().call(asUser(player), "enter_competition", { p_competition_id: competition, p_quantity: quantity });
    }
    const thisMonth = new Date().toISOString().slice(0, 8) + "01";
    const counted: Record<string, number> = {};
    for (const [kind, month] of [
      [null, null],
      ["entry", null],
      [null, thisMonth],
      ["top_up", "2020-01-01"],
    ] as const) {
      let rows = 0;
      await eachPage<number>(async (before) => {
        const now: { rows: unknown[]; next_before: number | null } = await db().call(
          asUser(player),
          "get_my_ledger_page",
          { p_kind: kind, p_month: month, p_before: before, p_limit: 2 },
        );
        rows += now.rows.length;
        return now.next_before;
      });
      counted[`${kind}/${month === thisMonth ? "this month" : month}`] = rows;
    }
    expect(counted).toMatchObject({ "entry/null": 2, "top_up/2020-01-01": 0 });
    expect(counted["null/null"]).toBeGreaterThan(counted["entry/null"]);
    const empty = await db().createPlayer();
    expect(await db().call(asUser(empty), "get_my_ledger_page")).toMatchObject({ next_before: null });
  });
});

describe("the public competition calls", () => {
  it("list, show and give the admin's competition through a competition's life", async () => {
    const player = await db().createPlayer({ credits: 40 });
    const everyCall = async () => {
      for (const status of [null, "live", "sold_out", "drawn", "cancelled"]) {
        const listed = await db().call<{ status: string }[]>(
          anon,
          "list_competitions",
          status ? { p_status: status } : {},
        );
        expect(listed.map((c) => c.status)).not.toContain("draft");
        if (status) expect(listed.every((c) => c.status === status)).toBe(true);
      }
      const competitions = await db().sql<{ id: string; slug: string; status: string }>(
        "select id, slug, status from public.competitions order by created_at",
      );
      for (const c of competitions) {
        // A draft is the admin's alone; every other competition is public.
        for (const [caller, isAdmin] of [
          [anon, false],
          [asUser(player), false],
          [asUser(admin), true],
        ] as const) {
          const shown = await answer<{ slug: string }>(caller, "get_competition", { p_slug: c.slug });
          if (c.status === "draft" && !isAdmin) expect(shown.data).toBeNull();
          else expect(shown.data?.slug).toBe(c.slug);
        }
      }
    };

    await db().createCompetition(admin, { title: "A draft", ticket_price: 2 }, false);
    const live = await db().createCompetition(admin, { ticket_price: 0.99, cash_alternative: 50 });
    const tiny = await db().createCompetition(admin, { ticket_price: 1, total_tickets: 3, ...NO_QUESTION });
    await db().call(asUser(player), "enter_competition", { p_competition_id: live, p_quantity: 7, p_answer: "4" });
    await db().call(asUser(player), "enter_competition", { p_competition_id: tiny, p_quantity: 3 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: live,
      p_user_id: null,
      p_name: "Lou Letter",
      p_address: "2 Low St, York YO1 1AA",
      p_answer: "4",
    });
    await everyCall();
    const soldOut = await db().call<{ id: string }[]>(anon, "list_competitions", { p_status: "sold_out" });
    expect(soldOut.map((c) => c.id)).toContain(tiny);

    const { drawId } = await db().wonBy(admin, player);
    await db().call(asUser(player), "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: true });
    await db().sql("update public.winner_stories set quote = 'Over the moon!' where draw_id = $1", [drawId]);
    const cancelled = await db().createCompetition(admin);
    await db().call(asUser(admin), "admin_cancel_competition", { p_id: cancelled, p_reason: "Supplier fell through" });
    await everyCall();
    const drawn = await db().call<{ draw: { story: unknown } | null }[]>(anon, "list_competitions", {
      p_status: "drawn",
    });
    expect(drawn[0]?.draw?.story).toMatchObject({ quote: "Over the moon!" });
  });
});

describe("the admin competition calls", () => {
  it("answer every admin competition call from a draft through sales, a draw and a cancellation", async () => {
    const player = await db().createPlayer({ credits: 60 });
    const adminGet = (id: string) => db().call(asUser(admin), "admin_get_competition", { p_id: id });
    const everyCall = async () => {
      const listed = await db().call<{ id: string }[]>(asUser(admin), "admin_list_competitions");
      for (const { id } of listed) {
        expect(await adminGet(id)).toMatchObject({ id });
        expect(await db().call(asUser(admin), "admin_competition_detail", { p_id: id })).toMatchObject({
          competition: { id },
        });
      }
      for (const status of [null, "awaiting_claim", "claimed", "verified", "delivered"]) {
        const prizes = await db().call<{ prize_status: string }[]>(
          asUser(admin),
          "admin_list_prize_fulfilment",
          status ? { p_status: status } : {},
        );
        if (status) expect(prizes.every((p) => p.prize_status === status)).toBe(true);
      }
      return listed;
    };

    // Refusals: not an admin, an unknown competition.
    expect((await answer(asUser(player), "admin_list_competitions")).hint).toBe("admin_required");
    expect((await answer(asUser(admin), "admin_get_competition", { p_id: UNKNOWN })).hint).toBe(
      "competition_not_found",
    );
    expect((await answer(asUser(admin), "admin_competition_detail", { p_id: UNKNOWN })).hint).toBe(
      "competition_not_found",
    );

    // What each change answers is the admin's view of the competition it leaves.
    const created = await db().call<{ id: string }>(asUser(admin), "admin_create_competition", {
      p: {
        title: "Declared draft",
        prize_description: "A bike",
        prize_value: 300,
        cash_alternative: 250,
        images: [],
        ticket_price: 1.5,
        total_tickets: 50,
        max_tickets_per_user: 10,
        closes_at: new Date(Date.now() + 5 * 86400_000).toISOString(),
        ...NO_QUESTION,
      },
    });
    expect(created).toMatchObject({ status: "draft", title: "Declared draft" });
    expect(created).toEqual(await adminGet(created.id));
    const updated = await db().call(asUser(admin), "admin_update_competition", {
      p_id: created.id,
      p: { summary: "Now with a summary" },
    });
    expect(updated).toMatchObject({ summary: "Now with a summary" });
    expect(updated).toEqual(await adminGet(created.id));
    const published = await db().call(asUser(admin), "admin_publish_competition", {
      p_id: created.id,
      p_external_randomness: { source: "drand", value_hex: "ab".repeat(32), round: 7 },
    });
    expect(published).toMatchObject({ status: "live", external_randomness: { round: 7 } });
    expect(published).toEqual(await adminGet(created.id));
    await db().createCompetition(admin, { title: "Still a draft" }, false);
    expect((await everyCall()).map((c) => c.id)).toContain(created.id);

    // Sales online and by post, then a draw with a claim and a published story.
    await db().call(asUser(player), "enter_competition", { p_competition_id: created.id, p_quantity: 3 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: created.id,
      p_user_id: player,
      p_name: "Pat Player",
      p_address: "3 Mid St, Hull HU1 1AA",
      p_answer: null,
    });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: created.id,
      p_user_id: null,
      p_name: "Lou Letter",
      p_address: "2 Low St, York YO1 1AA",
      p_answer: null,
    });
    const { drawId } = await db().wonBy(admin, player, { cash_alternative: 40 });
    await everyCall();
    await db().call(asUser(player), "claim_prize", { p_draw_id: drawId, p_choice: "cash" });
    await db().call(asUser(player), "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: true });
    await db().sql("update public.winner_stories set quote = 'Brilliant' where draw_id = $1", [drawId]);
    const moved = await db().call(asUser(admin), "admin_update_prize_fulfilment", {
      p_draw_id: drawId,
      p_status: "verified",
      p_note: "Passport seen",
      p_document_type: "passport",
      p_document_last_four: "1234",
    });
    expect(moved).toMatchObject({ prize_status: "verified", story: { consent: true, quote: "Brilliant" } });
    await everyCall();

    // A cancellation refunds the paid entry and voids the postal ones.
    const cancelled = await db().call<{ competition: { id: string } }>(asUser(admin), "admin_cancel_competition", {
      p_id: created.id,
      p_reason: "Supplier fell through",
    });
    expect(cancelled).toEqual({
      competition: await adminGet(created.id),
      refunded_entries: 1,
      refunded_total: 4.5,
    });
    expect(cancelled.competition).toMatchObject({ status: "cancelled" });
    const detail = await db().call(asUser(admin), "admin_competition_detail", { p_id: created.id });
    expect(detail).toMatchObject({ figures: { refunded_entries: 1, void_postal_entries: 2 }, fulfilment: null });
    expect((detail as { postal_entries: unknown[] }).postal_entries).toHaveLength(2);
    await everyCall();
  });
});

/** The finished competitions in admin_competition_history, whose totals count them; a player is refused. */
async function history() {
  const player = await db().createPlayer();
  expect((await answer(asUser(player), "admin_competition_history")).hint).toBe("admin_required");
  const { rows, totals } = await db().call<{ rows: unknown[]; totals: { competitions: number } }>(
    asUser(admin),
    "admin_competition_history",
  );
  expect(totals.competitions).toBe(rows.length);
  return rows;
}

describe("the finished competitions, the draw cron, prize moves and the entry list", () => {
  it("a draw and a close by the cron, the history, a prize moved, a delivery, every entry-list page", async () => {
    const [buyer, shy] = [await db().createPlayer({ credits: 30 }), await db().createPlayer({ credits: 30 })];
    await db().call(asUser(shy), "set_initials_only", { p_initials_only: true });
    const sold = await db().createCompetition(admin, { ticket_price: 2, ...NO_QUESTION });
    const empty = await db().createCompetition(admin, NO_QUESTION);
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: sold, p_quantity: 3 });
    await db().call(asUser(shy), "enter_competition", { p_competition_id: sold, p_quantity: 2 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: sold,
      p_user_id: null,
      p_name: "Lou Letter",
      p_address: "2 Low St, York YO1 1AA",
      p_answer: null,
    });
    const { drawId } = await db().wonBy(admin, buyer, NO_QUESTION);
    const drawnBefore = (await history()).length;
    expect(drawnBefore).toBeGreaterThan(0);

    // The cron draws one and closes the other, then finds nothing more to do.
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = any($1)`,
      [[sold, empty]],
    );
    const ran = await db().call(asUser(admin), "run_due_draws");
    const drawOf = await db().sql<{ id: string }>("select id from public.draws where competition_id = $1", [sold]);
    expect(ran).toEqual({ drawn: [{ competition_id: sold, draw_id: drawOf[0].id }], closed: [empty] });
    expect(await db().call(asUser(admin), "run_due_draws")).toEqual({ drawn: [], closed: [] });

    // A prize moved and an instant win delivered answer the rows they changed.
    const moved = await db().call(asUser(admin), "admin_update_prize_status", {
      p_draw_id: drawId,
      p_status: "claimed",
    });
    const [movedRow] = await db().sql<{ prize_status_updated_at: string }>(
      "select to_json(prize_status_updated_at) #>> '{}' as prize_status_updated_at from public.draws where id = $1",
      [drawId],
    );
    expect(moved).toEqual({ draw_id: drawId, prize_status: "claimed", ...movedRow });
    // Instant wins may be at most half the live competitions: one more live first.
    await db().createCompetition(admin, NO_QUESTION);
    const mugs = await db().createCompetition(admin, { total_tickets: 1, ...NO_QUESTION }, false);
    await db().call(asUser(admin), "admin_set_instant_win_prizes", {
      p_competition_id: mugs,
      p_prizes: [{ kind: "physical", title: "A mug", quantity: 1 }],
    });
    await db().call(asUser(admin), "admin_publish_competition", { p_id: mugs });
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: mugs, p_quantity: 1 });
    const [{ id: winId }] = await db().sql<{ id: string }>(
      "select id from public.instant_wins where competition_id = $1",
      [mugs],
    );
    const delivered = await db().call(asUser(admin), "admin_mark_instant_win_delivered", { p_id: winId });
    expect(delivered).toMatchObject({ id: winId, status: "delivered", delivered_at: expect.any(String) });
    expect((await history()).length).toBeGreaterThan(drawnBefore);

    // Every competition's entry list as anon, paged forwards two at a time, the page before the last number, one
    // ticket; a draft, one still selling, a cancelled one and an unknown slug are refused.
    const competitions = await db().sql<{ slug: string; status: string }>(
      "select slug, status from public.competitions order by created_at",
    );
    for (const { slug, status } of [...competitions, { slug: "no-such-competition", status: "unknown" }]) {
      const list = (args: Record<string, unknown>) =>
        answer<{ rows: { number: number }[] }>(anon, "get_entry_list", { p_slug: slug, ...args });
      let last: number | null = null;
      let listed = 0;
      await eachPage<number>(async (after) => {
        const page = (await list({ p_after: after, p_limit: 2 })).data;
        last = page?.rows.at(-1)?.number ?? last;
        listed += page?.rows.length ?? 0;
        return page?.rows.length === 2 ? page.rows[1].number : null;
      }, 600);
      if (status === "unknown" || status === "draft") expect(listed).toBe(0);
      if (last !== null) {
        expect((await list({ p_before: last, p_limit: 3 })).data?.rows.every((r) => r.number < last!)).toBe(true);
        expect((await list({ p_ticket: last })).data?.rows.map((r) => r.number)).toContain(last);
      }
    }
    const list = await db().call<{ rows: { entrant: string; town: string | null; route: string }[] }>(
      anon,
      "get_entry_list",
      {
        p_slug: (await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [sold]))[0]
          .slug,
      },
    );
    expect(list.rows.map((r) => r.route)).toEqual(["online", "online", "online", "online", "online", "postal"]);
  });
});

describe("instant wins, their kind an enum", () => {
  it("set on a draft, hidden from others, published, won, and revealed by the draw", async () => {
    const player = await db().createPlayer({ credits: 50 });
    const wins = await db().createCompetition(admin, { total_tickets: 10, ticket_price: 1, ...NO_QUESTION }, false);
    const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [wins]);
    const seenBy = async () => {
      const seen: unknown[] = [];
      for (const caller of [anon, asUser(player), asUser(admin)]) {
        seen.push((await answer(caller, "get_instant_wins", { p_slug: slug })).data);
        expect((await answer(caller, "get_instant_wins", { p_slug: "no-such-competition" })).data).toBeNull();
      }
      return seen;
    };
    const set = await db().call(asUser(admin), "admin_set_instant_win_prizes", {
      p_competition_id: wins,
      p_prizes: [
        { kind: "credit", credit_amount: 2.5, quantity: 2 },
        { kind: "spin", quantity: 1 },
        { kind: "physical", title: "A mug", quantity: 7 },
      ],
    });
    expect(set).toMatchObject({
      prizes: [{ kind: "credit", title: "£2.50 credit" }, { kind: "spin" }, { kind: "physical" }],
    });
    // A kind outside the set is the function's own refusal, never the enum's 22P02.
    const refused = await db().rpc(asUser(admin), "admin_set_instant_win_prizes", {
      p_competition_id: wins,
      p_prizes: [{ kind: "voucher", quantity: 1 }],
    });
    expect(refused.error).toMatchObject({ code: "22023", hint: "invalid_input" });
    // On a draft only the admin sees them.
    const onDraft = await seenBy();
    expect(onDraft.slice(0, 2)).toEqual([null, null]);
    expect(onDraft[2]).not.toBeNull();

    await db().createCompetition(admin, NO_QUESTION);
    await db().call(asUser(admin), "admin_publish_competition", { p_id: wins });
    expect(await seenBy()).not.toContain(null);
    await db().call(asUser(player), "enter_competition", { p_competition_id: wins, p_quantity: 10 });
    await seenBy();
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
      [wins],
    );
    await db().call(asUser(admin), "run_due_draws");
    const revealed = await db().call<{ seed_hex: string | null; numbers: unknown[] | null }>(anon, "get_instant_wins", {
      p_slug: slug,
    });
    expect(revealed.seed_hex).not.toBeNull();
    expect(revealed.numbers).toHaveLength(10);
  });
});

describe("the CSV chunks, a prize claim and the winner-story calls", () => {
  it("every chunk of the three CSVs, a claim and its change, consent and a story", async () => {
    const [winner, other] = [await db().createPlayer({ credits: 20 }), await db().createPlayer({ credits: 20 })];
    const { drawId } = await db().wonBy(admin, winner, { cash_alternative: 60, ...NO_QUESTION });
    // The CSVs over several buyers and a letter, once online sales have ended.
    const competitionId = await db().createCompetition(admin, NO_QUESTION);
    await db().call(asUser(winner), "enter_competition", { p_competition_id: competitionId, p_quantity: 3 });
    await db().call(asUser(other), "enter_competition", { p_competition_id: competitionId, p_quantity: 2 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: competitionId,
      p_user_id: null,
      p_name: "Lou Letter, Esq.",
      p_address: "2 Low St, York YO1 1AA",
      p_answer: null,
    });
    const [{ slug }] = await db().sql<{ slug: string }>(
      "update public.competitions set opens_at = now() - interval '1 day', closes_at = now() - interval '1 second' where id = $1 returning slug",
      [competitionId],
    );
    const draft = await db().createCompetition(admin, NO_QUESTION, false);

    // Every chunk, two lines at a time; the refusals' codes (unknown, a draft, not an admin).
    const chunks = async (caller: Caller, fn: string, key: string) => {
      let text = "";
      let hint: string | null = null;
      await eachPage<number>(async (after) => {
        const chunk = await answer<{ csv: string; last_number: number | null; done: boolean }>(caller, fn, {
          [fn === "admin_competition_entries_csv" ? "p_id" : "p_slug"]: key,
          p_after: after ?? 0,
          p_limit: 2,
        });
        hint = chunk.hint;
        text += chunk.data?.csv ?? "";
        return chunk.data && !chunk.data.done ? chunk.data.last_number : null;
      });
      return { text, hint };
    };
    const tickets = await chunks(anon, "get_ticket_list_csv", slug);
    expect(tickets.text.trim().split("\n")).toHaveLength(1 + 6);
    expect(tickets.text).toMatch(/^ticket_number,ticket_id\n/);
    const entrants = await chunks(anon, "get_entrants_csv", slug);
    // The public lists never name a postal entrant.
    expect(entrants.text).not.toContain("Lou Letter");
    expect(entrants.text).toContain("Postal entry,,postal");
    for (const fn of ["get_ticket_list_csv", "get_entrants_csv"]) {
      expect((await chunks(anon, fn, "no-such-competition")).hint).toBe("competition_not_found");
    }
    expect((await chunks(asUser(admin), "admin_competition_entries_csv", competitionId)).text).toContain("Lou Letter");
    // A draft has no entries yet: the header alone.
    const none = await chunks(asUser(admin), "admin_competition_entries_csv", draft);
    expect(none).toMatchObject({ hint: null, text: expect.stringMatching(/^entry_id,[^\n]*\n$/) });
    expect((await chunks(asUser(admin), "admin_competition_entries_csv", UNKNOWN)).hint).toBe("competition_not_found");
    expect((await chunks(asUser(winner), "admin_competition_entries_csv", competitionId)).hint).toBe("admin_required");

    // A claim answers the draw it leaves; a changed claim too.
    const claimedAs = async (choice: string, address: string | null) => {
      const now = await db().call(asUser(winner), "claim_prize", {
        p_draw_id: drawId,
        p_choice: choice,
        p_delivery_address: address,
      });
      expect(now).toMatchObject({
        draw_id: drawId,
        prize_choice: choice,
        prize_status: "claimed",
        delivery_address: address,
        claimed_at: expect.any(String),
      });
    };
    await claimedAs("cash", null);
    await claimedAs("prize", "4 Elm Row, Bath BA1 1AA");

    // Consent and the story: each change answers the photo it replaced (to delete from the bucket).
    const story = (userId: string, fn: string, args: Record<string, unknown>) =>
      db().call<Record<string, unknown>>(asUser(userId), fn, args);
    const setStory = (photo: string, alt: string, quote: string) =>
      story(admin, "admin_set_winner_story", {
        p_draw_id: drawId,
        p_photo_path: photo,
        p_photo_alt: alt,
        p_quote: quote,
      });
    const stored = async () =>
      (
        await db().sql<{ photo_path: string | null; quote: string | null; consent: boolean }>(
          "select photo_path, quote, consent from public.winner_stories where draw_id = $1",
          [drawId],
        )
      )[0];
    expect(await story(winner, "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: true })).toEqual({
      draw_id: drawId,
      consent: true,
    });
    const first = "/media/winner-photos/0b0e7c36-3b44-4d0c-9a57-8b1f3f0f6f1a.jpg";
    expect(await setStory(first, "The winner", "Lovely")).toEqual({ draw_id: drawId, previous_photo: null });
    expect(await stored()).toMatchObject({ photo_path: first, quote: "Lovely" });
    expect(await setStory("", "", "Still lovely")).toEqual({ draw_id: drawId, previous_photo: first });
    expect(await stored()).toMatchObject({ photo_path: null, quote: "Still lovely" });
    const photo = "/media/winner-photos/5d1c2a8e-7f3b-4c6d-8e9f-0a1b2c3d4e5f.png";
    expect(await setStory(photo, "Again", "")).toEqual({ draw_id: drawId, previous_photo: null });
    expect(await stored()).toMatchObject({ photo_path: photo, quote: null });
    // Removing answers the photo it took down.
    expect(await story(admin, "admin_remove_winner_story", { p_draw_id: drawId })).toEqual({
      draw_id: drawId,
      previous_photo: photo,
    });
    expect(await stored()).toMatchObject({ photo_path: null, quote: null });
    expect(
      await story(admin, "admin_record_winner_story_consent", {
        p_draw_id: drawId,
        p_consent: false,
        p_note: "By phone",
      }),
    ).toEqual({ draw_id: drawId, consent: false });
    expect((await stored()).consent).toBe(false);
  });
});

describe("a postal entry", () => {
  it("linked or not, several tickets, instant wins won, and the refusals", async () => {
    const player = await db().createPlayer();
    // Every one of the ten numbers wins (two credits, a spin, seven mugs), so a postal ticket (numbered after the
    // pool, and matched to a number within it) wins too; at 25p a ticket, one stamp buys several.
    const wins = await db().createCompetition(
      admin,
      { total_tickets: 10, ticket_price: 0.25, max_tickets_per_user: 6, ...NO_QUESTION },
      false,
    );
    await db().call(asUser(admin), "admin_set_instant_win_prizes", {
      p_competition_id: wins,
      p_prizes: [
        { kind: "credit", credit_amount: 2.5, quantity: 2 },
        { kind: "spin", quantity: 1 },
        { kind: "physical", title: "A mug", quantity: 7 },
      ],
    });
    // Published after one without (at most half the live competitions may have instant wins).
    const plain = await db().createCompetition(admin);
    await db().call(asUser(admin), "admin_publish_competition", { p_id: wins });

    type Recorded = {
      entry_id: string;
      tickets: number;
      ticket_numbers: number[];
      instant_wins: Array<{ kind: string }>;
    };
    const postal = (
      caller: string,
      competitionId: string,
      userId: string | null,
      name: string,
      answer: string | null,
    ) =>
      db().rpc<Recorded>(asUser(caller), "admin_record_postal_entry", {
        p_competition_id: competitionId,
        p_user_id: userId,
        p_name: name,
        p_address: "14 Orchard Road, Harrogate HG1 2AB",
        p_answer: answer,
      });
    const recorded = async (competitionId: string, userId: string | null, name: string, answer: string | null) => {
      const { data: entry, error } = await postal(admin, competitionId, userId, name, answer);
      expect(error).toBeNull();
      expect(entry!.ticket_numbers).toHaveLength(entry!.tickets);
      const [made] = await db().sql<{ kind: string; quantity: number }>(
        "select kind::text, quantity from public.entries where id = $1",
        [entry!.entry_id],
      );
      expect(made).toEqual({ kind: "postal", quantity: entry!.tickets });
      return entry!;
    };
    const refused = async (caller: string, competitionId: string, name: string, answer: string | null) =>
      (await postal(caller, competitionId, null, name, answer)).error?.hint;

    const unlinked = await recorded(wins, null, "Margaret Holt", null);
    expect(unlinked.tickets).toBeGreaterThan(1);
    expect(unlinked.instant_wins).toHaveLength(unlinked.tickets);
    // A linked account's wins are paid (credit, a spin) as the purchase path pays them.
    const linked = await recorded(wins, player, "Pat Player", null);
    expect(linked.instant_wins.length).toBeGreaterThan(0);
    // The same name and postcode again: what is left under the cap, then the cap itself.
    await recorded(wins, null, "margaret holt", null);
    expect(await refused(admin, wins, "Margaret Holt", null)).toBe("cap_reached");
    // No instant wins: an empty list; a wrong answer refused.
    expect((await recorded(plain, null, "Ruth Ellis", "4")).instant_wins).toEqual([]);
    expect(await refused(admin, plain, "Daniel Okafor", "5")).toBe("answer_incorrect");
    expect(await refused(player, plain, "Daniel Okafor", "4")).toBe("admin_required");
    expect(await refused(admin, UNKNOWN, "Daniel Okafor", "4")).toBe("competition_not_found");
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() + interval '1 hour' where id = $1`,
      [plain],
    );
    expect(await refused(admin, plain, "Fiona Grant", "4")).toBe("postal_deadline_passed");
  });
});
