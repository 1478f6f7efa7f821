// Instant wins under real parallel purchases (PostgreSQL 15; PGlite runs transactions one at a time):
// 50 buyers race for a competition whose winning numbers are all sold; each is awarded exactly once,
// to the buyer holding that number, with the ledger and the spin grants to match.
import { describe, expect, it } from "vitest";
import { approvedAccount, fundedPlayers, pg15ClusterForFile, resultAs } from "./pg15";

const cluster = pg15ClusterForFile(40);

const as = <T>(claims: Record<string, string>, sql: string, params: unknown[]) =>
  resultAs<T>(cluster.pool, claims, "authenticated", sql, params);

describe("PostgreSQL 15: instant wins under concurrent buyers", () => {
  it("50 buyers racing for 40 tickets with 10 winning numbers: each awarded exactly once, to its ticket's holder", async () => {
    const tag = Date.now();
    const admin = await approvedAccount(cluster.pool, `admin-${tag}@t.test`, { role: "admin" });
    const buyers = await fundedPlayers(cluster.pool, {
      prefix: `iw-${tag}`,
      count: 50,
      credits: 5,
      name: "Race Buyer",
    });
    const adminClaims = { sub: admin, role: "authenticated", aal: "aal2" };
    const create = (slug: string) =>
      as<{ id: string }>(adminClaims, "select to_json(public.admin_create_competition($1)) as result", [
        {
          title: `Instant ${slug}`,
          slug,
          prize_description: "Race prize",
          prize_value: 10,
          ticket_price: 1,
          total_tickets: 40,
          max_tickets_per_user: 2,
          closes_at: new Date(Date.now() + 86400_000).toISOString(),
        },
      ]);
    // An ordinary live competition first: instant-win ones may be at most half of the live ones.
    const ordinary = await create(`ordinary-${tag}`);
    await as(adminClaims, "select to_json(public.admin_publish_competition($1)) as result", [ordinary.id]);
    const comp = await create(`instant-${tag}`);
    await as(adminClaims, "select to_json(public.admin_set_instant_win_prizes($1, $2)) as result", [
      comp.id,
      JSON.stringify([
        { kind: "credit", credit_amount: 1, quantity: 5 },
        { kind: "spin", quantity: 5 },
      ]),
    ]);
    await as(adminClaims, "select to_json(public.admin_publish_competition($1)) as result", [comp.id]);

    const results = await Promise.allSettled(
      buyers.map((b, i) =>
        as<{ ticket_numbers: number[]; instant_wins: { ticket_number: number }[] }>(
          { sub: b, role: "authenticated" },
          "select public.enter_competition($1, $2) as result",
          [comp.id, 1 + (i % 2)],
        ),
      ),
    );
    const sold = results.flatMap((r) => (r.status === "fulfilled" ? r.value.ticket_numbers : []));
    expect(sold.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const reported = results.flatMap((r) =>
      r.status === "fulfilled" ? r.value.instant_wins.map((w) => w.ticket_number) : [],
    );

    const { rows: wins } = await cluster.pool.query(
      `select w.ticket_number, w.user_id = t.user_id as holder, n.number is not null as winning
         from public.instant_wins w
         join public.tickets t on t.id = w.ticket_id
         left join public.instant_win_numbers n on n.competition_id = w.competition_id and n.number = w.ticket_number
        where w.competition_id = $1 order by w.ticket_number`,
      [comp.id],
    );
    expect(wins).toHaveLength(10);
    expect(wins.every((w) => w.holder && w.winning)).toBe(true);
    expect(reported.sort((a, b) => a - b)).toEqual(wins.map((w) => w.ticket_number));
    const { rows: awards } = await cluster.pool.query(
      `select (select count(*)::int from public.credit_ledger where kind = 'instant_win' and reference like 'instant_win:%') as credits,
              (select count(*)::int from public.spinner_grants where reference like 'instant_win:%') as spins,
              (select count(*)::int from public.user_account_data a
                where a.credits <> coalesce((select sum(l.amount) from public.credit_ledger l where l.user_id = a.id), 0)) as mismatched`,
    );
    expect(awards[0]).toEqual({ credits: 5, spins: 5, mismatched: 0 });
  }, 180_000);
});
