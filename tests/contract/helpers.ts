// Shared set-up for the contract tests: a real embedded server per test file,
// real supabase-js clients against it.
import { createHash } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { NO_RATE_LIMITS } from "@labcash/embedded-supabase/rate-limit";
import { totpCode } from "@labcash/embedded-supabase/totp";
import type { EmbeddedServer, EmbeddedServerOptions } from "@labcash/embedded-supabase/server";
import { visitorFetch } from "@/lib/supabase/visitor-fetch";
import { startEmbeddedServer } from "@/supabase/embedded";
import { freshDb } from "../db/support";
import { enrolProvenAuthenticator } from "./embedded-process";

export const DEMO_PASSWORD = "LabCash-demo-1";
export const PLAYER_ID = "00000000-0000-4000-8000-000000000003";
export { EMBEDDED_PUBLISHABLE_KEY as PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY as SECRET_KEY };

/**
 * A fresh in-memory database with the shim, every migration and the seed: a copy of the db tests' seeded template
 * (tests/db/support.ts), built once per set of SQL and kept in the temp folder, since applying the seed alone takes
 * seconds (pgcrypto's bcrypt in WebAssembly) and every test file needs its own database.
 */
export async function freshDatabase(): Promise<PGlite> {
  return (await freshDb({ seed: true })).pg;
}

export interface TestServer extends EmbeddedServer {
  /** Closes the server and its database. */
  stop(): Promise<void>;
}

export async function startTestServer(options: Omit<EmbeddedServerOptions, "db" | "port"> = {}): Promise<TestServer> {
  const db = await freshDatabase();
  // No rate limits unless a test asks for them: each file signs many users in from one address. Passwords hashed at
  // bcrypt's minimum cost, as GoTrue's own tests do: the suite signs users up and in thousands of times.
  const server = await startEmbeddedServer({
    refreshReuseSeconds: 0,
    rateLimits: NO_RATE_LIMITS,
    passwordHashCost: "quick",
    ...options,
    db,
    port: 0,
  });
  return {
    ...server,
    async stop() {
      await server.close();
      await db.close();
    },
  };
}

export function client(
  server: { url: string },
  key = EMBEDDED_PUBLISHABLE_KEY,
  flowType: "implicit" | "pkce" = "implicit",
) {
  return createClient(server.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType },
  });
}

export const adminClient = (server: { url: string }) => client(server, EMBEDDED_SECRET_KEY);

/**
 * A supabase-js client acting for one visitor as the site's server does: the visitor's address in Sb-Forwarded-For
 * with the secret key (lib/supabase/visitor-fetch.ts, the function the site uses).
 */
export function visitorClient(server: { url: string }, visitor: string): SupabaseClient {
  return createClient(server.url, EMBEDDED_PUBLISHABLE_KEY, {
    global: {
      fetch: visitorFetch(visitor, { publishableKey: EMBEDDED_PUBLISHABLE_KEY, secretKey: EMBEDDED_SECRET_KEY }),
    },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

export async function signIn(server: { url: string }, email: string, password = DEMO_PASSWORD) {
  const c = client(server);
  const { data, error } = await c.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw error ?? new Error("no session");
  return { client: c, session: data.session };
}

/**
 * Signs in and completes the second step, as an admin must before any admin call: enrols an
 * authenticator the first time, else answers a challenge with the factor's current code (the
 * secret is read from the test's own database, as an authenticator app would hold it).
 */
export async function signInAtAal2(server: TestServer, email: string, password = DEMO_PASSWORD) {
  const signedIn = await signIn(server, email, password);
  const c = signedIn.client;
  const { rows } = await server.db.query<{ id: string; secret: string }>(
    `select f.id, f.secret from auth.mfa_factors f join auth.users u on u.id = f.user_id
      where lower(u.email) = lower($1) and f.status = 'verified'`,
    [email],
  );
  let factorId = rows[0]?.id;
  let secret = rows[0]?.secret;
  if (!factorId) ({ factorId, secret } = await enrolProvenAuthenticator(c, server.url, email));
  const { data, error } = await c.auth.mfa.challengeAndVerify({ factorId, code: totpCode(secret!) });
  if (error) throw error;
  if (!rows[0]) {
    const proven = await c.rpc("record_factor_enrolment");
    if (proven.error) throw proven.error;
  }
  return { client: c, session: { ...signedIn.session, ...data }, factorId, secret: secret! };
}

let counter = 0;
/** A unique address per call, so tests in one file never collide. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@labcash.test`;
}

export const STRONG_PASSWORD = "Sturdy-pass-42";

/** A date of birth `years` years before today (ISO date). */
export function birthDateYearsAgo(years: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d.toISOString().slice(0, 10);
}

/** Plain fetch with the publishable key unless told otherwise. */
export function raw(server: { url: string }, pathname: string, init: RequestInit & { key?: string | null } = {}) {
  const { key = EMBEDDED_PUBLISHABLE_KEY, headers, ...rest } = init;
  const h = new Headers(headers);
  if (key) h.set("apikey", key);
  return fetch(`${server.url}${pathname}`, { ...rest, headers: h });
}

export interface MailRow {
  to_email: string;
  kind: string;
  subject: string;
  body: string;
  token: string | null;
  created_at: string;
}

export async function mailFor(server: { url: string }, email: string): Promise<MailRow[]> {
  const res = await raw(server, `/_embedded/mail?email=${encodeURIComponent(email)}`, { key: EMBEDDED_SECRET_KEY });
  if (!res.ok) throw new Error(`mail outbox answered ${res.status}`);
  return (await res.json()) as MailRow[];
}

/**
 * A mail's /auth/confirm link (the address, the code and the type it carries) and the token_hash GoTrue keeps for it,
 * sha224(address + code), which /verify also takes (as admin generate_link answers it).
 */
export function tokenHashFrom(body: string): { tokenHash: string; type: string; email: string; code: string } {
  const link = body.match(/https?:\/\/\S+\/auth\/confirm\?\S+/);
  if (!link) throw new Error(`no confirmation link in: ${body}`);
  const u = new URL(link[0]);
  const email = u.searchParams.get("email")!;
  const code = u.searchParams.get("code")!;
  const tokenHash = createHash("sha224")
    .update(email.toLowerCase() + code)
    .digest("hex");
  return { tokenHash, type: u.searchParams.get("type")!, email, code };
}

export type Client = SupabaseClient;
