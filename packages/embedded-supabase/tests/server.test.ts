// The server through real supabase-js, on the package's own schema: GoTrue sign-up and sign-in, PostgREST RPC as
// the caller (row-level security, grants, error shapes), the mail outbox with the app's name and site, and the
// routes an app adds under /_embedded/.
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY } from "../src/keys";
import { NO_RATE_LIMITS } from "../src/rate-limit";
import { startEmbeddedServer, type EmbeddedServer } from "../src/server";
import { client, PASSWORD, schema, uniqueEmail } from "./support";

let db: PGlite;
let server: EmbeddedServer;
const SITE = "http://notes.localhost:4000";

beforeAll(async () => {
  db = await openDatabase(schema);
  server = await startEmbeddedServer({
    db,
    port: 0,
    siteUrl: SITE,
    appName: "Notes",
    mailConfirmation: true,
    rateLimits: NO_RATE_LIMITS,
    routes: {
      "GET /_embedded/motd-count": async ({ db }) => ({
        status: 200,
        body: (await db.query<{ n: number }>("select count(*)::int as n from public.motd")).rows[0],
      }),
    },
  });
});
afterAll(async () => {
  await server?.close();
  await db?.close();
});

async function mailTo(email: string): Promise<Array<{ kind: string; subject: string; body: string; token: string }>> {
  const res = await fetch(`${server.url}/_embedded/mail?email=${encodeURIComponent(email)}`, {
    headers: { apikey: EMBEDDED_SECRET_KEY },
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** A confirmed user, signed in. */
async function signedIn(email = uniqueEmail()) {
  const c = client(server.url);
  const signUp = await c.auth.signUp({ email, password: PASSWORD });
  expect(signUp.error).toBeNull();
  const [mail] = await mailTo(email);
  const verified = await c.auth.verifyOtp({ email, token: mail.token, type: "email" });
  expect(verified.error).toBeNull();
  const again = client(server.url);
  const { error } = await again.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  return again;
}

describe("auth", () => {
  it("mails a confirmation that names the app and links to its site, and refuses sign-in until it is followed", async () => {
    const email = uniqueEmail();
    const c = client(server.url);
    const { data, error } = await c.auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    const [mail] = await mailTo(email);
    expect(mail).toMatchObject({ kind: "signup", subject: "Confirm your Notes account" });
    expect(mail.body).toContain("Welcome to Notes.");
    expect(mail.body).toContain(
      `${SITE}/auth/confirm?${new URLSearchParams({ email, code: mail.token, type: "email" })}`,
    );
    const early = await c.auth.signInWithPassword({ email, password: PASSWORD });
    expect(early.error?.code).toBe("email_not_confirmed");
  });

  it("hashes passwords at GoTrue's cost, or at bcrypt's minimum when asked, and signs in with either", async () => {
    const quick = await startEmbeddedServer({ db, port: 0, passwordHashCost: "quick", rateLimits: NO_RATE_LIMITS });
    try {
      const costOf = async (email: string) =>
        (
          await db.query<{ hash: string }>("select encrypted_password as hash from auth.users where email = $1", [
            email,
          ])
        ).rows[0].hash.split("$")[2];
      const atDefault = uniqueEmail();
      await signedIn(atDefault);
      expect(await costOf(atDefault)).toBe("10");
      const atQuick = uniqueEmail();
      const created = await client(quick.url, EMBEDDED_SECRET_KEY).auth.admin.createUser({
        email: atQuick,
        password: PASSWORD,
        email_confirm: true,
      });
      expect(created.error).toBeNull();
      expect(await costOf(atQuick)).toBe("04");
      // Each hash carries its cost: either server checks either.
      for (const [url, email] of [
        [server.url, atQuick],
        [quick.url, atDefault],
      ])
        expect((await client(url).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    } finally {
      await quick.close();
    }
  });

  it("refuses a weak password with GoTrue's code", async () => {
    const { error } = await client(server.url).auth.signUp({ email: uniqueEmail(), password: "short" });
    expect(error?.code).toBe("weak_password");
  });
});

describe("RPC", () => {
  it("runs functions as the signed-in user, so row-level security keeps each user's rows apart", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    expect((await alice.rpc("add_note", { body: "alice's" })).error).toBeNull();
    expect((await bob.rpc("add_note", { body: "bob's" })).error).toBeNull();
    expect((await alice.rpc("my_notes")).data).toEqual(["alice's"]);
    expect((await bob.rpc("my_notes")).data).toEqual(["bob's"]);
  });

  it("answers anon what its grants allow, and PostgREST's errors otherwise", async () => {
    const anon = client(server.url);
    expect((await anon.rpc("motd")).data).toBe("hello from the seed");
    const denied = await anon.rpc("add_note", { body: "nobody's" });
    expect(denied).toMatchObject({ status: 401, error: { code: "42501" } });
    const refused = await anon.rpc("refuse");
    expect(refused).toMatchObject({ status: 400, error: { code: "P0001", hint: "not_today", message: "Not today" } });
    const missing = await anon.rpc("no_such_function");
    expect(missing).toMatchObject({ status: 404, error: { code: "PGRST202" } });
  });

  it("pages a function's rows, rolls back on request, and refuses by name what it does not do", async () => {
    const carol = await signedIn();
    for (const body of ["one", "two", "three"]) expect((await carol.rpc("add_note", { body })).error).toBeNull();
    const page = await carol.rpc("my_notes", {}, { count: "exact" }).range(1, 1);
    expect(page).toMatchObject({ data: ["two"], count: 3, status: 206 });
    const rolledBack = await carol.rpc("add_note", { body: "four" }).rollback();
    expect(rolledBack.error).toBeNull();
    expect((await carol.rpc("my_notes")).data).toEqual(["one", "two", "three"]);
    const embed = await carol.rpc("my_notes").select("body, notes(id)");
    expect(embed).toMatchObject({
      status: 400,
      error: {
        code: "PGRST127",
        details: "Embedding the resource 'notes' in select after .rpc() is not supported by the embedded backend",
      },
    });
  });

  it("refuses a key that is neither of its own", async () => {
    const { error, status } = await client(server.url, "sb_publishable_someone_else").rpc("motd");
    expect(status).toBe(401);
    expect(error).not.toBeNull();
  });
});

describe("the /_embedded/ routes", () => {
  it("serves the app's own routes with the secret key only", async () => {
    const secret = await fetch(`${server.url}/_embedded/motd-count`, { headers: { apikey: EMBEDDED_SECRET_KEY } });
    expect(await secret.json()).toEqual({ n: 1 });
    const publishable = await fetch(`${server.url}/_embedded/motd-count`, {
      headers: { apikey: EMBEDDED_PUBLISHABLE_KEY },
    });
    expect(publishable.status).toBe(403);
    const unknown = await fetch(`${server.url}/_embedded/nothing`, { headers: { apikey: EMBEDDED_SECRET_KEY } });
    expect(unknown.status).toBe(404);
  });
});

it("listens on loopback only", async () => {
  await expect(startEmbeddedServer({ db, host: "0.0.0.0", port: 0 })).rejects.toThrow(/loopback only/);
});
