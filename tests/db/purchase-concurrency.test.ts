// Purchases on a hot competition, on a real PostgreSQL 15 server where transactions run in
// parallel: an entry locks the competition row last (the counter update that numbers its
// tickets), after the player's account and the debit, behind a shared entry gate that
// cancelling and changing the terms take exclusively. These races check what that must keep
// exact: no oversell, numbers 1..N with no gaps or duplicates, each entry's numbers in one
// run, the per-person cap across online and postal entries, one ledger row per entry, and
// balances equal to ledgers. No timings here: those are bench:onsale's.
import { describe, expect, it } from "vitest";
import { approvedAccount, attemptAs, competitionFields, fundedPlayers, pg15ClusterForFile } from "./pg15";

const cluster = pg15ClusterForFile(40);

type Claims = { sub?: string; role: string; aal?: "aal1" | "aal2" };

/** One PostgREST-shaped transaction: claims and role set locally, one call, commit. */
const as = <T>(claims: Claims, sql: string, params: unknown[]) =>
  attemptAs<T>(cluster.pool, claims, claims.role, sql, params);

const player = (id: string): Claims => ({ sub: id, role: "authenticated" });
/** An admin's session, two-step verified (aal2): admin functions refuse an aal1 one. */
const adminSession = (id: string): Claims => ({ sub: id, role: "authenticated", aal: "aal2" });

async function setUp(
  tag: string,
  buyers: number,
  terms: { total: number; cap: number; price: number; numbering?: "in_order" | "pick" },
) {
  const admin = await approvedAccount(cluster.pool, `a-${tag}@t.test`, { role: "admin" });
  const ids = await fundedPlayers(cluster.pool, { prefix: `b-${tag}`, count: buyers, credits: 50, name: "Rush Buyer" });
  const made = await as<{ id: string }>(
    adminSession(admin),
    "select to_json(public.admin_create_competition($1)) as result",
    [
      competitionFields({
        title: `Rush ${tag}`,
        slug: `rush-${tag}`,
        ticket_price: terms.price,
        total_tickets: terms.total,
        max_tickets_per_user: terms.cap,
        ticket_numbering: terms.numbering ?? "in_order",
      }),
    ],
  );
  if (!made.ok) throw new Error(made.message);
  const published = await as(adminSession(admin), "select to_json(public.admin_publish_competition($1)) as result", [
    made.value.id,
  ]);
  if (!published.ok) throw new Error(published.message);
  return { admin, buyers: ids, competition: made.value.id };
}

const enter = (buyer: string, competition: string, quantity: number) =>
  as<{ entry_id: string; ticket_numbers: number[] }>(
    player(buyer),
    "select public.enter_competition($1, $2, '4') as result",
    [competition, quantity],
  );

/** What must hold after any race on one competition, whatever succeeded. */
async function expectExact(competition: string, buyers: string[]) {
  const { pool } = cluster;
  const [c] = (
    await pool.query(
      "select tickets_sold, total_tickets, postal_tickets, max_tickets_per_user, ticket_price, status from public.competitions where id = $1",
      [competition],
    )
  ).rows;
  expect(c.tickets_sold).toBeLessThanOrEqual(c.total_tickets);
  // Online numbers are exactly 1..sold; postal ones exactly after the online pool.
  const numbers = (
    await pool.query(
      `select t.number, e.kind from public.tickets t join public.entries e on e.id = t.entry_id
        where t.competition_id = $1 order by t.number`,
      [competition],
    )
  ).rows;
  const online = numbers.filter((n) => n.kind === "paid").map((n) => n.number);
  const postal = numbers.filter((n) => n.kind === "postal").map((n) => n.number);
  expect(online).toEqual(Array.from({ length: c.tickets_sold }, (_, i) => i + 1));
  expect(postal).toEqual(Array.from({ length: c.postal_tickets }, (_, i) => c.total_tickets + i + 1));
  // Each entry's tickets are one run from its first_ticket, at the competition's price.
  const entries = await pool.query(
    `select e.id from public.entries e
      where e.competition_id = $1
        and (e.quantity <> (select count(*) from public.tickets t where t.entry_id = e.id)
             or e.first_ticket <> (select min(t.number) from public.tickets t where t.entry_id = e.id)
             or e.first_ticket + e.quantity - 1 <> (select max(t.number) from public.tickets t where t.entry_id = e.id)
             or (e.kind = 'paid' and (e.unit_price <> $2 or e.amount <> e.unit_price * e.quantity)))`,
    [competition, c.ticket_price],
  );
  expect(entries.rows).toEqual([]);
  // The per-person cap over both routes.
  const overCap = await pool.query(
    `select user_id, count(*) from public.tickets where competition_id = $1 and user_id is not null
      group by user_id having count(*) > $2`,
    [competition, c.max_tickets_per_user],
  );
  expect(overCap.rows).toEqual([]);
  // Every paid entry has exactly one debit of its amount, and no debit is without its entry.
  const debits = await pool.query(
    `select e.id, e.amount, (select array_agg(l.amount) from public.credit_ledger l where l.reference = 'entry:' || e.id and l.kind = 'entry') debits
       from public.entries e where e.competition_id = $1 and e.kind = 'paid'`,
    [competition],
  );
  for (const d of debits.rows) expect(d.debits.map(Number)).toEqual([-Number(d.amount)]);
  const orphans = await pool.query(
    `select l.id from public.credit_ledger l
      where l.kind = 'entry' and l.user_id = any($1)
        and not exists (select 1 from public.entries e where 'entry:' || e.id = l.reference)`,
    [buyers],
  );
  expect(orphans.rows).toEqual([]);
  // Balances equal ledgers; account totals equal the entries.
  const mismatches = await pool.query(
    `select a.id from public.user_account_data a
      where a.id = any($1)
        and (a.credits < 0
             or a.credits <> coalesce((select sum(l.amount) from public.credit_ledger l where l.user_id = a.id), 0)
             or a.total_spent <> coalesce((select sum(e.amount) from public.entries e where e.user_id = a.id and e.status = 'active'), 0)
             or a.total_entries <> coalesce((select sum(e.quantity) from public.entries e where e.user_id = a.id and e.status = 'active'), 0))`,
    [buyers],
  );
  expect(mismatches.rows).toEqual([]);
  return c;
}

