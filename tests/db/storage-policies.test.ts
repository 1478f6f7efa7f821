// The image buckets and their row-level policies on storage.objects: competition-images (public: served by name)
// and winner-photos (private). Only an admin at aal2 reads, adds, replaces or removes rows; visitors and
// players read none, so neither bucket can be listed (competition images are still served by name from the
// public bucket; winner photos only through the site). Other buckets are not opened by them. The same
// statements the Storage API runs as the caller (packages/embedded-supabase/src/storage.ts), on PGlite and on a
// real PostgreSQL 15 (where hosted Supabase's storage schema has the same columns). Our own form of splinter's
// public_bucket_allows_listing check runs on both.
import { describe, expect, it } from "vitest";
import { pg15ClusterForFile } from "./pg15";
import {
  anon,
  asUser,
  asUserAtAal1,
  becomeCaller,
  claimsOf,
  dbPerFile,
  toDbError,
  type Caller,
  type DbError,
} from "./support";

const db = dbPerFile();
const cluster = pg15ClusterForFile(4);
const BUCKETS = ["competition-images", "winner-photos"] as const;

const INSERT = `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
  values ($1, $2, ($3::jsonb ->> 'sub')::uuid, $3::jsonb ->> 'sub', gen_random_uuid()::text,
          '{"mimetype":"image/webp","size":10}'::jsonb) returning name`;
const RLS_REFUSAL = { code: "42501", message: 'new row violates row-level security policy for table "objects"' };

type Outcome = { rows: Array<Record<string, unknown>>; error: null } | { rows: null; error: DbError };
type As = (caller: Caller, sql: string, params?: unknown[]) => Promise<Outcome>;

const insert = (as: As, caller: Caller, name: string, bucket: string) =>
  as(caller, INSERT, [bucket, name, JSON.stringify(claimsOf(caller))]);

/** One bucket's policy checks, run through `as` (PGlite's or PostgreSQL 15's) with users `makeUser` creates. */
function policyChecks(bucket: string, as: () => As, makeUser: (role: "user" | "admin") => Promise<string>) {
  it(`${bucket}: an admin at aal2 adds, renames (update) and removes an image`, async () => {
    const admin = await makeUser("admin");
    const name = `db/${crypto.randomUUID()}.webp`;
    expect(await insert(as(), asUser(admin), name, bucket)).toEqual({ rows: [{ name }], error: null });
    const renamed = `${name}.renamed`;
    const updated = await as()(
      asUser(admin),
      "update storage.objects set name = $2 where bucket_id = $3 and name = $1 returning name",
      [name, renamed, bucket],
    );
    expect(updated).toEqual({ rows: [{ name: renamed }], error: null });
    const removed = await as()(
      asUser(admin),
      "delete from storage.objects where bucket_id = $2 and name = $1 returning name",
      [renamed, bucket],
    );
    expect(removed).toEqual({ rows: [{ name: renamed }], error: null });
  });

  it(`${bucket}: a player, a visitor and an admin at aal1 cannot add; nobody but an admin changes or removes`, async () => {
    const [player, admin] = [await makeUser("user"), await makeUser("admin")];
    expect((await insert(as(), asUser(player), "db/player.webp", bucket)).error).toMatchObject(RLS_REFUSAL);
    expect((await insert(as(), anon, "db/anon.webp", bucket)).error).toMatchObject(RLS_REFUSAL);
    expect((await insert(as(), asUserAtAal1(admin), "db/aal1.webp", bucket)).error).toMatchObject(RLS_REFUSAL);

    const name = `db/${crypto.randomUUID()}.webp`;
    await insert(as(), asUser(admin), name, bucket);
    for (const caller of [asUser(player), asUserAtAal1(admin), anon]) {
      const updated = await as()(
        caller,
        "update storage.objects set name = 'db/taken.webp' where name = $1 returning name",
        [name],
      );
      expect(updated).toEqual({ rows: [], error: null });
      const removed = await as()(caller, "delete from storage.objects where name = $1 returning name", [name]);
      expect(removed).toEqual({ rows: [], error: null });
    }
    const still = await as()(asUser(admin), "select name from storage.objects where name = $1", [name]);
    expect(still.rows).toEqual([{ name }]);
  });

  it(`${bucket}: only an admin at aal2 reads the bucket's rows; the policies open no other bucket`, async () => {
    const admin = await makeUser("admin");
    const name = `db/${crypto.randomUUID()}.webp`;
    await insert(as(), asUser(admin), name, bucket);
    const rowsOf = async (caller: Caller) =>
      (await as()(caller, "select name from storage.objects where bucket_id = $1", [bucket])).rows;
    expect(await rowsOf(asUser(admin))).toContainEqual({ name });
    for (const caller of [anon, asUser(await makeUser("user")), asUserAtAal1(admin)]) {
      expect(await rowsOf(caller)).toEqual([]);
    }
    expect((await insert(as(), asUser(admin), "elsewhere.webp", "other-bucket")).error).toMatchObject(RLS_REFUSAL);
  });
}

interface PolicyRow {
  bucket: string;
  policyname: string;
  permissive: string;
  roles: string[];
  cmd: string;
  qual: string | null;
}

