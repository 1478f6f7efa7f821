import { beforeAll, describe, expect, it } from "vitest";
import { deliverQueuedMail, type RpcClient } from "@/lib/mail/adapter";
import { anon, asUser, attempt, dbPerFile, service } from "./support";

const db = dbPerFile();
let admin: string;

beforeAll(async () => {
  admin = await db().createAdmin();
});

type Entered = { entry_id: string; ticket_numbers: number[]; balance: number };
type Competition = Record<string, unknown> & { id: string; slug: string; status: string; tickets_sold: number };

const enter = (uid: string, id: string, quantity: number, answer: string | null = "4") =>
  db().call<Entered>(asUser(uid), "enter_competition", {
    p_competition_id: id,
    p_quantity: quantity,
    p_answer: answer,
  });

async function competitionRow(id: string) {
  return (
    await db().sql<{ status: string; tickets_sold: number; slug: string }>(
      "select * from public.competitions where id = $1",
      [id],
    )
  )[0];
}

/** Online sales end now; the postal deadline and the draw stay ahead. */
async function closeNow(id: string) {
  await db().sql(
    "update public.competitions set opens_at = now() - interval '2 days', closes_at = now() - interval '1 second' where id = $1",
    [id],
  );
}

/** As if the postal deadline and the draw time had passed too. */
async function drawTimeNow(id: string) {
  await db().sql(
    `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
            postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
    [id],
  );
}

describe("entering a competition", () => {
  it("allocates numbers in purchase order, moves credit through the ledger and keeps the totals", async () => {
    const id = await db().createCompetition(admin, { ticket_price: "0.25", total_tickets: 50 });
    const a = await db().createPlayer({ credits: "10.00" });
    const b = await db().createPlayer({ credits: "10.00" });

    const first = await enter(a, id, 3);
    const second = await enter(b, id, 2);
    const third = await enter(a, id, 1, " 4 ");
    expect(first.ticket_numbers).toEqual([1, 2, 3]);
    expect(second.ticket_numbers).toEqual([4, 5]);
    expect(third.ticket_numbers).toEqual([6]);
    expect(Number(first.balance)).toBe(9.25);
    expect(Number(third.balance)).toBe(9);

    const acct = (
      await db().sql<{ credits: string; total_spent: string; total_entries: number }>(
        "select credits, total_spent, total_entries from public.user_account_data where id = $1",
        [a],
      )
    )[0];
    expect(acct).toEqual({ credits: "9.00", total_spent: "1.00", total_entries: 4 });
    const ledger = await db().sql<{ kind: string; amount: string; reference: string }>(
      "select kind, amount, reference from public.credit_ledger where user_id = $1 and kind = 'entry' order by id",
      [a],
    );
    expect(ledger).toEqual([
      { kind: "entry", amount: "-0.75", reference: `entry:${first.entry_id}` },
      { kind: "entry", amount: "-0.25", reference: `entry:${third.entry_id}` },
    ]);
    expect((await competitionRow(id)).tickets_sold).toBe(6);

    const mail = await db().sql<{ kind: string; body_text: string }>(
      "select kind, body_text from public.mail_outbox where to_user = $1 order by id",
      [a],
    );
    expect(mail.map((m) => m.kind)).toEqual(["entry_receipt", "entry_receipt"]);
    expect(mail[0].body_text).toContain("#1, #2, #3");

    const mine = await db().call<Array<{ ticket_numbers: number[]; competition: { id: string } }>>(
      asUser(a),
      "get_my_entries",
    );
    expect(mine.map((e) => e.ticket_numbers)).toEqual([[6], [1, 2, 3]]);
    const page = await db().call<Competition & { my_tickets: number[] }>(asUser(a), "get_competition", {
      p_slug: (await competitionRow(id)).slug,
    });
    expect(page.my_tickets).toEqual([1, 2, 3, 6]);
    expect(await db().ledgerMismatches()).toEqual([]);
  });

  it("writes the buyer's account row once per purchase: the debit and the totals in one update", async () => {
    const id = await db().createCompetition(admin, { ticket_price: "0.50", total_tickets: 10 });
    const buyer = await db().createPlayer({ credits: "5.00" });
    // The session's table statistics just before and just after the purchase, in one statement: each materialized
    // CTE runs before the one that reads it, so the difference is the purchase's own writes.
    const res = await db().as<{ updated: number; inserted: number }>(
      asUser(buyer),
      `with b as materialized (select pg_stat_get_xact_tuples_updated('public.user_account_data'::regclass) as updated,
                                      pg_stat_get_xact_tuples_inserted('public.credit_ledger'::regclass) as inserted),
            e as materialized (select public.enter_competition($1, 2, '4') as entered, b.* from b)
       select (select pg_stat_get_xact_tuples_updated('public.user_account_data'::regclass) - e.updated from e)::int as updated,
              (select pg_stat_get_xact_tuples_inserted('public.credit_ledger'::regclass) - e.inserted from e)::int as inserted`,
      [id],
    );
    expect(res.error).toBeNull();
    expect(res.rows).toEqual([{ updated: 1, inserted: 1 }]);
    const acct = await db().sql<{ credits: string; total_spent: string; total_entries: number }>(
      "select credits, total_spent, total_entries from public.user_account_data where id = $1",
      [buyer],
    );
    expect(acct).toEqual([{ credits: "4.00", total_spent: "1.00", total_entries: 2 }]);
  });

  it("refuses with a clear message for each reason", async () => {
    const id = await db().createCompetition(admin, {
      ticket_price: "2.50",
      total_tickets: 10,
      max_tickets_per_user: 4,
    });
    const rich = await db().createPlayer({ credits: "100.00" });
    const poor = await db().createPlayer({ credits: "3.00" });
    const pending = await db().createUser({ credits: "50.00" });
    const draft = await db().createCompetition(admin, {}, false);
    const later = await db().createCompetition(admin, {
      opens_at: "2099-05-01T09:00:00Z",
      closes_at: "2099-06-01T09:00:00Z",
    });

    const refusal = async (p: Promise<unknown>) => {
      const r = await attempt(p);
      expect(r.ok).toBe(false);
      return r.ok ? "" : r.message;
    };
    expect(await refusal(db().call(anon, "enter_competition", { p_competition_id: id, p_quantity: 1 }))).toMatch(
      /permission denied/,
    );
    expect(await refusal(enter(pending, id, 1))).toBe("Your account is awaiting approval");
    expect(await refusal(enter(rich, draft, 1))).toBe("Competition not found");
    expect(await refusal(enter(rich, later, 1))).toBe("Entries open on 1 May 2099 at 10:00");
    expect(await refusal(enter(rich, id, 1, null))).toBe("Answer the question to enter");
    // A wrong answer is returned, not raised (the miss it records must commit): tests/db/skill-answer-cooldown.test.ts.
    const guesser = await db().createPlayer({ credits: "100.00" });
    expect(await enter(guesser, id, 1, "5")).toMatchObject({ refused: { code: "answer_incorrect" } });
    expect(await refusal(enter(rich, id, 0))).toBe("Choose at least one ticket");
    expect(await refusal(enter(rich, id, 5))).toBe("You can buy at most 4 more tickets for this competition");
    expect(await refusal(enter(poor, id, 2))).toBe("Not enough credit: you need £2.00 more");
    await enter(rich, id, 4);
    expect(await refusal(enter(rich, id, 1))).toBe("You already have the maximum of 4 tickets for this competition");
    const other = await db().createPlayer({ credits: "100.00" });
    await enter(other, id, 4);
    expect(await refusal(enter(poor, id, 3))).toBe("Only 2 tickets left");
    // Nothing was taken from anyone who was refused.
    expect(
      (await db().sql<{ credits: string }>("select credits from public.user_account_data where id = $1", [poor]))[0]
        .credits,
    ).toBe("3.00");
    expect(await db().ledgerMismatches()).toEqual([]);
  });

  it("never shows the correct answer or the seed to the page", async () => {
    const id = await db().createCompetition(admin, {
      skill_question: "Which planet is red?",
      skill_options: ["Venus", "Mars"],
      skill_answer: "Mars",
    });
    const slug = (await competitionRow(id)).slug;
    for (const caller of [anon, asUser(await db().createPlayer())]) {
      const page = await db().call<Competition>(caller, "get_competition", { p_slug: slug });
      expect(page.skill_options).toEqual(["Venus", "Mars"]);
      expect(JSON.stringify(page)).not.toMatch(/skill_answer/);
      expect(page.seed_commitment).toMatch(/^[0-9a-f]{64}$/);
      const list = await db().call<Competition[]>(caller, "list_competitions");
      expect(JSON.stringify(list)).not.toMatch(/skill_answer/);
    }
    const seedHex = (
      await db().sql<{ h: string }>(
        "select encode(seed, 'hex') h from public.competition_seeds where competition_id = $1",
        [id],
      )
    )[0].h;
    expect(JSON.stringify(await db().call(asUser(admin), "admin_get_competition", { p_id: id }))).not.toContain(
      seedHex,
    );
    for (const [caller, sql] of [
      ["anon", "select skill_answer from public.competitions"],
      ["authenticated", "select skill_answer from public.competitions"],
      ["anon", "select * from public.competition_seeds"],
      ["authenticated", "select * from public.competition_seeds"],
      ["service_role", "select * from public.competition_seeds"],
    ] as const) {
      const { error } = await db().as({ role: caller }, sql);
      expect(error, `${caller}: ${sql}`).not.toBeNull();
    }
    const drafts = await db().call<Competition[]>(anon, "list_competitions");
    expect(drafts.every((c) => c.status !== "draft")).toBe(true);
  });

  it("guards admin, draw and mail functions", async () => {
    const player = await db().createPlayer();
    const id = await db().createCompetition(admin);
    for (const [fn, args] of [
      ["admin_create_competition", { p: {} }],
      ["admin_publish_competition", { p_id: id }],
      ["admin_cancel_competition", { p_id: id, p_reason: "nope" }],
      ["admin_list_competitions", {}],
      ["run_due_draws", {}],
    ] as const) {
      const r = await attempt(db().call(asUser(player), fn, args));
      expect(r.ok ? "" : r.message, fn).toBe("Access denied: Admin privileges required");
    }
    const mail = await attempt(db().call(asUser(player), "claim_mail_batch"));
    expect(mail.ok ? "" : mail.message).toBe("permission denied for function claim_mail_batch");
    // The draw itself is internal: the API cannot name it, and its schema is closed to callers.
    const viaApi = await attempt(db().call(asUser(player), "draw_competition", { p_id: id }));
    expect(viaApi.ok ? "" : viaApi.message).toMatch(/^function public\.draw_competition\(.*\) does not exist$/);
    const direct = await db().as(asUser(player), "select private.draw_competition($1)", [id]);
    expect(direct.error?.message).toBe("permission denied for schema private");
  });
});

describe("concurrency", () => {
  it("300 simultaneous buyers for the last 100 tickets: exactly 100 sold, numbered 1…100, balances equal ledgers", async () => {
    const id = await db().createCompetition(admin, {
      ticket_price: "1.50",
      total_tickets: 100,
      max_tickets_per_user: 3,
      skill_question: null,
    });
    const buyers: string[] = [];
    for (let i = 0; i < 300; i++) buyers.push(await db().createPlayer({ credits: i % 7 === 0 ? "2.00" : "5.00" }));

    const results = await Promise.all(buyers.map((b, i) => attempt(enter(b, id, 1 + (i % 3), null))));
    const sold = results.flatMap((r) => (r.ok ? r.value.ticket_numbers : []));
    expect(sold.length).toBe(100);
    expect([...sold].sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const refusals = new Set(
      results.flatMap((r) => (r.ok ? [] : [r.message.replace(/\d+/g, "N").replace(/£N\.N/, "£X")])),
    );
    for (const m of refusals) {
      expect(["This competition has sold out", "Only N tickets left", "Not enough credit: you need £X more"]).toContain(
        m,
      );
    }

    const tickets = (
      await db().sql<{ n: number; distinct_numbers: number; max: number }>(
        "select count(*)::int n, count(distinct number)::int distinct_numbers, max(number) max from public.tickets where competition_id = $1",
        [id],
      )
    )[0];
    expect(tickets).toEqual({ n: 100, distinct_numbers: 100, max: 100 });
    // The sell-out ends online sales; the draw waits for its time.
    expect(await competitionRow(id)).toMatchObject({ status: "sold_out", tickets_sold: 100 });
    expect(await db().sql("select 1 from public.draws where competition_id = $1", [id])).toEqual([]);
    expect(await db().ledgerMismatches()).toEqual([]);
    expect(await db().sql("select 1 from public.user_account_data where credits < 0")).toEqual([]);
    // Money taken equals tickets sold times the price.
    const spent = (
      await db().sql<{ s: string }>(
        "select -sum(l.amount) s from public.credit_ledger l where l.reference in (select 'entry:' || e.id from public.entries e where e.competition_id = $1)",
        [id],
      )
    )[0].s;
    expect(spent).toBe("150.00");
    const totals = (
      await db().sql<{ e: number; s: string }>(
        "select sum(total_entries)::int e, sum(total_spent) s from public.user_account_data where id = any($1)",
        [buyers],
      )
    )[0];
    expect(totals).toEqual({ e: 100, s: "150.00" });
  }, 180_000);

  it("the per-user cap holds under simultaneous purchases", async () => {
    const id = await db().createCompetition(admin, { total_tickets: 100, max_tickets_per_user: 5 });
    const greedy = await db().createPlayer({ credits: "100.00" });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(enter(greedy, id, 1 + (i % 2)))));
    const mine = results.flatMap((r) => (r.ok ? r.value.ticket_numbers : []));
    expect(mine.length).toBe(5);
    const held = (
      await db().sql<{ n: number }>(
        "select count(*)::int n from public.tickets where competition_id = $1 and user_id = $2",
        [id, greedy],
      )
    )[0].n;
    expect(held).toBe(5);
    for (const r of results) {
      if (!r.ok)
        expect(r.message).toMatch(
          /^(You can buy at most 1 more tickets|You already have the maximum of 5 tickets) for this competition$/,
        );
    }
    expect(
      (await db().sql<{ credits: string }>("select credits from public.user_account_data where id = $1", [greedy]))[0]
        .credits,
    ).toBe("95.00");
  });

  it("draws once when cron runs race each other; a sell-out racing cron runs draws nothing before the draw time", async () => {
    const id = await db().createCompetition(admin, { total_tickets: 10 });
    const p = await db().createPlayer({ credits: "20.00" });
    await enter(p, id, 3);
    await drawTimeNow(id);
    const runs = await Promise.all([
      ...Array.from({ length: 4 }, () =>
        db().call<{ drawn: Array<{ competition_id: string }> }>(service, "run_due_draws"),
      ),
      db().call<{ drawn: Array<{ competition_id: string }> }>(asUser(admin), "run_due_draws"),
    ]);
    const drawnHere = runs.flatMap((r) => r.drawn.filter((d) => d.competition_id === id));
    expect(drawnHere.length).toBe(1);
    expect((await db().sql("select 1 from public.draws where competition_id = $1", [id])).length).toBe(1);

    // A sell-out purchase racing cron runs: online sales end, nothing is drawn yet.
    const soon = await db().createCompetition(admin, { total_tickets: 4 });
    await enter(p, soon, 3);
    const raced = await Promise.all([
      attempt(enter(p, soon, 1)),
      db().call<{ drawn: Array<{ competition_id: string }> }>(service, "run_due_draws"),
      db().call<{ drawn: Array<{ competition_id: string }> }>(service, "run_due_draws"),
    ]);
    expect(raced[0].ok).toBe(true);
    expect((await competitionRow(soon)).status).toBe("sold_out");
    expect(await db().sql("select 1 from public.draws where competition_id = $1", [soon])).toEqual([]);
    await drawTimeNow(soon);
    await db().call(service, "run_due_draws");
    expect(await db().sql("select trigger from public.draws where competition_id = $1", [soon])).toEqual([
      { trigger: "draw_time" },
    ]);
    expect(
      (
        await db().sql("select 1 from public.activity_log where action = 'competition.drawn' and subject_id = $1", [
          soon,
        ])
      ).length,
    ).toBe(1);
  });
});

describe("close time and draws", () => {
  it("refuses entries after the close time; at the draw time the cron run draws it, or closes it with no sales", async () => {
    const withSales = await db().createCompetition(admin, { total_tickets: 20 });
    const empty = await db().createCompetition(admin, { total_tickets: 20 });
    const p = await db().createPlayer({ credits: "20.00", name: "Grace Hopper" });
    await db().call(asUser(p), "update_my_profile", { p_town: "York" });
    await enter(p, withSales, 2);
    await closeNow(withSales);
    await closeNow(empty);

    const late = await attempt(enter(p, withSales, 1));
    expect(late.ok ? "" : late.message).toBe("This competition has closed");
    expect((await attempt(db().call(anon, "run_due_draws"))).ok).toBe(false);
    // Closed for online sales, but the postal deadline and the draw time are still ahead.
    expect(await db().call(service, "run_due_draws")).toEqual({ drawn: [], closed: [] });
    await drawTimeNow(withSales);
    await drawTimeNow(empty);

    const run = await db().call<{ drawn: Array<{ competition_id: string; draw_id: string }>; closed: string[] }>(
      service,
      "run_due_draws",
    );
    expect(run.drawn.map((d) => d.competition_id)).toContain(withSales);
    expect(run.closed).toContain(empty);
    expect((await competitionRow(empty)).status).toBe("closed");
    expect(await db().sql("select 1 from public.draws where competition_id = $1", [empty])).toEqual([]);

    const again = await db().call<{ drawn: unknown[]; closed: unknown[] }>(service, "run_due_draws");
    expect(again).toEqual({ drawn: [], closed: [] });

    const drawId = run.drawn.find((d) => d.competition_id === withSales)!.draw_id;
    const draw = await db().call<{
      winner_display_name: string;
      trigger: string;
      algorithm: string;
      ticket_count: number;
    }>(anon, "get_draw", { p_draw_id: drawId });
    expect(draw).toMatchObject({
      trigger: "draw_time",
      algorithm: "labcash-draw-v2",
      winner_display_name: "Grace H.",
      ticket_count: 2,
    });

    const page = await db().call<Competition & { draw: { id: string; winning_number: number } }>(
      anon,
      "get_competition",
      { p_slug: (await competitionRow(withSales)).slug },
    );
    expect(page.status).toBe("drawn");
    expect(page.draw.id).toBe(drawId);
    const winners = await db().call<Array<{ draw_id: string; winner_display_name: string }>>(anon, "list_winners");
    expect(winners.find((w) => w.draw_id === drawId)).toMatchObject({
      winner_display_name: "Grace H.",
      winner_town: "York",
    });
    const won = await db().sql<{ body_text: string }>(
      "select body_text from public.mail_outbox where to_user = $1 and kind = 'competition_won'",
      [p],
    );
    expect(won.length).toBe(1);
    // The link in the e-mail is absolute, on the site_url setting.
    expect(won[0].body_text).toContain(`http://localhost:3000/winners/${drawId}`);
    const mine = await db().call<Array<{ draw: { won: boolean } }>>(asUser(p), "get_my_entries");
    expect(mine[0].draw.won).toBe(true);
  });
});

