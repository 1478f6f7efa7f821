// What the benches share: the site's life cycle for those that measure it (bench:http, bench:verify, bench:launch,
// bench:hold): the production build in .next (made first unless BENCH_SKIP_BUILD=1 and one exists), then `npm start`
// (the site and its embedded backend, scripts/run.mjs) on a data directory of their own, in its own process group so
// it stops whole; approved players written before the site starts; server actions called as the browser calls them,
// with the cookies a browser keeps; and how their latencies are summarised.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** `next build`, unless BENCH_SKIP_BUILD=1 and a build is there. */
export function buildSite(): void {
  if (process.env.BENCH_SKIP_BUILD === "1" && existsSync(path.join(root, ".next", "BUILD_ID"))) return;
  execFileSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

/** `npm start` on `port`, its embedded backend on `backendPort` over `dataDir`, plus `env`; output discarded. */
export function startSite(options: {
  port: number;
  backendPort: number;
  dataDir: string;
  env?: Record<string, string>;
}): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "run.mjs"), "start"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(options.port),
      EMBEDDED_PORT: String(options.backendPort),
      LABCASH_DATA_DIR: options.dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      ...options.env,
    },
    detached: true,
  });
  return child;
}

/** Stops the site's whole process group and waits for the launcher to exit (its backend closes the database first). */
export async function stopSite(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return; // already gone
  }
  await exited;
}

/** Waits up to two minutes for `url` to answer 200. */
export async function waitForSite(url: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the site did not answer on ${url}`);
}

/** Ends the bench after `ms` whatever happens, killing the site's process group first if one is running. */
export function stopAfter(ms: number, bench: string, site: () => ChildProcess | undefined): NodeJS.Timeout {
  const guard = setTimeout(() => {
    console.error(`${bench}: stopped after ${ms / 1000} s`);
    const pid = site()?.pid;
    if (pid) process.kill(-pid, "SIGKILL");
    process.exit(1);
  }, ms);
  guard.unref();
  return guard;
}

/** Where a bench's site runs: BENCH_PORT (default 3300) and its backend's BENCH_BACKEND_PORT (54349). */
export function benchSite() {
  const port = Number(process.env.BENCH_PORT ?? 3300);
  const backendPort = Number(process.env.BENCH_BACKEND_PORT ?? 54349);
  return { port, backendPort, base: `http://127.0.0.1:${port}` };
}

/** A bench's progress line on stderr, with the seconds since it began; `.seconds()` for its total. */
export function stageClock() {
  const begun = performance.now();
  const seconds = () => (performance.now() - begun) / 1000;
  return Object.assign((what: string) => console.error(`  ${seconds().toFixed(1).padStart(6)} s  ${what}`), {
    seconds,
  });
}

/** mulberry32: a small seeded generator, so every run of a bench replays the same choices. */
export function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The p-th percentile (nearest rank) of ascending `sorted`; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Approved players with `credit` pounds each, written as the seed writes its demo users before the site starts (one
 * bcrypt hash shared, at a low cost: hashing is the auth server's CPU, not what a bench measures, and hosted
 * Supabase's auth server is not the site's), approved, and given credit through the ledger.
 */
export async function insertApprovedPlayers(db: PGlite, emails: readonly string[], password: string, credit: number) {
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                             raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     with bench_password as materialized (select extensions.crypt($1, extensions.gen_salt('bf', 4)) as hash)
     select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', email,
            (select hash from bench_password), now(), '{"provider":"email","providers":["email"]}'::jsonb,
            jsonb_build_object('name', 'Bench Player', 'date_of_birth', '1990-01-01'), now(), now()
       from unnest($2::text[]) email`,
    [password, emails],
  );
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     select u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
            'email', now(), now(), now()
       from auth.users u where u.email = any ($1::text[])`,
    [emails],
  );
  await db.query(
    `update public.user_account_data a set approved = true, approved_at = now(), age_verified = true
       from auth.users u where u.id = a.id and u.email = any ($1::text[])`,
    [emails],
  );
  await db.query(
    `select private.post_ledger(u.id, 'top_up', $1, 'Credit purchase', 'bench-topup-' || u.id, $1)
       from auth.users u where u.email = any ($2::text[])`,
    [credit, emails],
  );
}

/** A server action's id in the build in .next, by its module and export, as the browser's page calls it. */
export function serverActionId(filename: string, exportedName: string): string {
  const manifest = JSON.parse(
    readFileSync(path.join(root, ".next", "server", "server-reference-manifest.json"), "utf8"),
  ) as { node: Record<string, { filename?: string; exportedName?: string }> };
  const id = Object.entries(manifest.node).find(
    ([, a]) => a.filename === filename && a.exportedName === exportedName,
  )?.[0];
  if (!id) throw new Error(`the build has no server action ${exportedName} in ${filename}`);
  return id;
}

// React's own encoding of a server action's arguments (what the browser's callServer posts).
const { encodeReply } = createRequire(import.meta.url)("next/dist/compiled/react-server-dom-turbopack/client.node") as {
  encodeReply: (value: unknown) => Promise<string | FormData>;
};

/** The body of a form action's call, (previous state, the form's fields), as the browser posts it. */
export function actionRequestBody(fields: readonly [string, string][]): Promise<string | FormData> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return encodeReply([null, form]);
}

export type ActionAnswer = { ok: boolean; error?: string; code?: string; data?: unknown };

/** The action's result in a server action's RSC answer: the row that holds `{"ok":…}`. */
export function actionAnswer(body: string): ActionAnswer | null {
  for (const line of body.split("\n")) {
    const row = /^[0-9a-f]+:(\{"ok":.*)$/.exec(line);
    if (row) return JSON.parse(row[1]) as ActionAnswer;
  }
  return null;
}

/** The cookies a browser keeps from the site's answers (the session's among them), sent back with each request. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** The Cookie header, or none while the jar is empty. */
  header(): { cookie: string } | Record<string, never> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    return cookie ? { cookie } : {};
  }

  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || pair.slice(at + 1) === "";
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1));
    }
  }

  /** Whether a Supabase session cookie is held. */
  signedIn(): boolean {
    return [...this.cookies.keys()].some((name) => name.startsWith("sb-"));
  }
}
