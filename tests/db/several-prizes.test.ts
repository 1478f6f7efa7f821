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

async function ticketListCsv(slug: string): Promise<string> {
  let csv = "";
  let after = 0;
  for (;;) {
    const chunk = await db().call<{ csv: string; last_number: number | null; done: boolean }>(
      anon,
      "get_ticket_list_csv",
      { p_slug: slug, p_after: after, p_limit: 100 },
    );
    csv += chunk.csv;
    if (chunk.done || chunk.last_number === null) return csv;
    after = chunk.last_number;
  }
}

async function drawNow(admin: string, competitionId: string) {
  await db().sql(
    `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
            postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
    [competitionId],
  );
  await db().call(asUser(admin), "run_due_draws");
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
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: competitionId,
      p_user_id: null,
      p_name: "Pat Post",
      p_address: "1 High Street, York YO1 7HH",
      p_answer: "4",
    });

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
    const csv = await ticketListCsv("three-prizes");
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
    const won = new Set(winnersOnline.map((w) => w.winner_user_id).filter(Boolean));
    for (const player of players) {
      const mine = notes.filter((n) => n.user_id === player);
      if (won.has(player)) expect(mine.every((n) => n.kind === "draw_won")).toBe(true);
      else expect(mine.map((n) => n.kind)).toEqual(["draw_lost"]);
    }
  });

  it("puts postal tickets in on equal terms, gives each prize its own claim, and awards no more prizes than tickets", async () => {
    const admin = await db().createAdmin();
    const player = await db().createPlayer({ name: "Dee Dale", credits: "10.00" });
    // Two tickets online and one by post (at £1, a stamp buys one ticket), three prizes: every ticket wins one.
    const everyone = await db().createCompetition(admin, { slug: "every-ticket-wins", total_tickets: 10, prizes });
    await db().call(asUser(player), "enter_competition", { p_competition_id: everyone, p_quantity: 2, p_answer: "4" });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: everyone,
      p_user_id: null,
      p_name: "Pat Post",
      p_address: "1 High Street, York YO1 7HH",
      p_answer: "4",
    });
    const draws = await drawNow(admin, everyone);
    expect(draws).toHaveLength(3);
    const numbers = draws.map((d) => d.winning_number).sort((a, b) => a - b);
    const tickets = await db().sql<{ number: number }>(
      "select number from public.tickets where competition_id = $1 order by number",
      [everyone],
    );
    expect(numbers).toEqual(tickets.map((t) => t.number));

    // The player won two prizes: each is claimed on its own, the tablet's cash alternative only on the tablet.
    const mine = await db().call<Array<{ draw_id: string; prize_position: number; cash_alternative: number | null }>>(
      asUser(player),
      "get_my_prizes",
    );
    expect(mine).toHaveLength(2);
    const tablet = mine.find((p) => p.prize_position === 2);
    const other = mine.find((p) => p.prize_position !== 2)!;
    if (tablet) {
      expect(tablet.cash_alternative).toBe(350);
      await db().call(asUser(player), "claim_prize", { p_draw_id: tablet.draw_id, p_choice: "cash" });
    }
    expect(other.cash_alternative).toBeNull();
    expect(
      await attempt(db().call(asUser(player), "claim_prize", { p_draw_id: other.draw_id, p_choice: "cash" })),
    ).toMatchObject({ ok: false, hint: "cash_not_offered" });

    // The admin history counts every prize's cost.
    const history = await db().call<{ rows: Array<{ slug: string; prize_cost: number }> }>(
      asUser(admin),
      "admin_competition_history",
    );
    const cost = 100 + 400 + 149.99 - (tablet ? 400 - 350 : 0);
    expect(history.rows.find((r) => r.slug === "every-ticket-wins")?.prize_cost).toBeCloseTo(cost, 2);

    // One ticket, three prizes: only the first is drawn.
    const lonely = await db().createCompetition(admin, { slug: "one-ticket", prizes });
    await db().call(asUser(player), "enter_competition", { p_competition_id: lonely, p_quantity: 1, p_answer: "4" });
    expect((await drawNow(admin, lonely)).map((d) => d.prize_position)).toEqual([1]);
    const [report] = await db().sql<{ competitions_drawn: number }>(
      "select (public.get_transparency_report()).all_time.competitions_drawn",
    );
    expect(report.competitions_drawn).toBeGreaterThanOrEqual(2);
    void service;
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
