// The migrations on a real PostgreSQL 15 (hosted Supabase's oldest), and the deduction
// race on truly parallel connections. Fails, never skips, when PostgreSQL 15 is missing:
// CI installs Debian's postgresql-15.
import { describe, expect, it } from "vitest";
import { readdir } from "node:fs/promises";
import { migrationsDir } from "@/supabase/embedded";
import { pg15ClusterForFile } from "./pg15";
import { EXPECTED_RACE_OUTCOME, RACE, asUser, asUserAtAal1, becomeCaller, raceOutcome, service } from "./support";

// Without PostgreSQL 15 the file fails with the reason (its set-up throws), never skips.
const cluster = pg15ClusterForFile(20, { seed: true });

/** One gateway request: a transaction as `caller`. */
async function asCaller<T>(caller: Parameters<typeof becomeCaller>[1], sql: string, params: unknown[]): Promise<T[]> {
  const client = await cluster.pool.connect();
  try {
    await client.query("begin");
    await becomeCaller(client, caller);
    const { rows } = await client.query(sql, params);
    await client.query("commit");
    return rows as T[];
  } catch (e) {
    await client.query("rollback");
    throw e;
  } finally {
    client.release();
  }
}

describe("PostgreSQL 15", () => {
  it("runs version 15 with the shim, every migration and the seed applied", async () => {
    const [{ v }] = (await cluster.pool.query("select current_setting('server_version_num')::int as v")).rows;
    expect(Math.floor(v / 10000)).toBe(15);
    const files = (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql")).sort();
    const applied = (
      await cluster.pool.query("select version from supabase_migrations.schema_migrations order by version")
    ).rows;
    expect(applied.map((r) => r.version)).toEqual([...files.map((f) => f.split("_")[0]), "seed"]);
    const roles = (
      await cluster.pool.query(
        "select u.email, a.role from public.user_account_data a join auth.users u using (id) order by u.email",
      )
    ).rows;
    expect(roles).toContainEqual({ email: "superadmin@labcash.test", role: "super_admin" });
    expect((await cluster.pool.query("select count(*)::int as n from public.credit_ledger")).rows[0].n).toBeGreaterThan(
      0,
    );
  });

  it("answers a user RPC through the gateway's transaction shape", async () => {
    const [{ id }] = (
      await cluster.pool.query(
        'insert into auth.users (email, raw_user_meta_data) values (\'pg15@labcash.test\', \'{"name":"Pee Gee","date_of_birth":"1990-01-01"}\') returning id',
      )
    ).rows;
    const [{ account }] = await asCaller<{ account: Record<string, unknown> }>(
      asUser(id),
      "select to_json(public.get_my_account()) as account",
      [],
    );
    expect(account).toMatchObject({
      id,
      name: "Pee Gee",
      credits: 0,
      role: "user",
      approved: false,
      kyc_status: "none",
    });
  });

  it("refuses a player's write at aal1 while they have a verified second factor, and allows it at aal2", async () => {
    const [{ id }] = (
      await cluster.pool.query(
        'insert into auth.users (email, raw_user_meta_data) values (\'pg15-two-step@labcash.test\', \'{"name":"Two Step","date_of_birth":"1990-01-01"}\') returning id',
      )
    ).rows;
    await cluster.pool.query(
      "insert into auth.mfa_factors (user_id, friendly_name, factor_type, status) values ($1, 'Authenticator app', 'totp', 'verified')",
      [id],
    );
    const rename = "select to_json(public.update_my_profile(p_name => 'Renamed')) as account";
    await expect(asCaller(asUserAtAal1(id), rename, [])).rejects.toMatchObject({
      code: "42501",
      message: "Two-step verification required",
      hint: "aal2_required",
    });
    const [{ account }] = await asCaller<{ account: Record<string, unknown> }>(
      asUserAtAal1(id),
      "select to_json(public.get_my_account()) as account",
      [],
    );
    expect(account).toMatchObject({ name: "Two Step", two_step_owed: true });
    const [{ account: renamed }] = await asCaller<{ account: Record<string, unknown> }>(asUser(id), rename, []);
    expect(renamed).toMatchObject({ name: "Renamed" });
  });

  it(`${RACE.calls} deductions of 1 from ${RACE.balance} on 20 parallel connections: exactly ${RACE.balance} succeed`, async () => {
    const [{ id }] = (
      await cluster.pool.query(
        "insert into auth.users (email, raw_user_meta_data) values ('racer@labcash.test', '{\"date_of_birth\":\"1990-01-01\"}') returning id",
      )
    ).rows;
    await cluster.pool.query("update public.user_account_data set approved = true, approved_at = now() where id = $1", [
      id,
    ]);
    await asCaller(service, "select public.add_credits(user_id => $1, amount => $2)", [id, RACE.balance]);

    let inFlight = 0;
    let maxInFlight = 0;
    const deduct = async (): Promise<boolean> => {
      const client = await cluster.pool.connect();
      try {
        await client.query("begin");
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await becomeCaller(client, asUser(id));
        const { rows } = await client.query("select public.deduct_credits(user_id => $1, amount => 1) as ok", [id]);
        await client.query("commit");
        return rows[0].ok as boolean;
      } catch (e) {
        await client.query("rollback");
        throw e;
      } finally {
        inFlight -= 1;
        client.release();
      }
    };
    const results = await Promise.all(Array.from({ length: RACE.calls }, deduct));
    expect(maxInFlight).toBeGreaterThan(1); // transactions really overlapped
    expect(await raceOutcome(cluster.pool, id, results)).toEqual(EXPECTED_RACE_OUTCOME);
  });
});