describe("cancelling", () => {
  it("refunds every paid entry to credit with its own ledger row and restores the totals", async () => {
    const id = await db().createCompetition(admin, { ticket_price: "0.75", total_tickets: 100 });
    const a = await db().createPlayer({ credits: "10.00" });
    const b = await db().createPlayer({ credits: "10.00" });
    await enter(a, id, 2);
    await enter(a, id, 3);
    await enter(b, id, 4);
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: id,
      p_user_id: b,
      p_name: "Bea Post",
      p_address: "1 High Street, York YO1 7HH",
      p_answer: "4",
    });
    const short = await attempt(db().call(asUser(admin), "admin_cancel_competition", { p_id: id, p_reason: "" }));
    expect(short.ok ? "" : short.message).toBe("Give a reason between 3 and 500 characters");

    const result = await db().call<{ refunded_entries: number; refunded_total: number }>(
      asUser(admin),
      "admin_cancel_competition",
      {
        p_id: id,
        p_reason: "Supplier could not deliver the prize",
      },
    );
    expect(result).toMatchObject({ refunded_entries: 3, refunded_total: 6.75 });
    const accounts = await db().sql<{ id: string; credits: string; total_spent: string; total_entries: number }>(
      "select id, credits, total_spent, total_entries from public.user_account_data where id = any($1) order by credits",
      [[a, b]],
    );
    for (const acct of accounts)
      expect(acct).toMatchObject({ credits: "10.00", total_spent: "0.00", total_entries: 0 });
    const refunds = await db().sql<{ user_id: string; amount: string }>(
      "select user_id, amount from public.credit_ledger where kind = 'refund' and user_id = any($1) order by id",
      [[a, b]],
    );
    expect(refunds).toEqual([
      { user_id: a, amount: "1.50" },
      { user_id: a, amount: "2.25" },
      { user_id: b, amount: "3.00" },
    ]);
    expect((await competitionRow(id)).status).toBe("cancelled");
    const entry = await attempt(enter(a, id, 1));
    expect(entry.ok ? "" : entry.message).toBe("This competition has been cancelled");
    const again = await attempt(db().call(asUser(admin), "admin_cancel_competition", { p_id: id, p_reason: "twice" }));
    expect(again.ok ? "" : again.message).toBe("This competition is already cancelled");
    expect(
      (
        await db().sql("select 1 from public.mail_outbox where kind = 'competition_cancelled' and to_user = any($1)", [
          [a, b],
        ])
      ).length,
    ).toBe(2);
    expect(await db().ledgerMismatches()).toEqual([]);
  });
});

