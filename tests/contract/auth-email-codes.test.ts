// E-mailed codes that cannot be guessed (the embedded backend's layer): eight digits that work for ten minutes, as
// supabase/config.toml sets them for hosted projects; after five wrong codes for an address, from any visitors
// together, its outstanding codes are void until a new one is sent; and a few new codes an address an hour. Each
// wrong code comes from its own visitor, forwarded as the site's server forwards it (visitor-fetch.ts), so only a
// count per address can stop them.
import { createClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitorFetch } from "@/lib/supabase/visitor-fetch";
import { EMAIL_OTP } from "@/supabase/embedded";
import { GOTRUE_RATE_LIMITS } from "@labcash/embedded-supabase/rate-limit";
import {
  adminClient,
  birthDateYearsAgo,
  DEMO_PASSWORD,
  mailFor,
  PUBLISHABLE_KEY,
  SECRET_KEY,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from "./helpers";

let server: TestServer;
beforeAll(async () => {
  // GoTrue's limits as a newcomer has them, but for the minute between two e-mails to one address, so the owner's
  // new code need not wait for it (its own test covers that gap).
  server = await startTestServer({ rateLimits: { ...GOTRUE_RATE_LIMITS, emailSecondsApart: 0 } });
});
afterAll(() => server?.stop());

let nextVisitor = 1;
/** A supabase-js client for a new visitor (each its own address, as 200 attackers behind the site would be). */
const newVisitor = () =>
  createClient(server.url, PUBLISHABLE_KEY, {
    global: {
      fetch: visitorFetch(`192.0.2.${nextVisitor++}`, { publishableKey: PUBLISHABLE_KEY, secretKey: SECRET_KEY }),
    },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });

/** Another 8-digit code than `code`. */
const wrongFor = (code: string, step = 1) => String((Number(code) + step) % 100_000_000).padStart(8, "0");

async function newestCode(email: string): Promise<string> {
  const [mail] = await mailFor(server, email);
  return mail.token!;
}

async function newPlayer(): Promise<string> {
  const email = uniqueEmail("codes");
  const { error } = await adminClient(server).auth.admin.createUser({
    email,
    password: DEMO_PASSWORD,
    email_confirm: true,
    user_metadata: { name: "Code Owner", date_of_birth: birthDateYearsAgo(30) },
  });
  expect(error).toBeNull();
  return email;
}

describe("e-mailed codes", () => {
  it("are eight digits that work for ten minutes, and the mail says so", async () => {
    expect(EMAIL_OTP).toEqual({ length: 8, expirySeconds: 600 });
    const email = await newPlayer();
    await newVisitor().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const [mail] = await mailFor(server, email);
    expect(mail.token).toMatch(/^\d{8}$/);
    expect(mail.body).toContain(`Or enter this code: ${mail.token}`);
    expect(mail.body).toContain("The link and code expire in 10 minutes.");
  });

  it("after five wrong codes from five visitors the right one no longer signs in; the owner's new code does", async () => {
    const email = "player@labcash.test";
    const other = await newPlayer();
    await newVisitor().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    await newVisitor().auth.signInWithOtp({ email: other, options: { shouldCreateUser: false } });
    const right = await newestCode(email);
    const othersCode = await newestCode(other);

    for (let i = 1; i <= 5; i++) {
      const { error } = await newVisitor().auth.verifyOtp({ email, token: wrongFor(right, i), type: "email" });
      expect(error).toMatchObject({ status: 403, code: "otp_expired" });
    }
    const refused = await newVisitor().auth.verifyOtp({ email, token: right, type: "email" });
    expect(refused.error).toMatchObject({
      status: 403,
      code: "otp_expired",
      message: "Token has expired or is invalid",
    });
    expect(refused.data.session).toBeNull();
    // Void, not merely refused: the token behind the code and its link is gone.
    const { rows } = await server.db.query<{ recovery_token: string | null }>(
      "select recovery_token from auth.users where email = $1",
      [email],
    );
    expect(rows[0].recovery_token).toBeNull();

    // Another account is untouched: its code still signs its owner in.
    const othersSession = await newVisitor().auth.verifyOtp({ email: other, token: othersCode, type: "email" });
    expect(othersSession.error).toBeNull();
    expect(othersSession.data.user?.email).toBe(other);

    // The owner asks for a new code, which starts with a full allowance and signs them in.
    const owner = newVisitor();
    expect((await owner.auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    const fresh = await newestCode(email);
    expect(fresh).not.toBe(right);
    const signedIn = await owner.auth.verifyOtp({ email, token: fresh, type: "email" });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user?.email).toBe(email);
  });

  it("four wrong codes leave the right one working, and a right code starts the count again", async () => {
    const email = await newPlayer();
    await newVisitor().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const right = await newestCode(email);
    for (let i = 1; i <= 4; i++) await newVisitor().auth.verifyOtp({ email, token: wrongFor(right, i), type: "email" });
    expect((await newVisitor().auth.verifyOtp({ email, token: right, type: "email" })).error).toBeNull();

    await newVisitor().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const next = await newestCode(email);
    for (let i = 1; i <= 4; i++) await newVisitor().auth.verifyOtp({ email, token: wrongFor(next, i), type: "email" });
    expect((await newVisitor().auth.verifyOtp({ email, token: next, type: "email" })).error).toBeNull();
  });

  it("voids a password reset code and an e-mail change code alike", async () => {
    const email = await newPlayer();
    await newVisitor().auth.resetPasswordForEmail(email);
    const reset = await newestCode(email);
    for (let i = 1; i <= 5; i++)
      await newVisitor().auth.verifyOtp({ email, token: wrongFor(reset, i), type: "recovery" });
    const resetRefused = await newVisitor().auth.verifyOtp({ email, token: reset, type: "recovery" });
    expect(resetRefused.error).toMatchObject({ status: 403, code: "otp_expired" });

    // An e-mail change: the code sent to the new address is void after five wrong ones for that address.
    const owner = newVisitor();
    await owner.auth.signInWithPassword({ email, password: DEMO_PASSWORD });
    const moved = uniqueEmail("moved");
    expect((await owner.auth.updateUser({ email: moved })).error).toBeNull();
    const change = await newestCode(moved);
    for (let i = 1; i <= 5; i++)
      await newVisitor().auth.verifyOtp({ email: moved, token: wrongFor(change, i), type: "email_change" });
    const changeRefused = await newVisitor().auth.verifyOtp({ email: moved, token: change, type: "email_change" });
    expect(changeRefused.error).toMatchObject({ status: 403, code: "otp_expired" });
  });

  it("counts wrong codes for an unknown address as for a known one, so the answers tell nothing apart", async () => {
    const unknown = uniqueEmail("nobody");
    const answers = new Set<string | undefined>();
    for (let i = 0; i < 7; i++) {
      const { error } = await newVisitor().auth.verifyOtp({ email: unknown, token: "12345678", type: "email" });
      answers.add(`${error?.status} ${error?.code} ${error?.message}`);
    }
    expect([...answers]).toEqual(["403 otp_expired Token has expired or is invalid"]);
  });
});

describe("new codes per address", () => {
  it("five an hour, whoever asks; the sixth is refused alike for a known and an unknown address", async () => {
    const known = await newPlayer();
    const unknown = uniqueEmail("nobody");
    for (const email of [known, unknown]) {
      for (let i = 0; i < 5; i++) {
        const { error } = await newVisitor().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
        expect(error?.code ?? null).toBe(email === known ? null : "otp_disabled");
      }
      const sixth = await newVisitor().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
      expect(sixth.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
      const reset = await newVisitor().auth.resetPasswordForEmail(email);
      expect(reset.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
    }
    expect(await mailFor(server, known)).toHaveLength(5);
    // Other addresses still get theirs.
    const other = await newPlayer();
    expect(
      (await newVisitor().auth.signInWithOtp({ email: other, options: { shouldCreateUser: false } })).error,
    ).toBeNull();
  });

  it("a request refused at the limit leaves the outstanding code with the wrong tries it had left", async () => {
    const email = await newPlayer();
    for (let i = 0; i < 5; i++) await newVisitor().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const right = await newestCode(email);
    for (let i = 1; i <= 3; i++) await newVisitor().auth.verifyOtp({ email, token: wrongFor(right, i), type: "email" });
    const refused = await newVisitor().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(refused.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
    // No new code went, so no new tries: two more wrong codes are the fifth, and the right one is void.
    for (let i = 4; i <= 5; i++) await newVisitor().auth.verifyOtp({ email, token: wrongFor(right, i), type: "email" });
    const late = await newVisitor().auth.verifyOtp({ email, token: right, type: "email" });
    expect(late.error).toMatchObject({ status: 403, code: "otp_expired" });
  });

  it("so does an e-mail change refused for the minute between two e-mails: the new address's code keeps its count", async () => {
    const spaced = await startTestServer({ rateLimits: GOTRUE_RATE_LIMITS });
    try {
      const visitorOf = (url: string) =>
        createClient(url, PUBLISHABLE_KEY, {
          global: {
            fetch: visitorFetch(`192.0.2.${nextVisitor++}`, { publishableKey: PUBLISHABLE_KEY, secretKey: SECRET_KEY }),
          },
          auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        });
      const email = uniqueEmail("codes");
      await adminClient(spaced).auth.admin.createUser({
        email,
        password: DEMO_PASSWORD,
        email_confirm: true,
        user_metadata: { name: "Code Owner", date_of_birth: birthDateYearsAgo(30) },
      });
      const owner = visitorOf(spaced.url);
      await owner.auth.signInWithPassword({ email, password: DEMO_PASSWORD });
      const moved = uniqueEmail("moved");
      expect((await owner.auth.updateUser({ email: moved })).error).toBeNull();
      const [mail] = await mailFor(spaced, moved);
      const right = mail.token!;
      const guess = (code: string) =>
        visitorOf(spaced.url).auth.verifyOtp({ email: moved, token: code, type: "email_change" });
      for (let i = 1; i <= 3; i++) await guess(wrongFor(right, i));
      const refused = await owner.auth.updateUser({ email: moved });
      expect(refused.error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
      // No new code went, so no new tries: two more wrong codes are the fifth, and the right one is void.
      for (let i = 4; i <= 5; i++) await guess(wrongFor(right, i));
      expect((await guess(right)).error).toMatchObject({ status: 403, code: "otp_expired" });
    } finally {
      await spaced.stop();
    }
  });
});
