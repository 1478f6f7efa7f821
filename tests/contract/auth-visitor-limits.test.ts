// The auth server's limits count per visitor, and the limits on wrong
// passwords and codes per account, so no visitor can lock another out. Each test reproduces an attack
// seen against the old limits (one address for every visitor behind the site's server) and shows the
// real visitor still gets in. Visitors are told apart as the site tells them apart: its server
// forwards each one's address as Sb-Forwarded-For with the secret key (lib/supabase/visitor-fetch.ts,
// the same function the site uses).
import { createClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { RateLimiter, GOTRUE_RATE_LIMITS } from "@labcash/embedded-supabase/rate-limit";
import { totpCode } from "@labcash/embedded-supabase/totp";
import {
  birthDateYearsAgo,
  DEMO_PASSWORD,
  mailFor,
  PUBLISHABLE_KEY,
  raw,
  SECRET_KEY,
  startTestServer,
  STRONG_PASSWORD,
  tokenHashFrom,
  uniqueEmail,
  visitorClient,
  type TestServer,
} from "./helpers";
import { contractServer } from "./support/server";

// GoTrue's own limits, as a newcomer's `npm run dev` has them.
const contract = contractServer({ rateLimits: GOTRUE_RATE_LIMITS });

let nextVisitor = 10;
/** A new visitor's address (documentation range), as the site's server would forward it. */
const newVisitor = () => `198.51.100.${nextVisitor++}`;

/** A supabase-js client acting for one visitor, as the site's server does. */
const asVisitor = (visitor: string) => visitorClient(contract.server, visitor);

/** Mail to real accounts still goes, from fresh visitors: a player's reset and an admin's inbox code. */
async function expectAccountMailStillGoes(
  probe: TestServer,
  post: (visitor: string, path: string, body: Record<string, unknown>) => Promise<Response>,
) {
  const player = await post(newVisitor(), "/recover", { email: "player@labcash.test" });
  expect(player.status).toBe(200);
  expect((await mailFor(probe, "player@labcash.test")).map((m) => m.kind)).toEqual(["recovery"]);
  const admin = visitorClient(probe, newVisitor());
  expect(
    (await admin.auth.signInWithPassword({ email: "admin@labcash.test", password: DEMO_PASSWORD })).error,
  ).toBeNull();
  expect((await admin.auth.reauthenticate()).error).toBeNull();
  expect((await mailFor(probe, "admin@labcash.test")).map((m) => m.kind)).toEqual(["reauthentication"]);
}

/** A POST to the auth API for one visitor, forwarded as the site forwards it. */
function postAs(visitor: string, path: string, body: Record<string, unknown>) {
  return raw(contract.server, `/auth/v1${path}`, {
    key: SECRET_KEY,
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-supabase-api-version": "2024-01-01",
      "sb-forwarded-for": visitor,
    },
    body: JSON.stringify(body),
  });
}

async function newPlayer(visitor: string) {
  const email = uniqueEmail("visitor");
  const { error } = await asVisitor(visitor).auth.signUp({
    email,
    password: STRONG_PASSWORD,
    options: { data: { name: "Visitor", date_of_birth: birthDateYearsAgo(30) } },
  });
  if (error) throw error;
  return email;
}