describe("postal entries and admin edits", () => {
  it("gives free tickets after the online pool with the same odds, and checks the answer", async () => {
    const id = await db().createCompetition(admin, { total_tickets: 3, max_tickets_per_user: 2 });
    const p = await db().createPlayer({ credits: "5.00" });
    const wrong = await attempt(
      db().call(asUser(admin), "admin_record_postal_entry", {
        p_competition_id: id,
        p_user_id: null,
        p_name: "Olive Post",
        p_address: "2 Mill Lane, Leeds LS1 4AP",
        p_answer: "3",
      }),
    );
    expect(wrong.ok ? "" : wrong.message).toBe("That answer is not correct");
    const free = await db().call<{ ticket_numbers: number[]; tickets: number }>(
      asUser(admin),
      "admin_record_postal_entry",
      {
        p_competition_id: id,
        p_user_id: null,
        p_name: "Olive Post",
        p_address: "2 Mill Lane, Leeds LS1 4AP",
        p_answer: "4",
      },
    );
    expect(free).toEqual({ entry_id: expect.any(String), ticket_numbers: [4], tickets: 1, instant_wins: [] });
    await enter(p, id, 2);
    await drawTimeNow(id);
    await db().call(service, "run_due_draws");
    const page = await db().call<Competition & { draw: { winner_display_name: string } }>(anon, "get_competition", {
      p_slug: (await competitionRow(id)).slug,
    });
    expect(page.status).toBe("drawn");
    expect(["Olive P.", "Test U."]).toContain(page.draw.winner_display_name.replace(/User\d+/, "U."));
  });

  it("validates fields and limits edits once tickets are sold", async () => {
    const bad = await attempt(
      db().call(asUser(admin), "admin_create_competition", {
        p: {
          title: "Cheap",
          prize_description: "x",
          prize_value: 1,
          ticket_price: "0.10",
          total_tickets: 10,
          max_tickets_per_user: 1,
          closes_at: "2099-01-01T00:00:00Z",
        },
      }),
    );
    expect(bad.ok ? "" : bad.message).toBe("Ticket price must be from £0.25 to £10,000, in pounds and pence");
    const id = await db().createCompetition(admin, { total_tickets: 10 });
    const p = await db().createPlayer({ credits: "5.00" });
    await enter(p, id, 1);
    const priceChange = await attempt(
      db().call(asUser(admin), "admin_update_competition", { p_id: id, p: { ticket_price: 2 } }),
    );
    expect(priceChange.ok ? "" : priceChange.message).toBe(
      "Tickets have been sold: only the wording, the prizes' descriptions and images can change",
    );
    const later = new Date(Date.now() + 30 * 86400_000).toISOString();
    const extended = await attempt(
      db().call(asUser(admin), "admin_update_competition", {
        p_id: id,
        p: { title: "Renamed prize", closes_at: later },
      }),
    );
    expect(extended.ok ? "" : extended.message).toBe("The dates are fixed once a competition is published");
    const ok = await db().call<{ title: string }>(asUser(admin), "admin_update_competition", {
      p_id: id,
      p: { title: "Renamed prize" },
    });
    expect(ok.title).toBe("Renamed prize");
    const publishedTwice = await attempt(db().call(asUser(admin), "admin_publish_competition", { p_id: id }));
    expect(publishedTwice.ok ? "" : publishedTwice.message).toBe("Only a draft can be published");
  });

  it.each([
    [{ ticket_price: 0.251 }, "Ticket price must be from £0.25 to £10,000, in pounds and pence"],
    [{ ticket_price: "NaN" }, "Ticket price must be from £0.25 to £10,000, in pounds and pence"],
    [{ prize_value: "1.005" }, "Prize value must be an amount in pounds and pence"],
    [{ prize_value: "Infinity" }, "Prize value must be an amount in pounds and pence"],
    [{ cash_alternative: 9.999 }, "The cash alternative must be an amount in pounds and pence, above £0"],
    [{ closes_at: "infinity" }, "Give a real date and time, not infinity"],
    [{ draw_at: "-infinity" }, "Give a real date and time, not infinity"],
    [{ images: ["/\\evil.example/x.png"] }, "Image addresses must start with / or https://"],
    [{ images: ["https://cdn.example/a b.png"] }, "Image addresses must start with / or https://"],
    [{ images: ["//evil.example/x.png"] }, "Image addresses must start with / or https://"],
  ])("refuses %j as sent, never rounding or storing it (%s)", async (field, message) => {
    const fields = {
      title: "Odd input",
      prize_description: "x",
      prize_value: 1,
      ticket_price: 1,
      total_tickets: 10,
      max_tickets_per_user: 1,
      closes_at: "2099-01-01T00:00:00Z",
      ...field,
    };
    const created = await attempt(db().call(asUser(admin), "admin_create_competition", { p: fields }));
    expect(created.ok ? "" : created.message).toBe(message);
    const id = await db().createCompetition(admin, { total_tickets: 10 });
    const updated = await attempt(db().call(asUser(admin), "admin_update_competition", { p_id: id, p: field }));
    expect(updated.ok ? "" : updated.message).toBe(message);
  });
});

describe("mail adapter", () => {
  it("delivers queued mail to the outbox when no SMTP is configured, once", async () => {
    const client: RpcClient = {
      rpc: (fn, args) => db().rpc(service, fn, args),
    };
    const queued = (
      await db().sql<{ n: number }>("select count(*)::int n from public.mail_outbox where status = 'queued'")
    )[0].n;
    expect(queued).toBeGreaterThan(0);
    const report = await deliverQueuedMail(client, {
      transport: { name: "outbox", send: async () => {} },
      limit: 50,
      batches: 100,
    });
    expect(report).toMatchObject({ transport: "outbox", claimed: queued, sent: queued, failed: 0 });
    expect(await db().sql("select 1 from public.mail_outbox where status = 'queued'")).toEqual([]);
    expect(await db().sql("select distinct transport from public.mail_outbox where status = 'sent'")).toEqual([
      { transport: "outbox" },
    ]);
    expect((await deliverQueuedMail(client, { transport: { name: "outbox", send: async () => {} } })).claimed).toBe(0);
  });
});
