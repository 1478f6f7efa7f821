// The embedded backend's own doors: its keys are published, so what any web
// page could make a developer's browser send it must be refused, and bad input is a clean 4xx.
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenSigner } from "@labcash/embedded-supabase/jwt";
import { NO_RATE_LIMITS } from "@labcash/embedded-supabase/rate-limit";
import { startEmbeddedServer } from "@/supabase/embedded";
import {
  birthDateYearsAgo,
  client,
  DEMO_PASSWORD,
  mailFor,
  PUBLISHABLE_KEY,
  raw,
  SECRET_KEY,
  startTestServer,
  tokenHashFrom,
  uniqueEmail,
  type TestServer,
} from "./helpers";

const SITE = "http://localhost:3000";
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ siteUrl: SITE, redirectAllowList: ["https://app.labcash.example/*"] });
});
afterAll(() => server?.stop());

/** A request with a Host header of our choosing (fetch will not send one). */
function withHost(host: string, pathname: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: pathname, headers: { host, apikey: SECRET_KEY } },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("who may reach it", () => {
  it("refuses a Host other than its loopback address and port (DNS rebinding)", async () => {
    const port = new URL(server.url).port;
    for (const host of ["evil.example", `evil.example:${port}`, `127.0.0.1.nip.io:${port}`, "127.0.0.1:1"]) {
      const res = await withHost(host, "/_embedded/mail");
      expect(res.status, host).toBe(403);
      expect(res.body, host).not.toContain("to_email");
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await withHost(host, "/_embedded/mail")).status, host).toBe(200);
    }
  });

  it("lets only the site's origin read answers (CORS)", async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/rest/v1/rpc/get_my_account`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST" },
      });
    const own = await preflight(SITE);
    expect(own.status).toBe(204);
    expect(own.headers.get("access-control-allow-origin")).toBe(SITE);
    expect(own.headers.get("access-control-allow-headers")).toContain("apikey");
    expect(own.headers.get("vary")).toBe("Origin");
    const foreign = await preflight("https://evil.example");
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    const read = await raw(server, "/_embedded/mail", { key: SECRET_KEY, headers: { origin: "https://evil.example" } });
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("takes the apikey from the header only, never from the URL", async () => {
    const res = await raw(server, `/_embedded/mail?apikey=${SECRET_KEY}`, { key: null });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: "No API key found in request" });
    const rpc = await raw(server, `/rest/v1/rpc/get_site_settings?apikey=${SECRET_KEY}`, { key: null });
    expect(rpc.status).toBe(401);
  });

  it("never listens beyond loopback", async () => {
    await expect(startEmbeddedServer({ host: "0.0.0.0", port: 0, db: server.db })).rejects.toThrow(/loopback only/);
  });
});

describe("where its links lead (redirect_to)", () => {
  async function verifyLocation(redirectTo: string): Promise<URL> {
    const email = uniqueEmail("redirect");
    await client(server).auth.signUp({
      email,
      password: "Sturdy-pass-42",
      options: { data: { date_of_birth: birthDateYearsAgo(30) } },
    });
    await client(server).auth.resetPasswordForEmail(email);
    const [mail] = await mailFor(server, email);
    const { tokenHash } = tokenHashFrom(mail.body);
    const res = await raw(
      server,
      `/auth/v1/verify?token=${tokenHash}&type=recovery&redirect_to=${encodeURIComponent(redirectTo)}`,
      { key: null, redirect: "manual" },
    );
    expect(res.status).toBe(303);
    return new URL(res.headers.get("location")!);
  }

  it("follows redirect_to on the site's host or the allow-list", async () => {
    expect((await verifyLocation(`${SITE}/auth/callback`)).pathname).toBe("/auth/callback");
    expect((await verifyLocation("https://app.labcash.example/welcome")).host).toBe("app.labcash.example");
  });

  it("leads to the site instead of anywhere else", async () => {
    for (const elsewhere of [
      "https://evil.example/",
      "https://app.labcash.example.evil.example/x",
      "javascript:alert(1)",
    ]) {
      const location = await verifyLocation(elsewhere);
      expect(location.origin, elsewhere).toBe(SITE);
    }
  });

  it("leaves a disallowed redirect_to out of the e-mailed link", async () => {
    const email = uniqueEmail("mail-redirect");
    await client(server).auth.signUp({
      email,
      password: "Sturdy-pass-42",
      options: { data: { date_of_birth: birthDateYearsAgo(30) } },
    });
    await client(server).auth.resetPasswordForEmail(email, { redirectTo: "https://evil.example/steal" });
    const [mail] = await mailFor(server, email);
    expect(mail.body).not.toContain("evil.example");
  });
});

describe("bad input is a clean 4xx", () => {
  it("bad percent-encoding in a function name or a user id", async () => {
    const rpc = await raw(server, "/rest/v1/rpc/get_%zz", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(rpc.status).toBe(400);
    const user = await raw(server, "/auth/v1/admin/users/%E0%A4%A", {
      key: SECRET_KEY,
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    });
    expect(user.status).toBeGreaterThanOrEqual(400);
    expect(user.status).toBeLessThan(500);
  });

  it("a NUL byte in an e-mail address", async () => {
    const signUp = await client(server).auth.signUp({ email: "a\u0000b@labcash.test", password: "Sturdy-pass-42" });
    expect(signUp.error?.status).toBeGreaterThanOrEqual(400);
    expect(signUp.error?.status).toBeLessThan(500);
    const signIn = await client(server).auth.signInWithPassword({ email: "a\u0000b@labcash.test", password: "x" });
    expect(signIn.error?.status).toBeGreaterThanOrEqual(400);
    expect(signIn.error?.status).toBeLessThan(500);
    const recover = await raw(server, "/auth/v1/recover", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a\u0000b@labcash.test" }),
    });
    expect(recover.status).toBeLessThan(500);
  });

  it("deeply nested JSON", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    for (const path of ["/rest/v1/rpc/get_site_settings", "/auth/v1/token?grant_type=password"]) {
      const res = await raw(server, path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: deep,
      });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
    const nestedArg = JSON.stringify({ p: JSON.parse("[".repeat(2_000) + "]".repeat(2_000)) });
    const res = await raw(server, "/rest/v1/rpc/get_site_settings", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: nestedArg,
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  // "Not found" raises PT404, which PostgREST answers with 404 (P0002 was a 500), hint unchanged.
  it("an unknown competition answers 404 with its code", async () => {
    const res = await raw(server, "/rest/v1/rpc/get_competition", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ p_slug: "no-such-competition" }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      code: "PT404",
      message: "Competition not found",
      hint: "competition_not_found",
    });
  });

  it("an unknown draw or user id", async () => {
    const unknown = "00000000-0000-4000-8000-00000000dead";
    for (const [fn, args] of [
      ["get_draw", { p_draw_id: unknown }],
      ["get_draw", { p_draw_id: "not-a-uuid" }],
    ] as const) {
      const res = await raw(server, `/rest/v1/rpc/${fn}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(args),
      });
      expect(res.status, `${fn} ${JSON.stringify(args)}`).toBeLessThan(500);
    }
    const user = await raw(server, `/auth/v1/admin/users/${unknown}`, {
      key: SECRET_KEY,
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    });
    expect(user.status).toBe(404);
  });
});

