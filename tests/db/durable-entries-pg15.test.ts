// A purchase commits asynchronously and make_entries_durable() makes it durable (docs/decisions/022).
// enter_competition sets synchronous_commit off for its own transaction on success only, so one competition's
// counter queue passes on without waiting for the disk; the caller answers the player after make_entries_durable,
// whose synchronous commit flushes the WAL past the purchase. Shown on PostgreSQL 15 by WAL positions, on a
// cluster of its own (the shared one's other files flush the WAL at any moment), with the default durability of
// hosted Supabase for these sessions; and on PGlite, which has no WAL writer, by the same positions and by a
// crash image of its data directory.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvedAccount, competitionFields, fundedPlayers, startPg15, type Pg15 } from "./pg15";
import { asUser, becomeCaller, dbPerFile, freshDb, TestDb, type Caller } from "./support";

/** synchronous_commit as the transaction's commit will obey it: read after the call, before the commit. */
const SETTING = "select current_setting('synchronous_commit') as setting";

describe("PostgreSQL 15", () => {
  let server: Pg15 | undefined;
  let pool: pg.Pool;
  let competition: string;
  let buyers: string[];

  beforeAll(async () => {
    server = await startPg15();
    const admin = new pg.Client(server.config);
    await admin.connect();
    try {
      // The WAL writer flushes asynchronous commits by itself every wal_writer_delay: at its longest, with nothing
      // else flushing (no autovacuum, no timed checkpoint), a flush seen below is the one the test made.
      await admin.query("alter system set wal_writer_delay = '10s'");
      await admin.query("alter system set autovacuum = off");
      await admin.query("alter system set checkpoint_timeout = '1h'");
      await admin.query("select pg_reload_conf()");
      const adminId = await approvedAccount(admin, "admin@t.test", { role: "admin" });
      buyers = await fundedPlayers(admin, { prefix: "buyer", count: 2, credits: 100, name: "Durable Buyer" });
      await admin.query("begin");
      await admin.query(
        "select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)",
        [JSON.stringify({ sub: adminId, role: "authenticated", aal: "aal2" })],
      );
      const made = await admin.query("select (public.admin_create_competition($1)).id as id", [
        competitionFields({ title: "Durable", slug: "durable", total_tickets: 1000, max_tickets_per_user: 100 }),
      ]);
      competition = made.rows[0].id;
      await admin.query("select public.admin_publish_competition($1)", [competition]);
      await admin.query("commit");
    } finally {
      await admin.end();
    }
    // Hosted Supabase's default; the test cluster's own is off (scripts/pg15.ts).
    pool = new pg.Pool({ ...server.config, max: 2, options: "-c synchronous_commit=on" });
  });

  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });

  /** A PostgREST-shaped transaction as `buyer`: `work` runs inside it; its answer once committed. */
  async function as<T>(client: pg.PoolClient, buyer: string, work: () => Promise<T>): Promise<T> {
    await client.query("begin");
    try {
      await client.query(
        "select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)",
        [JSON.stringify({ sub: buyer, role: "authenticated" })],
      );
      const answer = await work();
      await client.query("commit");
      return answer;
    } catch (e) {
      await client.query("rollback");
      throw e;
    }
  }

  const lsns = async () =>
    (
      await pool.query<{ inserted: string; flushed: string }>(
        "select pg_current_wal_insert_lsn()::text as inserted, pg_current_wal_flush_lsn()::text as flushed",
      )
    ).rows[0];
  /** Whether the WAL is flushed up to `lsn`. */
  const flushedTo = async (lsn: string) =>
    (await pool.query<{ done: boolean }>("select pg_current_wal_flush_lsn() >= $1::pg_lsn as done", [lsn])).rows[0]
      .done;

  it("a purchase commits without a flush, and make_entries_durable's commit flushes past it; an xid alone would not", async () => {
    const client = await pool.connect();
    try {
      const enter = (quantity: number) =>
        as(client, buyers[0], async () => {
          await client.query("select public.enter_competition($1, $2, '4')", [competition, quantity]);
          return (await client.query<{ setting: string }>(SETTING)).rows[0].setting;
        });
      // Let the WAL writer flush once (a purchase of more than a WAL page wakes it): its next flush of its own
      // is then wal_writer_delay away, longer than what follows takes.
      const start = await lsns();
      await enter(20);
      for (const until = Date.now() + 30_000; !(await flushedTo(start.inserted)) && Date.now() < until;)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await flushedTo(start.inserted)).toBe(true);

      expect(await enter(1)).toBe("off");
      // Nothing has written since the purchase's commit record, which ends here.
      const { inserted: committed } = await lsns();
      expect(await flushedTo(committed)).toBe(false);
      // A transaction with an xid but no WAL of its own commits without a flush, whatever synchronous_commit says.
      await client.query("begin");
      await client.query("select txid_current()");
      await client.query("commit");
      expect(await flushedTo(committed)).toBe(false);
      await as(client, buyers[0], () => client.query("select public.make_entries_durable()"));
      expect(await flushedTo(committed)).toBe(true);
    } finally {
      client.release();
    }
  });

  it("a wrong answer's recorded miss commits synchronously, as everything but a purchase does", async () => {
    const client = await pool.connect();
    try {
      const { refused, setting } = await as(client, buyers[1], async () => ({
        refused: (await client.query("select public.enter_competition($1, 1, '3') as result", [competition])).rows[0]
          .result.refused,
        setting: (await client.query<{ setting: string }>(SETTING)).rows[0].setting,
      }));
      expect(refused.code).toBe("answer_incorrect");
      expect(setting).toBe("on");
    } finally {
      client.release();
    }
  });
});