describe("sign-in", () => {
  it("one visitor's 40 wrong passwords leave every other visitor free to sign in and sign up", async () => {
    const attacker = newVisitor();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const account = i % 2 ? "superadmin@labcash.test" : uniqueEmail("nobody");
      statuses.push(
        (await postAs(attacker, "/token?grant_type=password", { email: account, password: "Wrong-1" })).status,
      );
    }
    expect(statuses).toContain(429);
    const visitor = newVisitor();
    const admin = await asVisitor(visitor).auth.signInWithPassword({
      email: "superadmin@labcash.test",
      password: DEMO_PASSWORD,
    });
    expect(admin.error).toBeNull();
    expect(await newPlayer(newVisitor())).toContain("@labcash.test");
  });

  it("a browser cannot choose whose limit it spends: Sb-Forwarded-For counts only with the secret key", async () => {
    const lone = await startTestServer({ rateLimits: { ...GOTRUE_RATE_LIMITS, signInsPerFiveMinutes: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await raw(lone, "/auth/v1/token?grant_type=password", {
          method: "POST",
          headers: { "content-type": "application/json", "sb-forwarded-for": `203.0.113.${i + 1}` },
          body: JSON.stringify({ email: "player@labcash.test", password: "Wrong-1" }),
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await lone.stop();
    }
  });

  it("one IPv6 network is one visitor, in any spelling, and a forwarded value that is not an address is no visitor", async () => {
    const lone = await startTestServer({ rateLimits: { ...GOTRUE_RATE_LIMITS, signInsPerFiveMinutes: 3 } });
    const guessFrom = async (forwarded: string) =>
      (
        await raw(lone, "/auth/v1/token?grant_type=password", {
          key: SECRET_KEY,
          method: "POST",
          headers: { "content-type": "application/json", "sb-forwarded-for": forwarded },
          body: JSON.stringify({ email: uniqueEmail("nobody"), password: "Wrong-1" }),
        })
      ).status;
    try {
      // Four spellings and addresses of one /64: the fourth is over that visitor's limit of three.
      const statuses = [];
      for (const address of [
        "2001:db8:1:2::1",
        "2001:0DB8:1:2:0:0:0:0001",
        "2001:db8:1:2:ffff::9",
        "2001:db8:1:2::abcd",
      ])
        statuses.push(await guessFrom(address));
      expect(statuses).toEqual([400, 400, 400, 429]);
      // The next /64 and an IPv4 address are other visitors; the IPv4-mapped spelling of that address is the same one.
      expect(await guessFrom("2001:db8:1:3::1")).toBe(400);
      for (let i = 0; i < 3; i++) expect(await guessFrom("203.0.113.77")).toBe(400);
      expect(await guessFrom("::ffff:203.0.113.77")).toBe(429);
      // `unknown` is not a bucket of its own that strangers share: the request counts as the connection's own
      // address (this test's, 127.0.0.1), so a value that is not an address gains nothing.
      for (let i = 0; i < 3; i++) expect(await guessFrom(i % 2 ? "unknown" : "not-an-address")).toBe(400);
      expect(await guessFrom("unknown")).toBe(429);
      expect(await guessFrom("127.0.0.1")).toBe(429);
    } finally {
      await lone.stop();
    }
  });

  it("wrong passwords cool down the visitor who typed them on that account, never its owner elsewhere", async () => {
    const guesser = newVisitor();
    const email = await newPlayer(newVisitor());
    const answers: Array<{ status: number; code: string }> = [];
    for (let i = 0; i < 6; i++) {
      const res = await postAs(guesser, "/token?grant_type=password", { email, password: `Wrong-${i}A` });
      answers.push({ status: res.status, code: ((await res.json()) as { code: string }).code });
    }
    expect(answers.slice(0, 5).every((a) => a.code === "invalid_credentials")).toBe(true);
    expect(answers[5]).toEqual({ status: 429, code: "over_request_rate_limit" });
    // Even the right password waits for the guesser…
    expect((await postAs(guesser, "/token?grant_type=password", { email, password: STRONG_PASSWORD })).status).toBe(
      429,
    );
    // …while the owner, from their own address, signs in at once.
    const owner = await asVisitor(newVisitor()).auth.signInWithPassword({ email, password: STRONG_PASSWORD });
    expect(owner.error).toBeNull();
  });

  it("the buckets refill steadily rather than resetting everyone at once", () => {
    let now = 0;
    const limiter = new RateLimiter(GOTRUE_RATE_LIMITS, () => now);
    for (let i = 0; i < 30; i++) expect(limiter.allow("sign_in", "a")).toBe(true);
    expect(limiter.allow("sign_in", "a")).toBe(false);
    expect(limiter.allow("sign_in", "b")).toBe(true);
    now += 10_000; // 30 per five minutes: one every ten seconds
    expect(limiter.allow("sign_in", "a")).toBe(true);
    expect(limiter.allow("sign_in", "a")).toBe(false);
  });
});

describe("links and refreshes", () => {
  it("32 junk link verifications from one visitor leave another visitor's real link working", async () => {
    const attacker = newVisitor();
    for (let i = 0; i < 32; i++) await postAs(attacker, "/verify", { type: "recovery", token_hash: `junk-${i}` });
    expect((await postAs(attacker, "/verify", { type: "recovery", token_hash: "junk" })).status).toBe(429);

    const owner = newVisitor();
    const email = await newPlayer(owner);
    expect((await asVisitor(owner).auth.resetPasswordForEmail(email)).error).toBeNull();
    const recovery = (await mailFor(contract.server, email)).find((m) => m.kind === "recovery")!;
    const { tokenHash } = tokenHashFrom(recovery.body);
    const { data, error } = await asVisitor(owner).auth.verifyOtp({ token_hash: tokenHash, type: "recovery" });
    expect(error).toBeNull();
    expect(data.session).not.toBeNull();
  });

  it("155 junk refreshes from one visitor leave another visitor's session refreshing", async () => {
    const attacker = newVisitor();
    const statuses: number[] = [];
    for (let i = 0; i < 155; i++)
      statuses.push((await postAs(attacker, "/token?grant_type=refresh_token", { refresh_token: `junk-${i}` })).status);
    expect(statuses.at(-1)).toBe(429);
    const visitor = asVisitor(newVisitor());
    const { data } = await visitor.auth.signInWithPassword({ email: "player@labcash.test", password: DEMO_PASSWORD });
    const refreshed = await visitor.auth.refreshSession({ refresh_token: data.session!.refresh_token });
    expect(refreshed.error).toBeNull();
  });
});

describe("second factors", () => {
  /** A player with an authenticator, signed in at aal1 through one visitor's client. */
  async function playerWithFactor(visitor: string) {
    const email = await newPlayer(visitor);
    const c = asVisitor(visitor);
    await c.auth.signInWithPassword({ email, password: STRONG_PASSWORD });
    const { data: enrolled } = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "App" });
    const secret = enrolled!.totp.secret;
    const verified = await c.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code: totpCode(secret) });
    expect(verified.error).toBeNull();
    const fresh = asVisitor(visitor);
    await fresh.auth.signInWithPassword({ email, password: STRONG_PASSWORD });
    return { client: fresh, factorId: enrolled!.id, secret };
  }
  const wrongCode = (secret: string) => String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, "0");

  it("one account's wrong codes never block another account's code step", async () => {
    const a = await playerWithFactor(newVisitor());
    const b = await playerWithFactor(newVisitor());
    for (let i = 0; i < 7; i++) await a.client.auth.mfa.challengeAndVerify({ factorId: a.factorId, code: "000000" });
    const ok = await b.client.auth.mfa.challengeAndVerify({ factorId: b.factorId, code: totpCode(b.secret) });
    expect(ok.error).toBeNull();
    expect(ok.data?.access_token).toBeTruthy();
  });

  it("a challenge is void after 5 wrong codes, and a run of wrong codes cools down the visitor who typed them", async () => {
    const { client: c, factorId, secret } = await playerWithFactor(newVisitor());
    const { data: challenge } = await c.auth.mfa.challenge({ factorId });
    const codes: Array<string | undefined> = [];
    for (let i = 0; i < 5; i++) {
      const { error } = await c.auth.mfa.verify({ factorId, challengeId: challenge!.id, code: wrongCode(secret) });
      codes.push(error?.code);
    }
    expect(codes).toEqual(Array(5).fill("mfa_verification_failed"));
    // The right code no longer opens that challenge (it is gone), nor, for the cool-down, a new one.
    const onVoid = await c.auth.mfa.verify({ factorId, challengeId: challenge!.id, code: totpCode(secret) });
    expect(onVoid.error?.code).toBe("mfa_factor_not_found");
    const { data: next } = await c.auth.mfa.challenge({ factorId });
    const cooled = await c.auth.mfa.verify({ factorId, challengeId: next!.id, code: totpCode(secret) });
    expect(cooled.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
  });

  it("300 guesses at one challenge are refused long before the right code could be found", async () => {
    const lenient = await startTestServer({ rateLimits: { ...GOTRUE_RATE_LIMITS, factorAttemptsPerMinute: Infinity } });
    try {
      const email = uniqueEmail("guess");
      const c = createClient(lenient.url, PUBLISHABLE_KEY, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      });
      await c.auth.signUp({
        email,
        password: STRONG_PASSWORD,
        options: { data: { date_of_birth: birthDateYearsAgo(30) } },
      });
      const { data: enrolled } = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "App" });
      const secret = enrolled!.totp.secret;
      await c.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code: totpCode(secret) });
      await c.auth.signInWithPassword({ email, password: STRONG_PASSWORD });
      const { data: challenge } = await c.auth.mfa.challenge({ factorId: enrolled!.id });
      let accepted = 0;
      for (let guess = 0; guess < 300; guess++) {
        const code = String(guess).padStart(6, "0");
        const { error } = await c.auth.mfa.verify({ factorId: enrolled!.id, challengeId: challenge!.id, code });
        if (!error) accepted += 1;
      }
      const right = await c.auth.mfa.verify({
        factorId: enrolled!.id,
        challengeId: challenge!.id,
        code: totpCode(secret),
      });
      expect(accepted + (right.error ? 0 : 1)).toBe(0);
    } finally {
      await lenient.stop();
    }
  });
});

