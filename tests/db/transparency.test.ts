// The trust page's figures come from the records themselves (get_transparency_report, computed for the site alone,
// which caches them), and a browser check of a draw is counted once per visitor network, draw and day by the site
// alone (record_draw_check).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { anon, asUser, dbPerFile, service } from "./support";

const db = dbPerFile();

type Figures = Record<string, number | string | null>;
type Report = {
  all_time: Figures;
  months: Figures[];
  towns: { town: string; winners: number }[];
  winners_without_town: number;
  draws: { draw_id: string; month: string; ticket_count: number; postal_tickets: number; checks: number }[];
};

const report = () => db().call<Report>(service, "get_transparency_report");
const check = (drawId: string, visitor: string) =>
  db().call<boolean>(service, "record_draw_check", { p_draw_id: drawId, p_visitor: visitor });
const thisMonth = () =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit" })
    .format(new Date())
    .slice(0, 7);

describe("the trust page's figures", () => {
  it("are all zero, with no months, towns or draws, before anything has happened", async () => {
    const empty = await report();
    expect(empty.months).toEqual([]);
    expect(empty.towns).toEqual([]);
    expect(empty.draws).toEqual([]);
    expect(empty.winners_without_town).toBe(0);
    expect(empty.all_time).toMatchObject({ period: "all", competitions_drawn: 0, online_entries: 0, draw_checks: 0 });
    expect(empty.all_time.median_tickets).toBeNull();
  });

  it("count draws, prizes, entries by route, instant wins, complaints and checks, by month and for all time", async () => {
    const admin = await db().createAdmin();
    const harrogate = await db().createPlayer({ name: "Hana Hill", credits: "10.00" });
    await db().sql("update public.profiles set town = 'Harrogate' where id = $1", [harrogate]);
    const quiet = await db().createPlayer({ name: "Quinn Quiet", credits: "10.00" });
    await db().sql("update public.profiles set show_initials_only = true, town = 'Leeds' where id = $1", [quiet]);

    // Drawn last month (the middle of the previous UK month): one ticket, won from Harrogate, the winner chose cash.
    const first = await db().wonBy(admin, harrogate, { prize_value: 100, cash_alternative: 60 });
    await db().call(asUser(harrogate), "claim_prize", { p_draw_id: first.drawId, p_choice: "cash" });
    const lastMonth =
      "(date_trunc('month', now() at time zone 'Europe/London') - interval '15 days') at time zone 'Europe/London'";
    await db().sql(`update public.draws set drawn_at = ${lastMonth} where id = $1`, [first.drawId]);
    await db().sql(`update public.entries set created_at = ${lastMonth} where competition_id = $1`, [
      first.competitionId,
    ]);

    // Drawn this month: two online tickets and a free postal one, with two instant wins published.
    // (At most half the live competitions may have instant wins: one more stays live, undrawn.)
    await db().createCompetition(admin);
    const second = await db().createCompetition(admin, { prize_value: 250 }, false);
    await db().call(asUser(admin), "admin_set_instant_win_prizes", {
      p_competition_id: second,
      p_prizes: [{ kind: "credit", title: "£5 credit", credit_amount: 5, quantity: 2 }],
    });
    await db().call(asUser(admin), "admin_publish_competition", { p_id: second });
    await db().call(asUser(quiet), "enter_competition", { p_competition_id: second, p_quantity: 2, p_answer: "4" });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: second,
      p_user_id: null,
      p_name: "Pat Post",
      p_address: "1 High Street, York YO1 7HH",
      p_answer: "4",
    });
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
      [second],
    );
    await db().call(asUser(admin), "run_due_draws");
    const [{ id: secondDraw }] = await db().sql<{ id: string }>(
      "select id from public.draws where competition_id = $1",
      [second],
    );
    const [{ won }] = await db().sql<{ won: number }>(
      "select count(*)::integer as won from public.instant_wins where competition_id = $1",
      [second],
    );

    // Two complaints this month: one acknowledged in time, one past its acknowledgement deadline.
    for (const subject of ["Late prize", "Missing ticket"]) {
      await db().call(asUser(quiet), "submit_complaint", {
        p_subject: subject,
        p_reference: null,
        p_details: "Something went wrong with my entry last week.",
      });
    }
    const complaints = await db().sql<{ id: string }>("select id from public.complaints order by reference");
    await db().call(asUser(admin), "admin_update_complaint", { p_id: complaints[0].id, p_status: "acknowledged" });
    await db().sql("update public.complaints set acknowledge_by = now() - interval '1 hour' where id = $1", [
      complaints[1].id,
    ]);

    // Browser checks: once per visitor a day; an IPv6 visitor is their /48, which one subscriber is often given whole.
    expect(await check(secondDraw, "203.0.113.7")).toBe(true);
    expect(await check(secondDraw, "203.0.113.7")).toBe(false);
    expect(await check(secondDraw, "2001:db8:1:2::10")).toBe(true);
    expect(await check(secondDraw, "2001:db8:1:3::99")).toBe(false);
    expect(await check(secondDraw, "not an address")).toBe(false);
    // Only a hash is kept, salted with the day's secret: not the address, nor a hash anyone could recompute from it.
    const stored = await db().sql<{ visitor_hash: string; checked_on: string }>(
      "select visitor_hash, checked_on::text from public.draw_checks",
    );
    expect(stored).toHaveLength(2);
    const unsalted = createHash("sha256").update(`203.0.113.7 ${secondDraw} ${stored[0].checked_on}`).digest("hex");
    for (const row of stored) {
      expect(row.visitor_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.visitor_hash).not.toBe(unsalted);
    }
    // One salt, today's; the cron drops the salts of days that are over.
    await db().sql("insert into private.draw_check_salts values (current_date - 2, extensions.gen_random_bytes(32))");
    expect(await check(secondDraw, "198.51.100.20")).toBe(true);
    expect(await db().call(service, "forget_draw_check_salts")).toBe(1);
    expect(await db().sql("select checked_on::text from private.draw_check_salts")).toEqual([
      { checked_on: stored[0].checked_on },
    ]);

    const { all_time, months, towns, winners_without_town, draws } = await report();
    expect(all_time).toMatchObject({
      period: "all",
      competitions_drawn: 2,
      prize_value: 350,
      // One winner has chosen: not enough to publish how winners choose without giving that one's choice away.
      prizes_chosen: null,
      cash_chosen: null,
      cash_paid: null,
      awaiting_claim: 1,
      prizes_delivered: 0,
      median_tickets: 2,
      instant_wins_published: 2,
      instant_wins_won: won,
      online_entries: 2,
      online_tickets: 3,
      postal_received: 1,
      postal_entered: 1,
      postal_tickets: 1,
      complaints_received: 2,
      complaints_acknowledged_in_time: 1,
      complaints_answered_in_time: 0,
      complaints_open: 2,
      complaints_overdue: 1,
      draw_checks: 3,
      draws_checked: 1,
    });

    // Newest month first; each month's figures are its own and add up to all time.
    expect(months.map((m) => m.period)).toHaveLength(2);
    const [now, before] = months;
    expect(now.period).toBe(thisMonth());
    expect(now).toMatchObject({ competitions_drawn: 1, prize_value: 250, median_tickets: 3, online_tickets: 2 });
    expect(now).toMatchObject({ postal_tickets: 1, complaints_received: 2, draw_checks: 3 });
    expect(before).toMatchObject({ competitions_drawn: 1, prize_value: 100, median_tickets: 1, awaiting_claim: 0 });
    expect(before).toMatchObject({ online_tickets: 1, postal_received: 0, complaints_received: 0, draw_checks: 0 });

    // Towns only as published: the initials-only winner's town is not; the postal entrant gave none.
    expect(towns).toEqual([{ town: "Harrogate", winners: 1 }]);
    expect(winners_without_town).toBe(1);

    // The draws behind the figures, newest first.
    expect(draws.map((d) => d.draw_id)).toEqual([secondDraw, first.drawId]);
    expect(draws[0]).toMatchObject({ month: thisMonth(), ticket_count: 3, postal_tickets: 1, checks: 3 });
  });

  it("say how winners chose between prize and cash once five have, counting cash as paid once delivered", async () => {
    // The test above left one winner who chose cash (not delivered); four more choices make five.
    const admin = await db().createAdmin();
    const winner = await db().createPlayer({ name: "Wyn Winner", credits: "10.00" });
    const draws: string[] = [];
    for (let i = 0; i < 4; i++) draws.push((await db().wonBy(admin, winner, { cash_alternative: 40 })).drawId);
    const claim = (drawId: string, choice: string) =>
      db().call(asUser(winner), "claim_prize", {
        p_draw_id: drawId,
        p_choice: choice,
        p_delivery_address: choice === "prize" ? "4 Mill Lane, Harrogate HG1 2AB" : null,
      });
    for (const drawId of draws.slice(0, 3)) await claim(drawId, "prize");
    expect((await report()).all_time).toMatchObject({ prizes_chosen: null, cash_chosen: null, cash_paid: null });

    await claim(draws[3], "cash");
    expect((await report()).all_time).toMatchObject({ prizes_chosen: 3, cash_chosen: 2, cash_paid: 0 });
    const move = (status: string, extra: Record<string, unknown>) =>
      db().call(asUser(admin), "admin_update_prize_fulfilment", { p_draw_id: draws[3], p_status: status, ...extra });
    await move("verified", { p_proof_of_delivery: null, p_document_type: "passport", p_document_last_four: "1234" });
    await move("delivered", { p_proof_of_delivery: "BACS-1" });
    expect((await report()).all_time).toMatchObject({ cash_chosen: 2, cash_paid: 40, prizes_delivered: 1 });
  });

  it("are computed, and checks counted, only for the site's secret key, and only of a draw that exists", async () => {
    for (const caller of [anon, asUser(await db().createPlayer())]) {
      expect((await db().rpc(caller, "get_transparency_report")).error).toMatchObject({ code: "42501" });
    }
    const refused = await db().rpc(anon, "record_draw_check", {
      p_draw_id: "00000000-0000-0000-0000-000000000000",
      p_visitor: "203.0.113.7",
    });
    expect(refused.error).toMatchObject({ code: "42501" });
    const player = await db().createPlayer();
    expect(
      (await db().rpc(asUser(player), "record_draw_check", { p_draw_id: null, p_visitor: "1.2.3.4" })).error,
    ).toMatchObject({ code: "42501" });
    const unknown = await db().rpc(service, "record_draw_check", {
      p_draw_id: "00000000-0000-0000-0000-000000000000",
      p_visitor: "203.0.113.7",
    });
    expect(unknown.error).toMatchObject({ hint: "draw_not_found" });
  });
});