/** Every policy on storage.objects beside every public bucket: what the listing check reads. */
const PUBLIC_BUCKET_POLICIES = `select b.id as bucket, p.policyname, p.permissive, p.roles::text[] as roles, p.cmd, p.qual
  from storage.buckets b cross join pg_catalog.pg_policies p
  where b.public and p.schemaname = 'storage' and p.tablename = 'objects'`;

const VISITOR_ROLES = new Set(["public", "anon", "authenticated"]);

/**
 * Public buckets whose objects a visitor can list: a permissive select (or all) policy for anon, authenticated
 * or public whose condition is nothing, always true, or only "this bucket" (casts and brackets aside). A public
 * bucket serves an object by name without any policy, so such a policy only adds listing: the rule behind
 * splinter's public_bucket_allows_listing.
 */
function bucketsVisitorsList(rows: PolicyRow[]): string[] {
  const broad = (row: PolicyRow) => {
    if (row.qual === null) return true;
    const condition = row.qual
      .toLowerCase()
      .replace(/::[a-z_."]+/g, "")
      .replace(/[\s()]/g, "");
    return ["true", "1=1", `bucket_id='${row.bucket.toLowerCase().replaceAll("'", "''")}'`].includes(condition);
  };
  const listed = rows.filter(
    (row) =>
      row.permissive === "PERMISSIVE" &&
      (row.cmd === "SELECT" || row.cmd === "ALL") &&
      row.roles.some((role) => VISITOR_ROLES.has(role)) &&
      broad(row),
  );
  return [...new Set(listed.map((row) => `${row.bucket}: ${row.policyname}`))].sort();
}

describe("competition images on PGlite", () => {
  const as: As = async (caller, sql, params = []) => db().as(caller, sql, params);

  it("competition images are public, winner photos private; both 5 MB, JPEG, PNG and WebP", async () => {
    const rows = await db().sql(
      "select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = any ($1) order by id",
      [BUCKETS],
    );
    const limits = { file_size_limit: 5242880, allowed_mime_types: ["image/jpeg", "image/png", "image/webp"] };
    expect(rows).toEqual([
      { id: "competition-images", public: true, ...limits },
      { id: "winner-photos", public: false, ...limits },
    ]);
    await db().sql("insert into storage.buckets (id, name) values ('other-bucket', 'other-bucket')");
  });

  it("no public bucket lets visitors list it; the check finds a policy that would", async () => {
    expect(bucketsVisitorsList(await db().sql<PolicyRow>(PUBLIC_BUCKET_POLICIES))).toEqual([]);
    // The check itself, on the kind of policy the buckets had: found, then dropped again.
    await db().sql(`create policy "listing probe" on storage.objects for select to anon
      using ((bucket_id = 'competition-images'::text))`);
    try {
      expect(bucketsVisitorsList(await db().sql<PolicyRow>(PUBLIC_BUCKET_POLICIES))).toEqual([
        "competition-images: listing probe",
      ]);
    } finally {
      await db().sql(`drop policy "listing probe" on storage.objects`);
    }
  });

  for (const bucket of BUCKETS) {
    policyChecks(
      bucket,
      () => as,
      (role) => db().createUser({ role, approved: true }),
    );
  }
});

describe("competition images on PostgreSQL 15", () => {
  let count = 0;
  const as: As = async (caller, sql, params = []) => {
    const client = await cluster.pool.connect();
    try {
      await client.query("begin");
      await becomeCaller(client, caller);
      const res = await client.query(sql, params);
      await client.query("commit");
      return { rows: res.rows, error: null };
    } catch (e) {
      await client.query("rollback");
      return { rows: null, error: toDbError(e) };
    } finally {
      client.release();
    }
  };
  const makeUser = async (role: "user" | "admin") => {
    count += 1;
    const { rows } = await cluster.pool.query(
      'insert into auth.users (email, raw_user_meta_data) values ($1, \'{"name":"Pic Tester","date_of_birth":"1990-01-01"}\') returning id',
      [`pics-${count}@t.test`],
    );
    await cluster.pool.query("update public.user_account_data set approved = true, role = $2 where id = $1", [
      rows[0].id,
      role,
    ]);
    return rows[0].id as string;
  };

  it("the migrations made the buckets", async () => {
    const { rows } = await cluster.pool.query(
      "select id, public, file_size_limit::int as limit from storage.buckets where id = any ($1) order by id",
      [BUCKETS],
    );
    expect(rows).toEqual([
      { id: "competition-images", public: true, limit: 5242880 },
      { id: "winner-photos", public: false, limit: 5242880 },
    ]);
    await cluster.pool.query("insert into storage.buckets (id, name) values ('other-bucket', 'other-bucket')");
  });

  it("no public bucket lets visitors list it", async () => {
    const { rows } = await cluster.pool.query<PolicyRow>(PUBLIC_BUCKET_POLICIES);
    expect(rows.map((row) => row.bucket)).toContain("competition-images");
    expect(bucketsVisitorsList(rows)).toEqual([]);
  });

  for (const bucket of BUCKETS) policyChecks(bucket, () => as, makeUser);
});
