// npm run bench:entries: how fast the embedded backend sells tickets under contention.
//
// Starts an embedded backend (in-memory PGlite with the demo seed, a free loopback port) in a
// child process with BENCH_CLIENTS new users; creates one big live competition through the admin
// RPCs; signs each user in with its own supabase-js client, approves it and gives it credit,
// all over HTTP. Then two timed phases in which every client calls back to back: a trivial RPC
// (is_admin), then enter_competition for one ticket followed by make_entries_durable, as the app
// buys. Prints calls per second, p50 and p99 latency of both and their ratio, and checks that the
// tickets sold equal the purchases made.
// Bounded: the run stops after 60 s whatever happens.
//
// Environment: BENCH_CLIENTS (default 50), BENCH_SECONDS per phase (default 10).
import { spawn, type ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { adminAtAal2 } from "../tests/contract/embedded-process";
import { percentile } from "./bench-support";

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const HARD_LIMIT_MS = 60_000;
const PASSWORD = "LabCash-demo-1";

const self = fileURLToPath(import.meta.url);
const benchEmails = () => Array.from({ length: CLIENTS }, (_, i) => `bench-${i}@labcash.test`);

/** The backend runs in its own process, so its CPU is not the load generator's. */
async function serve() {
  const { startEmbeddedServer } = await import("../supabase/embedded");
  const { NO_RATE_LIMITS } = await import("@labcash/embedded-supabase/rate-limit");
  const { insertUser } = await import("@labcash/embedded-supabase/auth-store");
  const { default: bcrypt } = await import("bcryptjs");
  // Its 50 buyers sign in from one address, over GoTrue's 30 per five minutes.
  const server = await startEmbeddedServer({ port: 0, host: "127.0.0.1", rateLimits: NO_RATE_LIMITS });
  // The bench users are written the way the auth server writes them, but with a cheap bcrypt
  // cost: 50 sign-ins at cost 10 would spend the time budget on hashing, which is not measured.
  const passwordHash = bcrypt.hashSync(PASSWORD, 4);
  for (const [i, email] of benchEmails().entries()) {
    await insertUser(server.db, {
      email,
      passwordHash,
      confirmed: true,
      userMetadata: { name: `Bench User${i}`, date_of_birth: "1990-01-01" },
    });
  }
  process.stdout.write(`READY ${server.url}\n`);
  process.on("SIGTERM", () => void server.close().finally(() => process.exit(0)));
}

function startBackend(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...process.execArgv, self, "--serve"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\S+)/.exec(out);
      if (match) resolve({ url: match[1], child });
    });
    child.on("exit", (code) => reject(new Error(`backend exited (${code}) before it was ready`)));
  });
}

const options = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
};