describe("PGlite (the embedded backend)", () => {
  const db = dbPerFile();

  async function enter(tx: Pick<PGlite, "query">, caller: Caller, competition: string): Promise<string> {
    await becomeCaller(tx, caller);
    await tx.query("select public.enter_competition($1, 1, '4')", [competition]);
    return (await tx.query<{ setting: string }>(SETTING)).rows[0].setting;
  }

  it("a purchase's commit stays in the WAL buffers until make_entries_durable's commit writes and flushes it", async () => {
    const admin = await db().createAdmin();
    const competition = await db().createCompetition(admin);
    const player = await db().createPlayer({ credits: 10 });
    expect(await db().pg.transaction((tx) => enter(tx, asUser(player), competition))).toBe("off");
    const [{ committed }] = await db().sql<{ committed: string }>(
      "select pg_current_wal_insert_lsn()::text as committed",
    );
    const flushed = async () =>
      (await db().sql<{ done: boolean }>("select pg_current_wal_flush_lsn() >= $1::pg_lsn as done", [committed]))[0]
        .done;
    expect(await flushed()).toBe(false);
    await db().call(asUser(player), "make_entries_durable");
    expect(await flushed()).toBe(true);
  });

  it("a crash keeps the purchase made durable and loses only the one after it, numbering intact", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "labcash-durable-"));
    const template = await freshDb();
    const image = await template.pg.dumpDataDir("none");
    await template.close();
    const live = new TestDb(
      await PGlite.create({ dataDir: path.join(dir, "live"), loadDataDir: image, extensions: { pgcrypto } }),
    );
    let after: TestDb | undefined;
    try {
      const admin = await live.createAdmin();
      const competition = await live.createCompetition(admin);
      const player = await live.createPlayer({ credits: 10 });
      await live.pg.transaction((tx) => enter(tx, asUser(player), competition));
      await live.call(asUser(player), "make_entries_durable");
      await live.pg.transaction((tx) => enter(tx, asUser(player), competition));
      // The files as they are now are what a process killed now leaves (PGlite writes them directly; nothing
      // runs between two of its queries).
      await cp(path.join(dir, "live"), path.join(dir, "crashed"), { recursive: true });
      after = new TestDb(await PGlite.create({ dataDir: path.join(dir, "crashed"), extensions: { pgcrypto } }));
      expect(await live.sql("select number from public.tickets where competition_id = $1", [competition])).toHaveLength(
        2,
      );
      expect(
        await after.sql(
          "select tickets_sold, (select array_agg(number) from public.tickets t where t.competition_id = c.id) as numbers from public.competitions c where id = $1",
          [competition],
        ),
      ).toEqual([{ tickets_sold: 1, numbers: [1] }]);
      expect(await after.ledgerMismatches()).toEqual([]);
    } finally {
      await live.close();
      await after?.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