describe("e-mail", () => {
  it("one visitor's throwaway sign-ups and resets cannot spend the e-mail allowance of everyone", async () => {
    const confirming = await startTestServer({ rateLimits: GOTRUE_RATE_LIMITS, mailConfirmation: true });
    const post = (visitor: string, path: string, body: Record<string, unknown>) =>
      raw(confirming, `/auth/v1${path}`, {
        key: SECRET_KEY,
        method: "POST",
        headers: { "content-type": "application/json", "sb-forwarded-for": visitor },
        body: JSON.stringify(body),
      });
    try {
      const attacker = newVisitor();
      const sent: string[] = [];
      for (let i = 0; i < 31; i++) {
        const email = uniqueEmail("throwaway");
        const res = await post(attacker, "/signup", {
          email,
          password: STRONG_PASSWORD,
          data: { date_of_birth: birthDateYearsAgo(30) },
        });
        if (res.status === 200) sent.push(email);
      }
      for (let i = 0; i < 28; i++) {
        const email = uniqueEmail("reset");
        if ((await post(attacker, "/recover", { email })).status === 200) sent.push(email);
      }
      // A visitor's allowance of each kind: mail to new addresses (sign-ups), and mail to accounts (resets).
      expect(sent.length).toBe(2 * GOTRUE_RATE_LIMITS.emailsPerVisitorPerHour);
      // Real players' confirmations and resets, from their own addresses, are still sent.
      for (let i = 0; i < 3; i++) {
        const email = uniqueEmail("real");
        const signUp = await post(newVisitor(), "/signup", {
          email,
          password: STRONG_PASSWORD,
          data: { date_of_birth: birthDateYearsAgo(30) },
        });
        expect(signUp.status).toBe(200);
        expect((await mailFor(confirming, email)).map((m) => m.kind)).toEqual(["signup"]);
      }
    } finally {
      await confirming.stop();
    }
  });

  it("six visitors asking for links to unknown addresses spend nothing: a player's reset and an admin's inbox code still go", async () => {
    const probe = await startTestServer({ rateLimits: GOTRUE_RATE_LIMITS });
    const post = (visitor: string, path: string, body: Record<string, unknown>) =>
      raw(probe, `/auth/v1${path}`, {
        key: SECRET_KEY,
        method: "POST",
        headers: { "content-type": "application/json", "sb-forwarded-for": visitor },
        body: JSON.stringify(body),
      });
    try {
      const answers = new Set<number>();
      for (let v = 0; v < 6; v++) {
        const attacker = newVisitor();
        for (let i = 0; i < 10; i++) {
          const res = await post(attacker, "/otp", { email: uniqueEmail("nobody"), create_user: false });
          answers.add(res.status);
        }
      }
      // Each visitor had its own few (422 otp_disabled, as for any unknown address), then 429s of its own.
      expect([...answers].sort()).toEqual([422, 429]);
      // The project's mail to accounts is untouched: a player's reset and an admin's inbox code go out.
      await expectAccountMailStillGoes(probe, post);
    } finally {
      await probe.stop();
    }
  });

  it("six visitors spending their allowances on accounts of their own stop nobody's mail: a player's reset and an admin's inbox code still go", async () => {
    const probe = await startTestServer({ rateLimits: GOTRUE_RATE_LIMITS });
    const post = (visitor: string, path: string, body: Record<string, unknown>) =>
      raw(probe, `/auth/v1${path}`, {
        key: SECRET_KEY,
        method: "POST",
        headers: { "content-type": "application/json", "sb-forwarded-for": visitor },
        body: JSON.stringify(body),
      });
    try {
      let resets = 0;
      for (let v = 0; v < 6; v++) {
        const attacker = newVisitor();
        // Addresses that do have accounts: the attacker's own sign-ups, one reset each (an address takes one a minute).
        for (let i = 0; i < GOTRUE_RATE_LIMITS.emailsPerVisitorPerHour; i++) {
          const email = uniqueEmail("own");
          const signUp = await post(attacker, "/signup", {
            email,
            password: STRONG_PASSWORD,
            data: { date_of_birth: birthDateYearsAgo(30) },
          });
          expect(signUp.status).toBe(200);
          const reset = await post(attacker, "/recover", { email });
          expect(reset.status).toBe(200);
          expect((await mailFor(probe, email)).map((m) => m.kind)).toEqual(["recovery"]);
          resets++;
        }
        // The visitor's own allowance is spent, and only theirs.
        expect((await post(attacker, "/recover", { email: uniqueEmail("own") })).status).toBe(429);
      }
      // Thirty resets went out: GoTrue's whole project pool of an hour by default.
      expect(resets).toBe(30);
      await expectAccountMailStillGoes(probe, post);
    } finally {
      await probe.stop();
    }
  });

  it("six visitors' sign-ups stop nobody else's: a real player's confirmation still goes", async () => {
    const confirming = await startTestServer({ rateLimits: GOTRUE_RATE_LIMITS, mailConfirmation: true });
    const signUp = (visitor: string, email: string) =>
      raw(confirming, `/auth/v1/signup`, {
        key: SECRET_KEY,
        method: "POST",
        headers: { "content-type": "application/json", "sb-forwarded-for": visitor },
        body: JSON.stringify({ email, password: STRONG_PASSWORD, data: { date_of_birth: birthDateYearsAgo(30) } }),
      });
    try {
      for (let v = 0; v < 6; v++) {
        const attacker = newVisitor();
        for (let i = 0; i < GOTRUE_RATE_LIMITS.emailsPerVisitorPerHour; i++)
          expect((await signUp(attacker, uniqueEmail("throwaway"))).status).toBe(200);
      }
      const email = uniqueEmail("real");
      expect((await signUp(newVisitor(), email)).status).toBe(200);
      expect((await mailFor(confirming, email)).map((m) => m.kind)).toEqual(["signup"]);
    } finally {
      await confirming.stop();
    }
  });

  it("a refused reset reads the same for an address with an account and one without", async () => {
    const visitor = newVisitor();
    const known = await newPlayer(newVisitor());
    const unknown = uniqueEmail("nobody");
    const first = [
      await postAs(visitor, "/recover", { email: known }),
      await postAs(visitor, "/recover", { email: unknown }),
    ];
    expect(first.map((r) => r.status)).toEqual([200, 200]);
    const again = [
      await postAs(visitor, "/recover", { email: known }),
      await postAs(visitor, "/recover", { email: unknown }),
    ];
    const bodies = await Promise.all(again.map((r) => r.json() as Promise<{ code: string }>));
    expect(again.map((r) => r.status)).toEqual([429, 429]);
    expect(bodies.map((b) => b.code)).toEqual(["over_email_send_rate_limit", "over_email_send_rate_limit"]);
  });
});
