// Several prizes per draw: a competition's prizes after the first are drawn in turn from the same seed and ticket
// list, one counter stream, no ticket twice, postal tickets on equal terms; each prize is its own draw record with its
// own claim and fulfilment, and everything that names a winner names the position.
import { describe, expect, it } from "vitest";
import { verifyDraw, type PublishedDraw } from "@/lib/draws/verify";
import { anon, asUser, attempt, dbPerFile, service } from "./support";

const db = dbPerFile();

const prizes = [
  { description: "A tablet", value: 400, cash_alternative: 350 },
  { description: "Wireless earbuds", value: "149.99" },
];

type DrawRow = { id: string; prize_position: number; winning_number: number; winning_ticket_id: string };

/** Draws the competition now and answers its prizes' draws, first prize first. */
async function drawNow(admin: string, competitionId: string) {
  await db().drawNow(admin, competitionId);
  return db().sql<DrawRow>(
    `select id, prize_position, winning_number, winning_ticket_id from public.draws where competition_id = $1
      order by prize_position`,
    [competitionId],
  );
}

describe("several prizes per draw", () => {
  it("draws every prize in order from one draw, no ticket twice, each recomputed in the browser's code", async () => {
    const admin = await db().createAdmin();
    const players = await Promise.all(
      ["Amy Archer", "Ben Brook", "Cal Cole"].map((name) => db().createPlayer({ name, credits: "20.00" })),
    );
    const competitionId = await db().createCompetition(admin, {
      slug: "three-prizes",
      prize_value: 1000,
      cash_alternative: 900,
      total_tickets: 30,
      prizes,
    });
    for (const [i, player] of players.entries()) {
      await db().call(asUser(player), "enter_competition", {
        p_competition_id: competitionId,
        p_quantity: 3 + i,
        p_answer: "4",
      });
    }
    await db().postalEntry(admin, competitionId);

    // Before the draw, the prizes in order, the first being the competition's own.
    const before = await db().call<Array<{ prize_position: number; description: string; draw_id: string | null }>>(
      anon,
      "get_competition_prizes",
      { p_slug: "three-prizes" },
    );
    expect(before.map((p) => [p.prize_position, p.description, p.draw_id])).toEqual([
      [1, "A test prize", null],
      [2, "A tablet", null],
      [3, "Wireless earbuds", null],
    ]);

    const draws = await drawNow(admin, competitionId);
    expect(draws.map((d) => d.prize_position)).toEqual([1, 2, 3]);
    expect(new Set(draws.map((d) => d.winning_ticket_id)).size).toBe(3);

    // Each prize's page recomputes every prize from the seed and the ticket list, as the browser does.
    const csv = await db().ticketListCsv("three-prizes");
    for (const row of draws) {
      const draw = await db().call<PublishedDraw & { prize_description: string }>(anon, "get_draw", {
        p_draw_id: row.id,
      });
      expect(draw.prize_position).toBe(row.prize_position);
      expect(draw.prizes?.map((p) => p.winning_number)).toEqual(draws.map((d) => d.winning_number));
      const verified = await verifyDraw(draw, { ticketList: csv });
      expect(verified.ok, JSON.stringify(verified.checks)).toBe(true);
      expect(verified.winningNumber).toBe(row.winning_number);
      expect(verified.prizes.map((p) => p.winningNumber)).toEqual(draws.map((d) => d.winning_number));
    }
    // The first prize is exactly the one-prize draw of the same inputs.
    const [first] = await db().sql<{ counter: number; winning_number: number }>(
      `select x.counter, x.winning_number from public.draws d,
              private.draw_derive(decode(d.seed_hex, 'hex'), d.competition_id, decode(d.ticket_list_hash, 'hex'),
                                  decode(d.external_hex, 'hex'), d.ticket_count) x
        where d.id = $1`,
      [draws[0].id],
    );
    expect(first).toMatchObject({ counter: expect.any(Number) });
    const [firstRow] = await db().sql<{ counter: number; winning_position: number }>(
      "select counter, winning_position from public.draws where id = $1",
      [draws[0].id],
    );
    expect([first.counter, first.winning_number]).toEqual([firstRow.counter, firstRow.winning_position]);

    // Everything that names a winner names the prize.
    const winners = await db().call<
      Array<{ draw_id: string; prize_position: number; prizes: number; prize_description: string }>
    >(anon, "list_winners");
    expect(
      winners
        .filter((w) => draws.some((d) => d.id === w.draw_id))
        .map((w) => [w.prize_position, w.prizes, w.prize_description]),
    ).toEqual([
      [1, 3, "A test prize"],
      [2, 3, "A tablet"],
      [3, 3, "Wireless earbuds"],
    ]);
    const after = await db().call<Array<{ prize_position: number; winning_number: number | null }>>(
      anon,
      "get_competition_prizes",
      { p_slug: "three-prizes" },
    );
    expect(after.map((p) => p.winning_number)).toEqual(draws.map((d) => d.winning_number));
    const second = await db().call<{ result: string; prize_position: number; prize_description: string }>(
      anon,
      "check_ticket",
      { p_slug: "three-prizes", p_number: draws[1].winning_number },
    );
    expect(second).toMatchObject({ result: "won", prize_position: 2, prize_description: "A tablet", prizes: 3 });

    // Notifications: each winner hears of their prize; every other ticket holder hears once that they won nothing.
    const notes = await db().sql<{ user_id: string; kind: string; body: string }>(
      `select n.user_id, n.kind, n.body from public.notifications n where n.ref like 'draw:%'
         and n.ref in (select 'draw:' || id from public.draws where competition_id = $1)`,
      [competitionId],
    );
    const winnersOnline = await db().sql<{ winner_user_id: string | null }>(
      "select winner_user_id from public.draws where competition_id = $1",
      [competitionId],
    );
    for (const player of players) {
      const prizesWon = winnersOnline.filter((w) => w.winner_user_id === player).length;
      const kinds = notes.filter((n) => n.user_id === player).map((n) => n.kind);
      expect(kinds, player).toEqual(prizesWon > 0 ? Array(prizesWon).fill("draw_won") : ["draw_lost"]);
    }
    // Each online winner's mail names their prize.
    const mails = await db().sql<{ user_id: string; body_text: string }>(
      `select u.id as user_id, m.body_text from public.mail_outbox m join auth.users u on u.email = m.to_email
        where m.kind = 'competition_won'`,
    );
    for (const row of draws.slice(1)) {
      const [{ winner_user_id }] = await db().sql<{ winner_user_id: string | null }>(
        "select winner_user_id from public.draws where id = $1",
        [row.id],
      );
      if (!winner_user_id) continue; // the postal winner is written to, not mailed
      expect(
        mails.some(
          (m) =>
            m.user_id === winner_user_id &&
            m.body_text.includes(`won the ${row.prize_position === 2 ? "2nd" : "3rd"} prize in`),
        ),
      ).toBe(true);
    }

    // What reads one draw reads the first prize's: the competition page, the entry list, the admin detail.
    const page = await db().call<{ draw: { id: string } }>(anon, "get_competition", { p_slug: "three-prizes" });
    expect(page.draw.id).toBe(draws[0].id);
    const list = await db().call<{ draw: { id: string } }>(anon, "get_entry_list", { p_slug: "three-prizes" });
    expect(list.draw.id).toBe(draws[0].id);
    const detail = await db().call<{ fulfilment: { draw_id: string; prize_position: number } }>(
      asUser(admin),
      "admin_competition_detail",
      { p_id: competitionId },
    );
    expect(detail.fulfilment).toMatchObject({ draw_id: draws[0].id, prize_position: 1 });
  });

  it("puts postal tickets in on equal terms, gives each prize its own claim, and awards no more prizes than tickets", async () => {
    const admin = await db().createAdmin();
    const player = await db().createPlayer({ name: "Dee Dale", credits: "10.00" });
    // Two tickets online and one by post (at £1, a stamp buys one ticket), three prizes: every ticket wins one.
    const everyone = await db().createCompetition(admin, { slug: "every-ticket-wins", total_tickets: 10, prizes });
    await db().call(asUser(player), "enter_competition", { p_competition_id: everyone, p_quantity: 2, p_answer: "4" });
    await db().postalEntry(admin, everyone);
    const draws = await drawNow(admin, everyone);
    expect(draws).toHaveLength(3);
    const numbers = draws.map((d) => d.winning_number).sort((a, b) => a - b);
    const tickets = await db().sql<{ number: number }>(
      "select number from public.tickets where competition_id = $1 order by number",
      [everyone],
    );
    expect(numbers).toEqual(tickets.map((t) => t.number));

    expect(await db().call(asUser(player), "get_my_prizes")).toHaveLength(2);

    // A player holding every ticket wins every prize: each is claimed on its own, with its own cash alternative.
    const sole = await db().createPlayer({ name: "Sol Sole", credits: "10.00" });
    const allMine = await db().createCompetition(admin, {
      slug: "all-mine",
      total_tickets: 3,
      cash_alternative: 90,
      prizes,
      charity: { name: "Shelter", registered_number: "263710", fixed_amount: 5 },
    });
    await db().call(asUser(sole), "enter_competition", { p_competition_id: allMine, p_quantity: 3, p_answer: "4" });
    await drawNow(admin, allMine);
    const won = await db().call<
      Array<{ draw_id: string; prize_position: number; prizes: number; cash_alternative: number | null }>
    >(asUser(sole), "get_my_prizes");
    expect(won.map((p) => [p.prize_position, p.prizes, p.cash_alternative])).toEqual([
      [1, 3, 90],
      [2, 3, 350],
      [3, 3, null],
    ]);
    for (const prize of won.slice(0, 2))
      await db().call(asUser(sole), "claim_prize", { p_draw_id: prize.draw_id, p_choice: "cash" });
    expect(
      await attempt(db().call(asUser(sole), "claim_prize", { p_draw_id: won[2].draw_id, p_choice: "cash" })),
    ).toMatchObject({ ok: false, hint: "cash_not_offered" });
    const [claimMail] = await db().sql<{ subject: string }>(
      "select subject from public.mail_outbox where kind = 'prize_claimed' and subject like '%2nd prize%'",
    );
    expect(claimMail?.subject).toMatch(/^Your claim: Test prize \d+, 2nd prize$/);

    // The admin history counts every prize's cost (the cash where chosen) and the charity's sum, once.
    const history = await db().call<{
      rows: Array<{ slug: string; prize_cost: number; charity_owed: number; net: number; revenue: number }>;
    }>(asUser(admin), "admin_competition_history");
    const row = history.rows.find((r) => r.slug === "all-mine")!;
    expect(row).toMatchObject({ prize_cost: 90 + 350 + 149.99, charity_owed: 5, revenue: 3 });
    expect(row.net).toBeCloseTo(3 - (90 + 350 + 149.99) - 5, 2);
    const charityFigures = await db().call<Array<{ period: string; owed: number }>>(
      service,
      "get_transparency_charity_figures",
    );
    expect(charityFigures.find((f) => f.period === "all")?.owed).toBe(5);

    // One ticket, three prizes: only the first is drawn.
    const lonely = await db().createCompetition(admin, { slug: "one-ticket", prizes });
    await db().call(asUser(player), "enter_competition", { p_competition_id: lonely, p_quantity: 1, p_answer: "4" });
    expect((await drawNow(admin, lonely)).map((d) => d.prize_position)).toEqual([1]);
    // The trust page counts competitions once, whatever their prizes, and prizes each.
    const [report] = await db().sql<{ competitions_drawn: number; prizes_delivered: number; awaiting: number }>(
      `select (r).all_time.competitions_drawn, (r).all_time.awaiting_claim as awaiting
         from (select public.get_transparency_report() r) x`,
    );
    const [counts] = await db().sql<{ competitions: number; prizes: number; awaiting: number }>(
      `select count(distinct competition_id)::int as competitions, count(*)::int as prizes,
              (count(*) filter (where prize_status = 'awaiting_claim'))::int as awaiting from public.draws`,
    );
    expect(counts.prizes).toBeGreaterThan(counts.competitions);
    expect(report.competitions_drawn).toBe(counts.competitions);
    expect(report.awaiting).toBe(counts.awaiting);
  });

  it("checks the prize list, and keeps how many prizes and their values once tickets are sold", async () => {
    const admin = await db().createAdmin();
    const player = await db().createPlayer({ credits: "5.00" });
    for (const wrong of [
      [{ description: "", value: 1 }],
      [{ description: "A hat", value: -1 }],
      [{ description: "A hat", value: 1, cash_alternative: 0 }],
      [{ description: "A hat", value: "lots" }],
      Array.from({ length: 10 }, () => ({ description: "A hat", value: 1 })),
      { description: "A hat", value: 1 },
    ]) {
      expect(
        await attempt(
          db().call(asUser(admin), "admin_create_competition", {
            p: {
              title: "Prize checks",
              prize_description: "A prize",
              prize_value: 1,
              images: [],
              ticket_price: 1,
              total_tickets: 10,
              max_tickets_per_user: 10,
              closes_at: new Date(Date.now() + 86400_000).toISOString(),
              prizes: wrong,
            },
          }),
        ),
        JSON.stringify(wrong),
      ).toMatchObject({ ok: false, hint: "invalid_input" });
    }
    expect(await db().sql("select 1 from public.competitions where title = 'Prize checks'")).toEqual([]);

    const id = await db().createCompetition(admin, { slug: "prizes-fixed", prizes });
    const update = (list: unknown) =>
      attempt(db().call(asUser(admin), "admin_update_competition", { p_id: id, p: { prizes: list } }));
    // Live with no sales: anything may change.
    expect(await update([prizes[0]])).toMatchObject({ ok: true });
    await db().call(asUser(player), "enter_competition", { p_competition_id: id, p_quantity: 1, p_answer: "4" });
    expect(await update([prizes[0], prizes[1]])).toMatchObject({ ok: false, hint: "edit_not_allowed" });
    expect(await update([{ ...prizes[0], value: 500 }])).toMatchObject({ ok: false, hint: "edit_not_allowed" });
    expect(await update([{ ...prizes[0], description: "An Android tablet" }])).toMatchObject({ ok: true });
    const listed = await db().call<Array<{ description: string }>>(anon, "get_competition_prizes", {
      p_slug: "prizes-fixed",
    });
    expect(listed.map((p) => p.description)).toEqual(["A test prize", "An Android tablet"]);
  });
});