describe("PostgreSQL 15: purchases on a hot competition", () => {
  it("60 buyers, 3 purchases each at once (1 to 3 tickets) and linked postal entries, for 150 tickets with a cap of 4: sells out exactly, numbered 1…150, caps hold, ledgers match", async () => {
    const { admin, buyers, competition } = await setUp(`rush-${Date.now()}`, 60, { total: 150, cap: 4, price: 1.5 });
    const attempts = buyers.flatMap((b, i) => [
      enter(b, competition, 1 + (i % 3)),
      enter(b, competition, 2),
      enter(b, competition, 1),
    ]);
    // A postal entry for every fifth buyer races their own purchases (the cap counts both).
    const postal = buyers
      .filter((_, i) => i % 5 === 0)
      .map((b) =>
        as<{ tickets: number }>(
          adminSession(admin),
          "select to_json(public.admin_record_postal_entry($1, $2, 'Rush Buyer', '1 High Street, Leeds LS1 1AA', '4')) as result",
          [competition, b],
        ),
      );
    const results = await Promise.all([...attempts, ...postal]);
    for (const r of results) {
      if (!r.ok) {
        expect(["competition_sold_out", "not_enough_tickets", "cap_reached", "cap_exceeded"]).toContain(r.hint);
      }
    }
    const c = await expectExact(competition, buyers);
    expect(c.tickets_sold).toBe(150);
    expect(c.status).toBe("sold_out");
    // What the buyers were told matches what they hold.
    const told = results
      .slice(0, attempts.length)
      .flatMap((r) => (r.ok ? (r.value as { ticket_numbers: number[] }).ticket_numbers : []));
    expect([...told].sort((a, b) => a - b)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
  });

  it("one buyer's 12 simultaneous purchases stop exactly at the cap of 5", async () => {
    const { buyers, competition } = await setUp(`cap-${Date.now()}`, 1, { total: 1000, cap: 5, price: 1 });
    const results = await Promise.all(Array.from({ length: 12 }, () => enter(buyers[0], competition, 1)));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    for (const r of results) if (!r.ok) expect(r.hint).toBe("cap_reached");
    const c = await expectExact(competition, buyers);
    expect(c.tickets_sold).toBe(5);
  });

  it("cancelling while 40 buyers buy: no deadlock, every purchase is refunded or refused as cancelled", async () => {
    const { admin, buyers, competition } = await setUp(`cancel-${Date.now()}`, 40, { total: 1000, cap: 10, price: 2 });
    const purchases = buyers.flatMap((b) => [enter(b, competition, 1), enter(b, competition, 2)]);
    const cancel = as(
      adminSession(admin),
      "select to_json(public.admin_cancel_competition($1, 'Prize unavailable')) as result",
      [competition],
    );
    const [cancelled, ...results] = await Promise.all([cancel, ...purchases]);
    expect(cancelled.ok ? "cancelled" : cancelled.message).toBe("cancelled");
    for (const r of results) if (!r.ok) expect(r.hint).toBe("competition_cancelled");
    const { pool } = cluster;
    const left = await pool.query(
      "select count(*)::int n from public.entries where competition_id = $1 and status = 'active'",
      [competition],
    );
    expect(left.rows[0].n).toBe(0);
    // Every buyer has their £50 back: each entry was refunded in full.
    const balances = await pool.query("select credits from public.user_account_data where id = any($1)", [buyers]);
    expect(balances.rows.map((r) => Number(r.credits))).toEqual(buyers.map(() => 50));
    const c = await expectExact(competition, buyers);
    expect(c.status).toBe("cancelled");
  });

  it("a price change racing the first purchases: every ticket is sold at the price the competition ends with", async () => {
    const { admin, buyers, competition } = await setUp(`price-${Date.now()}`, 30, { total: 1000, cap: 10, price: 1 });
    const change = as(adminSession(admin), "select to_json(public.admin_update_competition($1, $2)) as result", [
      competition,
      { ticket_price: 2 },
    ]);
    const [changed, ...results] = await Promise.all([change, ...buyers.map((b) => enter(b, competition, 1))]);
    // Either the change came first (all sold at £2) or a sale did (the change is refused).
    if (!changed.ok) expect(changed.hint).toBe("edit_not_allowed");
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const c = await expectExact(competition, buyers);
    expect(Number(c.ticket_price)).toBe(changed.ok ? 2 : 1);
    expect(c.tickets_sold).toBe(30);
  });
});

describe("PostgreSQL 15: pick your numbers", () => {
  const pick = (buyer: string, competition: string, numbers: number[] | null, quantity: number) =>
    as<{ ticket_numbers: number[] }>(player(buyer), "select public.enter_competition($1, $2, '4', $3) as result", [
      competition,
      quantity,
      numbers,
    ]);

  it("50 buyers racing for #7: one ticket, 49 refusals as number_taken with their ledgers untouched", async () => {
    const { buyers, competition } = await setUp(`seven-${Date.now()}`, 50, {
      total: 100,
      cap: 5,
      price: 2,
      numbering: "pick",
    });
    const { pool } = cluster;
    const ledgerRows = async () =>
      (await pool.query("select count(*)::int as n from public.credit_ledger where user_id = any($1)", [buyers]))
        .rows[0].n;
    const before = await ledgerRows();
    const results = await Promise.all(buyers.map((b) => pick(b, competition, [7], 1)));
    const won = results.filter((r) => r.ok);
    expect(won).toHaveLength(1);
    expect(won[0].ok && won[0].value.ticket_numbers).toEqual([7]);
    const refused = results.filter((r) => !r.ok);
    expect(refused.map((r) => !r.ok && `${r.hint}: ${r.message}`)).toEqual(
      Array.from({ length: 49 }, () => "number_taken: #7 was just taken"),
    );
    // One debit in all: the 49 refusals wrote nothing.
    expect(await ledgerRows()).toBe(before + 1);
    const [c] = (
      await pool.query(
        "select tickets_sold, (select array_agg(number) from public.tickets where competition_id = $1) numbers from public.competitions where id = $1",
        [competition],
      )
    ).rows;
    expect(c).toEqual({ tickets_sold: 1, numbers: [7] });
    const mismatches = await pool.query(
      `select a.id from public.user_account_data a
        where a.id = any($1)
          and a.credits <> coalesce((select sum(l.amount) from public.credit_ledger l where l.user_id = a.id), 0)`,
      [buyers],
    );
    expect(mismatches.rows).toEqual([]);
  });

  it("60 buyers' lucky dips (3 each at once, 1 to 3 numbers) sell 200 numbers out: each sold once, no oversell, caps hold, ledgers match", async () => {
    const { buyers, competition } = await setUp(`dip-${Date.now()}`, 60, {
      total: 200,
      cap: 6,
      price: 1,
      numbering: "pick",
    });
    const results = await Promise.all(
      buyers.flatMap((b, i) => [1 + (i % 3), 2, 3].map((q) => pick(b, competition, null, q))),
    );
    for (const r of results)
      if (!r.ok)
        expect(["not_enough_tickets", "competition_sold_out", "cap_exceeded", "cap_reached"]).toContain(r.hint);
    const { pool } = cluster;
    const [c] = (
      await pool.query(
        `select c.tickets_sold, c.status, count(t.id)::int as tickets, count(distinct t.number)::int as distinct_numbers,
                min(t.number) as lo, max(t.number) as hi
           from public.competitions c join public.tickets t on t.competition_id = c.id
          where c.id = $1 group by c.id`,
        [competition],
      )
    ).rows;
    expect(c).toEqual({ tickets_sold: 200, status: "sold_out", tickets: 200, distinct_numbers: 200, lo: 1, hi: 200 });
    // Each success got the numbers it paid for; the ledgers and the cap agree.
    const sold = results.flatMap((r) => (r.ok ? r.value.ticket_numbers : []));
    expect(sold).toHaveLength(200);
    const checks = await pool.query(
      `select 'over cap' as problem from public.tickets where competition_id = $1 group by user_id having count(*) > 6
       union all
       select 'ledger' from public.user_account_data a where a.id = any($2)
          and a.credits <> coalesce((select sum(l.amount) from public.credit_ledger l where l.user_id = a.id), 0)
       union all
       select 'debit' from public.entries e where e.competition_id = $1
          and (select sum(l.amount) from public.credit_ledger l where l.reference = 'entry:' || e.id) <> -e.amount`,
      [competition, buyers],
    );
    expect(checks.rows).toEqual([]);
  });
});
