// get_my_account returns the declared public.my_account now (docs/decisions/007). The proxy
// reads it on every request, so its JSON must be what the jsonb version answered: for every seed user, at both
// assurance levels, the new result as PostgREST renders it equals the old body's jsonb (private.account_json of
// 20261129430000 and before, merged with two_step_owed and welcome_due), key for key, with the same nulls,
// numbers, booleans and timestamps.
import { describe, expect, it } from "vitest";
import { asUser, asUserAtAal1, claimsOf, dbPerFile, type Caller } from "./support";

const db = dbPerFile({ seed: true });

// The old body, word for word, run as the database owner with the caller's claims (as the gateway sets them).
const OLD_GET_MY_ACCOUNT = `
  select jsonb_build_object(
    'id', p.id,
    'name', p.name,
    'email', p.email,
    'email_notifications', p.email_notifications,
    'date_of_birth', p.date_of_birth,
    'town', p.town,
    'show_initials_only', p.show_initials_only,
    'credits', a.credits,
    'role', a.role,
    'approved', a.approved,
    'approved_at', a.approved_at,
    'approved_by', a.approved_by,
    'rejected_at', a.rejected_at,
    'rejection_reason', a.rejection_reason,
    'total_spent', a.total_spent,
    'total_entries', a.total_entries,
    'kyc_status', a.kyc_status,
    'is_verified', a.is_verified,
    'verified_at', a.verified_at,
    'age_verified', a.age_verified,
    'metadata', a.metadata,
    'created_at', p.created_at)
  || jsonb_build_object(
    'two_step_owed', private.two_step_owed(),
    'welcome_due', exists (select 1 from public.user_account_data w
                            where w.id = p.id and w.approved and w.approval_welcomed_at is null)) as value
  from public.profiles p
  join public.user_account_data a on a.id = p.id
  where p.id = $1`;

async function oldAnswer(caller: Caller, id: string): Promise<unknown> {
  return db().pg.transaction(async (tx) => {
    await tx.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claimsOf(caller))]);
    return (await tx.query<{ value: unknown }>(OLD_GET_MY_ACCOUNT, [id])).rows[0]?.value;
  });
}

describe("get_my_account as a declared type", () => {
  it("answers every seed user exactly what the jsonb version did, at aal1 and aal2", async () => {
    // A verified factor makes two_step_owed true at aal1, so both of its values are compared.
    const ids = (await db().sql<{ id: string }>("select id from public.profiles order by created_at, id")).map(
      (r) => r.id,
    );
    expect(ids.length).toBeGreaterThan(2);
    await db().addSecondFactor(ids[0]);
    const owed: boolean[] = [];
    for (const id of ids) {
      for (const caller of [asUser(id), asUserAtAal1(id)]) {
        const now = await db().call<Record<string, unknown>>(caller, "get_my_account");
        expect(now).toEqual(await oldAnswer(caller, id));
        owed.push(now.two_step_owed as boolean);
      }
    }
    expect(owed).toContain(true);
    expect(owed).toContain(false);
  });

  it("gives the same answer after the profile rows were lost and made again", async () => {
    const id = await db().createPlayer({ credits: 12.5 });
    await db().sql("delete from public.profiles where id = $1", [id]);
    const now = await db().call<Record<string, unknown>>(asUser(id), "get_my_account");
    expect(now).toEqual(await oldAnswer(asUser(id), id));
    expect(now).toMatchObject({ id, credits: 12.5 });
  });
});
