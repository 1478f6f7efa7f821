// admin_user_ledger returns the declared public.admin_ledger_page now (DECISIONS.md "Shapes from the database",
// the third batch): an array of public.admin_ledger_row and the next page's key. The old body
// (80-admin-and-audit.sql before 20261130300301) runs here word for word beside the new function, page by page
// through a player's ledger (top-ups, an admin's adjustment, entries) and for a player with no rows, and both
// answers are compared as JSON.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, claimsOf, dbPerFile } from "./support";

const db = dbPerFile();

const OLD_ADMIN_USER_LEDGER = `
create schema old;
create function old.admin_user_ledger(p_user_id uuid, p_before bigint default null, p_limit integer default 25)
returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 200);
  page_rows jsonb;
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.admin_user_target(p_user_id);
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', r.id, 'kind', r.kind, 'amount', r.amount, 'balance_after', r.balance_after, 'reason', r.reason,
           'reference', r.reference, 'created_at', r.created_at, 'created_by_name', cb.name)
           order by r.id desc) filter (where r.n <= page_size), '[]'::jsonb),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select l.*, row_number() over (order by l.id desc) as n
            from public.credit_ledger l
           where l.user_id = p_user_id and (p_before is null or l.id < p_before)
           order by l.id desc
           limit page_size + 1) r
    left join public.profiles cb on cb.id = r.created_by;
  return jsonb_build_object('rows', page_rows, 'next_before', case when fetched > page_size then last_id end);
end;
$$;`;

let admin: string;
beforeAll(async () => {
  await db().pg.exec(OLD_ADMIN_USER_LEDGER);
  admin = await db().createUser({ role: "super_admin", approved: true });
});

async function oldPage(userId: string, before: number | null, limit: number): Promise<unknown> {
  return db().pg.transaction(async (tx) => {
    await tx.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claimsOf(asUser(admin)))]);
    return (
      await tx.query<{ value: unknown }>("select old.admin_user_ledger($1, $2, $3) as value", [userId, before, limit])
    ).rows[0]?.value;
  });
}

describe("admin_user_ledger as a declared type", () => {
  it("answers every page what the jsonb version did, and an empty ledger the same", async () => {
    const player = await db().createPlayer({ credits: 40 });
    const competition = await db().createCompetition(admin, { ticket_price: 2.5, total_tickets: 100 });
    await db().call(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: 12.34, p_reason: "Goodwill" });
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 3,
      p_answer: "4",
    });
    let before: number | null = null;
    const kinds: string[] = [];
    for (let page = 0; page < 10; page++) {
      const now: { rows: { kind: string }[]; next_before: number | null } = await db().call(
        asUser(admin),
        "admin_user_ledger",
        { p_user_id: player, p_before: before, p_limit: 2 },
      );
      expect(now).toEqual(await oldPage(player, before, 2));
      kinds.push(...now.rows.map((r) => r.kind));
      before = now.next_before;
      if (before === null) break;
    }
    expect(kinds).toEqual(expect.arrayContaining(["entry", "admin_adjustment"]));
    expect(before).toBeNull();

    const empty = await db().createPlayer();
    expect(await db().call(asUser(admin), "admin_user_ledger", { p_user_id: empty })).toEqual(
      await oldPage(empty, null, 25),
    );
  });
});
