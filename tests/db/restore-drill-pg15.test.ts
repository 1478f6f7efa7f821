// The restore drill (`npm run db:drill`) on PostgreSQL 15: a seeded database dumped with pg_dump 15,
// restored with pg_restore 15 into a fresh cluster, and the restored copy checked: every balance equals its
// ledger, every sold count its tickets, every draw re-verifies, and every counted table has all its rows. The
// checks themselves are shown to catch a broken copy.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { checkInvariants, restoreDrill } from "../../scripts/db-drill";
import { pg15ClusterForFile } from "./pg15";

// The checks' own test runs on a seeded copy in the run's shared cluster; the drill itself starts its own two.
const cluster = pg15ClusterForFile(1, { seed: true });

describe("the restore drill", () => {
  it("restores a dump into a fresh PostgreSQL 15 and every invariant holds", async () => {
    const report = await restoreDrill();
    expect(report.problems).toEqual([]);
    expect(report.users).toBeGreaterThan(0);
    expect(report.rows["public.credit_ledger"]).toBeGreaterThan(0);
    expect(report.rows["public.tickets"]).toBeGreaterThan(0);
    expect(report.draws).toBeGreaterThan(0);
  }, 240_000);

  it("finds a balance that is not its ledger, a sold count that is not its tickets and a draw that does not verify", async () => {
    const client = new pg.Client(cluster.config);
    await client.connect();
    try {
      expect((await checkInvariants(client)).problems).toEqual([]);
      await client.query(
        "update public.user_account_data set credits = credits + 1 where id = (select user_id from public.credit_ledger limit 1)",
      );
      await client.query(
        "update public.competitions set tickets_sold = tickets_sold - 1 where tickets_sold > 0 and id = (select competition_id from public.draws limit 1)",
      );
      await client.query(
        "update public.draws set seed_hex = repeat('0', 64) where id = (select id from public.draws limit 1)",
      );
      const { problems } = await checkInvariants(client);
      expect(problems.some((p) => /balance .* but its ledger sums to/.test(p))).toBe(true);
      expect(problems.some((p) => /sold online but/.test(p))).toBe(true);
      expect(problems.some((p) => /does not verify/.test(p))).toBe(true);
    } finally {
      await client.end();
    }
  }, 240_000);
});
