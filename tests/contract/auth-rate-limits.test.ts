// GoTrue's rate limits in the embedded backend: 429 with GoTrue's codes, per
// client address for sign-ins, refreshes and verifications, per address and per hour for e-mail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RateLimiter, GOTRUE_RATE_LIMITS } from "@labcash/embedded-supabase/rate-limit";
import { client, DEMO_PASSWORD, mailFor, raw, startTestServer, uniqueEmail, type TestServer } from "./helpers";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    rateLimits: {
      signInsPerFiveMinutes: 5,
      refreshesPerFiveMinutes: 3,
      verificationsPerFiveMinutes: 4,
      emailSecondsApart: 60,
    },
  });
});
afterAll(() => server?.stop());

/** POSTs a JSON body to an auth path, as supabase-js would. */
const post = (path: string, body: Record<string, unknown>) =>
  raw(server, `/auth/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
    body: JSON.stringify(body),
  });

/** The statuses of `times` identical POSTs, in order. */
async function statusesOf(times: number, path: string, body: Record<string, unknown>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await post(path, body)).status);
  return statuses;
}

describe("per client address", () => {
  it("answers the sixth sign-in in five minutes with 429 over_request_rate_limit, right password or not", async () => {
    const wrong = { email: "player@labcash.test", password: "wrong-password-1" };
    const statuses = await statusesOf(5, "/token?grant_type=password", wrong);
    const sixth = await post("/token?grant_type=password", wrong);
    statuses.push(sixth.status);
    expect(await sixth.json()).toEqual({ code: "over_request_rate_limit", message: "Request rate limit reached" });
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const rightPassword = await client(server).auth.signInWithPassword({
      email: "player@labcash.test",
      password: DEMO_PASSWORD,
    });
    expect(rightPassword.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
    const signUp = await client(server).auth.signUp({ email: uniqueEmail("late"), password: "Sturdy-pass-42" });
    expect(signUp.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
  });

  it("limits token refreshes and verifications on their own counts", async () => {
    const refreshes = await statusesOf(4, "/token?grant_type=refresh_token", { refresh_token: "not-a-token" });
    expect(refreshes).toEqual([400, 400, 400, 429]);
    const verifications = await statusesOf(5, "/verify", { type: "recovery", token_hash: "not-a-token" });
    expect(verifications.slice(0, 4).every((s) => s !== 429)).toBe(true);
    expect(verifications[4]).toBe(429);
  });
});

describe("e-mail", () => {
  it("sends one recovery mail a minute to an address, and says so as GoTrue does", async () => {
    const recover = () => post("/recover", { email: "pending@labcash.test" });
    expect((await recover()).status).toBe(200);
    const second = await recover();
    expect(second.status).toBe(429);
    const body = (await second.json()) as { code: string; message: string };
    expect(body.code).toBe("over_email_send_rate_limit");
    expect(body.message).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);
    expect(await mailFor(server, "pending@labcash.test")).toHaveLength(1);
  });

  it("counts e-mail per visitor and per address, never per project, refilling steadily", () => {
    let now = 0;
    const limiter = new RateLimiter({ ...GOTRUE_RATE_LIMITS, emailSecondsApart: 0 }, () => now);
    const ask = (address: string, visitor: string) => limiter.allowEmail(address, visitor, ["account"]);
    // A hundred visitors, five requests each to addresses of their own: no project pool runs out.
    for (let v = 0; v < 100; v++)
      for (let i = 0; i < 5; i++) expect(ask(`v${v}-${i}@labcash.test`, `203.0.113.${v}`)).toEqual({ ok: true });
    // The sixth of one visitor waits for its own allowance (five an hour: one back every twelve minutes).
    expect(ask("v0-5@labcash.test", "203.0.113.0")).toEqual({
      ok: false,
      reason: "visitor_allowance",
      retryAfterSeconds: 720,
    });
    // An address takes five an hour, whoever asks.
    for (let i = 0; i < 5; i++) expect(ask("target@labcash.test", `198.51.100.${i}`)).toEqual({ ok: true });
    expect(ask("target@labcash.test", "198.51.100.9")).toMatchObject({ ok: false, reason: "address_allowance" });
    // Mail to new addresses is an allowance of its own.
    expect(limiter.allowEmail("new@labcash.test", "203.0.113.0", ["signup"])).toEqual({ ok: true });
    now += 12 * 60_000;
    expect(ask("v0-5@labcash.test", "203.0.113.0")).toEqual({ ok: true });
  });
});

describe("timing", () => {
  it("a sign-in for an unknown address costs a bcrypt comparison like a known one", async () => {
    // At GoTrue's cost, the demo player's own (supabase/seed.sql hashes it at 10).
    const lenient = await startTestServer({ passwordHashCost: "default" });
    try {
      const time = async (email: string) => {
        const started = performance.now();
        await client(lenient).auth.signInWithPassword({ email, password: "Wrong-password-1" });
        return performance.now() - started;
      };
      const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 5; i++) {
        known.push(await time("player@labcash.test"));
        unknown.push(await time(uniqueEmail("nobody")));
      }
      // bcrypt at cost 10 is tens of milliseconds; a lookup alone is one or two.
      expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
    } finally {
      await lenient.stop();
    }
  });
});