async function rpc<T>(client: SupabaseClient, fn: string, args: Record<string, unknown> = {}): Promise<T> {
  const { data, error } = await client.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.message}`);
  return data as T;
}

async function signedIn(url: string, email: string): Promise<SupabaseClient> {
  const client = createClient(url, EMBEDDED_PUBLISHABLE_KEY, options);
  const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw new Error(`sign in ${email}: ${error.message}`);
  return client;
}

/** Runs `task` for every item with at most `limit` in flight. */
async function pool<T, R>(items: T[], limit: number, task: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i], i);
      }
    }),
  );
  return results;
}

type Phase = { name: string; calls: number; errors: number; firstError?: string; seconds: number; latencies: number[] };

/** Every client calls `call` back to back until the time is up. */
async function measure(
  name: string,
  clients: SupabaseClient[],
  seconds: number,
  call: (c: SupabaseClient) => Promise<unknown>,
): Promise<Phase> {
  const phase: Phase = { name, calls: 0, errors: 0, seconds: 0, latencies: [] };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await call(client);
          phase.latencies.push(performance.now() - t0);
          phase.calls++;
        } catch (e) {
          phase.errors++;
          phase.firstError ??= e instanceof Error ? e.message : String(e);
        }
      }
    }),
  );
  phase.seconds = (performance.now() - started) / 1000;
  return phase;
}

function summary(phase: Phase) {
  const sorted = [...phase.latencies].sort((a, b) => a - b);
  return { perSecond: phase.calls / phase.seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function main() {
  console.log("Latest figures to compare with, and the command that made them: docs/benchmarks.md");
  const begun = performance.now();
  let backend: { url: string; child: ChildProcess } | undefined;
  const guard = setTimeout(() => {
    console.error(`bench:entries: stopped after ${HARD_LIMIT_MS / 1000} s`);
    backend?.child.kill("SIGKILL");
    process.exit(1);
  }, HARD_LIMIT_MS);
  guard.unref();

  try {
    const stage = (what: string) =>
      console.error(`  ${((performance.now() - begun) / 1000).toFixed(1).padStart(5)} s  ${what}`);
    backend = await startBackend();
    const { url } = backend;
    stage("backend ready (migrations and seed applied)");
    const service = createClient(url, EMBEDDED_SECRET_KEY, options);
    // The admin RPCs need a session at aal2 with an authenticator proven through the inbox, as the console does.
    const admin = await adminAtAal2(url, PASSWORD);

    const competition = await rpc<{ id: string }>(admin, "admin_create_competition", {
      p: {
        title: "Benchmark: a very big competition",
        slug: `bench-${Date.now().toString(36)}`,
        prize_description: "Nothing: a benchmark",
        prize_value: 1000,
        ticket_price: 0.25,
        total_tickets: 1_000_000,
        max_tickets_per_user: 100_000,
        closes_at: new Date(Date.now() + 86_400_000).toISOString(),
        skill_question: "How many sides has a triangle?",
        skill_options: ["Three", "Four"],
        skill_answer: "Three",
      },
    });
    await rpc(admin, "admin_publish_competition", { p_id: competition.id, p_external_randomness: null });

    // Each user signs in (password grant), is approved by the admin and given credit, all over HTTP.
    const clients = await pool(benchEmails(), 8, async (email) => {
      const client = await signedIn(url, email);
      const { data } = await client.auth.getUser();
      await rpc(admin, "admin_approve_user", { p_user_id: data.user!.id });
      await rpc(service, "add_credits", { user_id: data.user!.id, amount: 10_000 });
      return client;
    });
    stage(`${CLIENTS} users signed in, approved and given credit`);
    const setupSeconds = (performance.now() - begun) / 1000;

    // A short warm-up so neither phase pays for first-call costs.
    await Promise.all(clients.map((c) => rpc(c, "is_admin")));

    const trivial = await measure("is_admin (trivial RPC)", clients, SECONDS, (c) => rpc(c, "is_admin"));
    // As the app buys: the purchase commits asynchronously, and the player is answered after the durability call.
    const entries = await measure("enter_competition + durable", clients, SECONDS, async (c) => {
      await rpc(c, "enter_competition", { p_competition_id: competition.id, p_quantity: 1, p_answer: "Three" });
      await rpc(c, "make_entries_durable");
    });

    const after = await rpc<{ tickets_sold: number }>(
      createClient(url, EMBEDDED_PUBLISHABLE_KEY, options),
      "get_competition",
      {
        p_slug: (await rpc<{ slug: string }>(admin, "admin_get_competition", { p_id: competition.id })).slug,
      },
    );

    const t = summary(trivial);
    const e = summary(entries);
    const row = (p: Phase, s: ReturnType<typeof summary>) =>
      `${p.name.padEnd(30)} ${String(p.calls).padStart(7)} ${s.perSecond.toFixed(1).padStart(10)} ${s.p50.toFixed(1).padStart(8)} ${s.p99.toFixed(1).padStart(8)} ${String(p.errors).padStart(7)}`;
    console.log(
      `\nbench:entries: embedded backend (PGlite, one process) on loopback; ${CLIENTS} signed-in supabase-js clients, ` +
        `one user each; ${SECONDS} s per phase; setup ${setupSeconds.toFixed(1)} s`,
    );
    console.log(
      `${"".padEnd(30)} ${"calls".padStart(7)} ${"per second".padStart(10)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"errors".padStart(7)}`,
    );
    console.log(row(trivial, t));
    console.log(row(entries, e));
    console.log(
      `ratio purchase / trivial: throughput ${(e.perSecond / t.perSecond).toFixed(2)}x, ` +
        `p50 ${(e.p50 / t.p50).toFixed(1)}x, p99 ${(e.p99 / t.p99).toFixed(1)}x`,
    );
    for (const p of [trivial, entries]) if (p.firstError) console.log(`first error in ${p.name}: ${p.firstError}`);
    const consistent = after.tickets_sold === entries.calls;
    console.log(`tickets sold ${after.tickets_sold} = purchases ${entries.calls}: ${consistent ? "yes" : "NO"}`);
    console.log(`total ${((performance.now() - begun) / 1000).toFixed(1)} s`);
    if (!consistent || entries.errors > 0) process.exitCode = 1;
  } finally {
    backend?.child.kill("SIGTERM");
    clearTimeout(guard);
  }
}

if (process.argv[2] === "--serve") await serve();
else await main();
