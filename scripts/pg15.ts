// A throwaway PostgreSQL 15 cluster for the db tests and the restore drill (npm run db:drill): proves the migrations use nothing
// newer than 15 (hosted Supabase runs 15 and 17) and lets races run on truly parallel
// connections, which PGlite's single connection cannot. Needs Debian's postgresql-15
// (`apt-get install -y postgresql-15`); without it the tests that use it fail, loudly.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chown, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { alive } from "@labcash/embedded-supabase/cli";
import { shimFile } from "@labcash/embedded-supabase/db";
import { migrationsDir, seedFile } from "@/supabase/embedded";

export const PG15_BIN = process.env.PG15_BIN ?? "/usr/lib/postgresql/15/bin";

export interface Pg15 {
  /** Connection settings for the `postgres` superuser over the cluster's unix socket. */
  config: pg.ClientConfig;
  pool(max: number): pg.Pool;
  stop(): Promise<void>;
}

function missing(what: string): Error {
  return new Error(
    `PostgreSQL 15 is required for these tests but ${what}. ` +
      "Install Debian's package: `apt-get update && apt-get install -y postgresql-15` " +
      "(or point PG15_BIN at a PostgreSQL 15 bin directory).",
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** initdb and postgres refuse to run as root: as root, run them as the `postgres` user. */
export async function serviceAccount(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const line = (await readFile("/etc/passwd", "utf8")).split("\n").find((l) => l.startsWith("postgres:"));
  if (!line) throw missing("there is no `postgres` system user to run it as (the package creates it)");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

export function run(cmd: string, args: string[], account: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      ...account,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LC_ALL: "C" },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}:\n${output}`))));
  });
}

function waitUntilReady(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = "";
    const timer = setTimeout(
      () => reject(new Error(`PostgreSQL 15 did not start in ${timeoutMs} ms:\n${log}`)),
      timeoutMs,
    );
    const onData = (d: Buffer) => {
      log += d;
      if (log.includes("database system is ready to accept connections")) {
        clearTimeout(timer);
        child.stderr!.off("data", onData);
        child.stderr!.resume(); // keep draining the log so the server never blocks on it
        resolve();
      }
    };
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL 15 exited (${code}) while starting:\n${log}`));
    });
  });
}

/** Applies the Supabase shim, every migration in order, and optionally the seed, as db.ts does. */
export async function migratePg15(client: pg.Client, options: { seed?: boolean } = {}): Promise<string[]> {
  await client.query(await readFile(shimFile, "utf8"));
  await client.query(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key, name text, applied_at timestamptz not null default now());`);
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql")).sort();
  for (const file of files) {
    const [version, ...rest] = file.replace(/\.sql$/, "").split("_");
    await client.query("begin");
    try {
      await client.query(await readFile(path.join(migrationsDir, file), "utf8"));
      await client.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [
        version,
        rest.join("_"),
      ]);
      await client.query("commit");
    } catch (e) {
      await client.query("rollback");
      throw new Error(`migration ${file} failed on PostgreSQL 15: ${(e as Error).message}`);
    }
  }
  if (options.seed) await seedPg15(client);
  return files;
}

/** Applies the seed to a migrated database and records it, as db.ts does. */
export async function seedPg15(client: pg.Client): Promise<void> {
  await client.query("begin");
  await client.query(await readFile(seedFile, "utf8"));
  await client.query("insert into supabase_migrations.schema_migrations (version, name) values ('seed', 'seed.sql')");
  await client.query("commit");
}

const CLUSTER_PREFIX = "labcash-pg15-";
/** In each cluster's folder: the pid of the process that started it, so a later run can tell it was left behind. */
const OWNER_FILE = "owner.pid";

/**
 * Removes the clusters a crashed or killed run left behind (its process gone, so its exit handler never ran):
 * stops their server (an immediate shutdown: the data is thrown away) and deletes their folder. Clusters of
 * processes still running, and folders without an owner file, are left alone.
 */
export async function removeOrphanedPg15(): Promise<void> {
  const tmp = os.tmpdir();
  for (const name of await readdir(tmp)) {
    if (!name.startsWith(CLUSTER_PREFIX)) continue;
    const dir = path.join(tmp, name);
    const owner = Number(await readFile(path.join(dir, OWNER_FILE), "utf8").catch(() => ""));
    if (!owner || alive(owner)) continue;
    const pidFile = await readFile(path.join(dir, "data", "postmaster.pid"), "utf8").catch(() => "");
    const postmaster = Number(pidFile.split("\n")[0]);
    if (postmaster && alive(postmaster)) process.kill(postmaster, "SIGQUIT");
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Starts a fresh cluster in a temp folder (unix socket only), migrated (unless `migrate` is false: an empty
 * database, as a restore starts from), and returns it.
 */
export async function startPg15(
  options: { seed?: boolean; migrate?: boolean; maxConnections?: number } = {},
): Promise<Pg15> {
  for (const bin of ["initdb", "postgres"]) {
    if (!existsSync(path.join(PG15_BIN, bin))) throw missing(`${path.join(PG15_BIN, bin)} does not exist`);
  }
  const account = await serviceAccount();
  const dir = await mkdtemp(path.join(os.tmpdir(), CLUSTER_PREFIX));
  const dataDir = path.join(dir, "data");
  let server: ChildProcess | undefined;
  const killOnExit = () => server?.kill("SIGKILL");
  try {
    await writeFile(path.join(dir, OWNER_FILE), String(process.pid));
    if (account) await chown(dir, account.uid, account.gid);
    await run(
      path.join(PG15_BIN, "initdb"),
      ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"],
      account,
    );
    const port = await freePort();
    server = spawn(
      path.join(PG15_BIN, "postgres"),
      [
        "-D",
        dataDir,
        "-p",
        String(port),
        "-k",
        dir,
        "-c",
        "listen_addresses=",
        "-c",
        `max_connections=${options.maxConnections ?? 50}`,
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
        "-c",
        "TimeZone=UTC",
      ],
      { ...account, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_ALL: "C" } },
    );
    process.once("exit", killOnExit);
    await waitUntilReady(server, 30_000);
    const config: pg.ClientConfig = { host: dir, port, user: "postgres", database: "postgres" };
    const client = new pg.Client(config);
    await client.connect();
    try {
      if (options.migrate !== false) await migratePg15(client, options);
    } finally {
      await client.end();
    }
    const child = server;
    return {
      config,
      pool: (max) => new pg.Pool({ ...config, max }),
      async stop() {
        process.off("exit", killOnExit);
        if (child.exitCode === null) {
          const exited = new Promise((resolve) => child.once("exit", resolve));
          // Smart shutdown lets clients that are still hanging up go quietly (a fast
          // shutdown would send them FATAL 57P01); a leaked client cannot hold it up long.
          child.kill("SIGTERM");
          const fast = setTimeout(() => child.kill("SIGINT"), 10_000);
          await exited;
          clearTimeout(fast);
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    process.off("exit", killOnExit);
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGKILL");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}