describe("a refused body", () => {
  /** POSTs on a kept-alive agent; resolves with the status, or -1 if no answer comes within 5 s. */
  function post(agent: Agent, chunks: Buffer[], chunked: boolean): Promise<number> {
    const url = new URL(server.url);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(-1), 5000);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: "/rest/v1/rpc/get_site_settings",
          method: "POST",
          agent,
          headers: {
            apikey: PUBLISHABLE_KEY,
            "content-type": "application/json",
            ...(chunked ? { "transfer-encoding": "chunked" } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            clearTimeout(timer);
            resolve(res.statusCode ?? 0);
          });
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) =>
        e.code === "ECONNRESET" || e.code === "EPIPE" ? undefined : reject(e),
      );
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }

  it("a 413 closes the connection, so the client's next request gets a fresh one and an answer", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const tooBig = Array.from({ length: 30 }, () => Buffer.alloc(100 * 1024, 32));
      expect(await post(agent, tooBig, true)).toBe(413);
      expect(await post(agent, [Buffer.from("{}")], false)).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe("tokens", () => {
  it("refuse a token signed with the right key but for another issuer or audience", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "labcash-iss-"));
    const keyed = await startEmbeddedServer({ db: server.db, dataDir: dir, port: 0, rateLimits: NO_RATE_LIMITS });
    try {
      const signedIn = await client(keyed).auth.signInWithPassword({
        email: "player@labcash.test",
        password: DEMO_PASSWORD,
      });
      const token = signedIn.data.session!.access_token;
      const signer = await TokenSigner.load(dir);
      const claims = decodeJwt(token);
      const forged = {
        issuer: await signer.sign({ ...claims, iss: "http://127.0.0.1:1/auth/v1" }),
        audience: await signer.sign({ ...claims, aud: "service" }),
      };
      const account = (bearer: string) =>
        raw(keyed, "/rest/v1/rpc/get_my_account", {
          method: "POST",
          headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
          body: "{}",
        });
      expect((await account(token)).status).toBe(200);
      expect((await client(keyed).auth.getUser(token)).error).toBeNull();
      for (const [what, bad] of Object.entries(forged)) {
        const rpc = await account(bad);
        expect(rpc.status, what).toBe(401);
        expect(await rpc.json(), what).toMatchObject({ code: "PGRST301" });
        const user = await client(keyed).auth.getUser(bad);
        expect(user.error?.code, what).toBe("bad_jwt");
      }
    } finally {
      await keyed.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
