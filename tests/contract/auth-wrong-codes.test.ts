// Wrong authenticator codes hold back the visitor who typed them, never the account's owner: a password thief
// at one address types wrong codes while the owner, at another, gives the right code and changes the password.
// Guessing from many addresses stays bounded (a challenge is void after 5 wrong codes, a factor takes 50 wrong
// codes a day from everyone) and the owner hears of the first burst by e-mail, once. The rule is the app's MFA
// verification attempt hook in SQL (private.hook_mfa_verification_attempt), which the embedded auth server calls
// as GoTrue does, beside its own per-visitor cool-down. Visitors are told apart as the site tells them apart:
// Sb-Forwarded-For with the secret key (lib/supabase/visitor-fetch.ts).
import { readFile } from "node:fs/promises";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MFA_VERIFICATION_ATTEMPT_HOOK } from "@/supabase/embedded";
import { GOTRUE_RATE_LIMITS } from "@labcash/embedded-supabase/rate-limit";
import { totpCode } from "@labcash/embedded-supabase/totp";
import {
  birthDateYearsAgo,
  startTestServer,
  STRONG_PASSWORD,
  uniqueEmail,
  visitorClient,
  type TestServer,
} from "./helpers";

let server: TestServer;
beforeAll(async () => {
  // GoTrue's own limits, as a newcomer's `npm run dev` has them.
  server = await startTestServer({ rateLimits: GOTRUE_RATE_LIMITS });
});
afterAll(() => server?.stop());

let nextVisitor = 1;
/** A new visitor's address (documentation ranges), as the site's server would forward it. */
const newVisitor = () => `203.0.113.${nextVisitor++}`;

/** A supabase-js client acting for one visitor, as the site's server does. */
const asVisitor = (visitor: string) => visitorClient(server, visitor);

/** A code that is neither the current one nor a neighbour the server also takes. */
function wrongCode(secret: string): string {
  const near = new Set([-30, 0, 30].map((skew) => totpCode(secret, Date.now() / 1000 + skew)));
  let n = Number(totpCode(secret));
  do n = (n + 7919) % 1_000_000;
  while (near.has(String(n).padStart(6, "0")));
  return String(n).padStart(6, "0");
}

/** A player with a verified authenticator; `signInFrom` gives a fresh aal1 session at an address, as a thief's. */
async function playerWithFactor() {
  const email = uniqueEmail("owner");
  const home = asVisitor(newVisitor());
  const { error } = await home.auth.signUp({
    email,
    password: STRONG_PASSWORD,
    options: { data: { name: "Owner", date_of_birth: birthDateYearsAgo(30) } },
  });
  if (error) throw error;
  const { data: enrolled } = await home.auth.mfa.enroll({ factorType: "totp", friendlyName: "App" });
  const factorId = enrolled!.id;
  const secret = enrolled!.totp.secret;
  expect((await home.auth.mfa.challengeAndVerify({ factorId, code: totpCode(secret) })).error).toBeNull();
  const { data: user } = await home.auth.getUser();
  async function signInFrom(visitor: string) {
    const c = asVisitor(visitor);
    const { error: refused } = await c.auth.signInWithPassword({ email, password: STRONG_PASSWORD });
    if (refused) throw refused;
    return c;
  }
  return { email, userId: user.user!.id, factorId, secret, signInFrom };
}

/** The same aal1 session used from another address, as a thief spreads one stolen sign-in over many. */
async function sameSessionFrom(session: SupabaseClient, visitor: string): Promise<SupabaseClient> {
  const { data } = await session.auth.getSession();
  const c = asVisitor(visitor);
  await c.auth.setSession({ access_token: data.session!.access_token, refresh_token: data.session!.refresh_token });
  return c;
}

async function burstMails(userId: string): Promise<number> {
  const { rows } = await server.db.query<{ n: number }>(
    "select count(*)::int as n from public.mail_outbox where to_user = $1 and kind = 'two_step_wrong_codes'",
    [userId],
  );
  return rows[0].n;
}

describe("a password thief typing wrong codes", () => {
  it("cools down the thief's address only: the owner elsewhere signs in at aal2 and changes the password at once", async () => {
    const owner = await playerWithFactor();
    const thiefAddress = newVisitor();
    const thief = await owner.signInFrom(thiefAddress);
    const answers: Array<string | undefined> = [];
    // Six wrong codes and then the right one: seven tries, within GoTrue's 15 challenges and verifications a minute.
    for (let i = 0; i < 6; i++) {
      const { error } = await thief.auth.mfa.challengeAndVerify({
        factorId: owner.factorId,
        code: wrongCode(owner.secret),
      });
      answers.push(error?.code);
    }
    expect(answers).toEqual([...Array(5).fill("mfa_verification_failed"), "over_request_rate_limit"]);
    // Even the right code waits at the thief's address.
    const cooled = await thief.auth.mfa.challengeAndVerify({ factorId: owner.factorId, code: totpCode(owner.secret) });
    expect(cooled.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
    expect(cooled.error?.message).toMatch(/^Too many wrong codes\. Try again in \d+ seconds\.$/);

    const home = await owner.signInFrom(newVisitor());
    const verified = await home.auth.mfa.challengeAndVerify({ factorId: owner.factorId, code: totpCode(owner.secret) });
    expect(verified.error).toBeNull();
    const { data: aal } = await home.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal?.currentLevel).toBe("aal2");
    const changed = await home.auth.updateUser({ password: "Changed-pass-43" });
    expect(changed.error).toBeNull();
    const { error: withNew } = await asVisitor(newVisitor()).auth.signInWithPassword({
      email: owner.email,
      password: "Changed-pass-43",
    });
    expect(withNew).toBeNull();
  });

  it("is held back by the hook alone, as on hosted Supabase: the thief's right code is refused, the owner's is not", async () => {
    // Without the embedded server's own cool-down and challenge allowance, as GoTrue is.
    const hosted = await startTestServer({
      rateLimits: { ...GOTRUE_RATE_LIMITS, wrongCodesBeforeCoolDown: Infinity, wrongCodesPerChallenge: Infinity },
    });
    const main = server;
    server = hosted;
    try {
      const owner = await playerWithFactor();
      const thief = await owner.signInFrom(newVisitor());
      // One challenge for every code (GoTrue lets a challenge take codes until it expires), so ten wrong codes fit
      // GoTrue's 15 challenges and verifications a minute.
      const challenge = await thief.auth.mfa.challenge({ factorId: owner.factorId });
      const challengeId = challenge.data!.id;
      for (let i = 0; i < 10; i++) {
        const { error } = await thief.auth.mfa.verify({
          factorId: owner.factorId,
          challengeId,
          code: wrongCode(owner.secret),
        });
        expect(error?.code).toBe("mfa_verification_failed");
      }
      const lucky = await thief.auth.mfa.verify({
        factorId: owner.factorId,
        challengeId,
        code: totpCode(owner.secret),
      });
      expect(lucky.error).toMatchObject({ status: 403, code: "mfa_verification_rejected" });
      const home = await owner.signInFrom(newVisitor());
      const verified = await home.auth.mfa.challengeAndVerify({
        factorId: owner.factorId,
        code: totpCode(owner.secret),
      });
      expect(verified.error).toBeNull();
      expect((await home.auth.updateUser({ password: "Changed-pass-44" })).error).toBeNull();
    } finally {
      server = main;
      await hosted.stop();
    }
  });

  it("e-mails the owner once for the burst, whatever follows that day", async () => {
    const owner = await playerWithFactor();
    const thief = await owner.signInFrom(newVisitor());
    for (let i = 0; i < 4; i++)
      await thief.auth.mfa.challengeAndVerify({ factorId: owner.factorId, code: wrongCode(owner.secret) });
    expect(await burstMails(owner.userId)).toBe(0);
    await thief.auth.mfa.challengeAndVerify({ factorId: owner.factorId, code: wrongCode(owner.secret) });
    expect(await burstMails(owner.userId)).toBe(1);
    // More wrong codes from other addresses the same day send nothing more.
    for (let i = 0; i < 3; i++) {
      const more = await sameSessionFrom(thief, newVisitor());
      await more.auth.mfa.challengeAndVerify({ factorId: owner.factorId, code: wrongCode(owner.secret) });
    }
    expect(await burstMails(owner.userId)).toBe(1);
    const { rows } = await server.db.query<{ to_email: string; subject: string; body_text: string }>(
      "select to_email, subject, body_text from public.mail_outbox where to_user = $1 and kind = 'two_step_wrong_codes'",
      [owner.userId],
    );
    expect(rows[0]).toMatchObject({ to_email: owner.email, subject: "Wrong two-step codes for your LabCash account" });
    expect(rows[0].body_text).toContain("their wrong codes do not lock you out");
    expect(rows[0].body_text).toContain("change your password on your profile page now");
  });

  it("voids a challenge after 5 wrong codes: the right code no longer opens it", async () => {
    const owner = await playerWithFactor();
    const thief = await owner.signInFrom(newVisitor());
    const { data: challenge } = await thief.auth.mfa.challenge({ factorId: owner.factorId });
    for (let i = 0; i < 5; i++) {
      const { error } = await thief.auth.mfa.verify({
        factorId: owner.factorId,
        challengeId: challenge!.id,
        code: wrongCode(owner.secret),
      });
      expect(error?.code).toBe("mfa_verification_failed");
    }
    const onVoid = await thief.auth.mfa.verify({
      factorId: owner.factorId,
      challengeId: challenge!.id,
      code: totpCode(owner.secret),
    });
    expect(onVoid.error?.code).toBe("mfa_factor_not_found");
  });
});

describe("guessing from many addresses", () => {
  it("stops at 50 wrong codes a day: past that an address that mistyped twice cannot pass, a clean one still can", async () => {
    const owner = await playerWithFactor();
    const stolen = await owner.signInFrom(newVisitor());
    // 25 addresses, two wrong codes each: the factor's day is spent.
    const guessers: SupabaseClient[] = [];
    for (let i = 0; i < 25; i++) {
      const guesser = await sameSessionFrom(stolen, newVisitor());
      for (let j = 0; j < 2; j++) {
        const { error } = await guesser.auth.mfa.challengeAndVerify({
          factorId: owner.factorId,
          code: wrongCode(owner.secret),
        });
        expect(error?.code).toBe("mfa_verification_failed");
      }
      guessers.push(guesser);
    }
    const { rows } = await server.db.query<{ n: number }>(
      "select count(*)::int as n from private.two_step_wrong_codes where factor_id = $1",
      [owner.factorId],
    );
    expect(rows[0].n).toBe(50);

    // A guesser who hits the right code now is refused, and the account is signed out everywhere (GoTrue's
    // answer to a hook's rejection), the thief's stolen session with it.
    const lucky = await guessers[3].auth.mfa.challengeAndVerify({
      factorId: owner.factorId,
      code: totpCode(owner.secret),
    });
    expect(lucky.error).toMatchObject({ status: 403, code: "mfa_verification_rejected" });
    expect(lucky.error?.message).toBe("Too many wrong codes from this address. Try again in 24 hours.");
    const { rows: sessions } = await server.db.query<{ n: number }>(
      "select count(*)::int as n from auth.sessions where user_id = $1",
      [owner.userId],
    );
    expect(sessions[0].n).toBe(0);

    // The owner, from an address that has not mistyped today, still gets in with the right code (and that ends
    // every aal1 session of theirs, as GoTrue does).
    const home = await owner.signInFrom(newVisitor());
    const verified = await home.auth.mfa.challengeAndVerify({ factorId: owner.factorId, code: totpCode(owner.secret) });
    expect(verified.error).toBeNull();

    // A fresh address past the ceiling has two tries, not five: then even the right code is refused.
    const late = await owner.signInFrom(newVisitor());
    for (let j = 0; j < 2; j++)
      await late.auth.mfa.challengeAndVerify({ factorId: owner.factorId, code: wrongCode(owner.secret) });
    const refused = await late.auth.mfa.challengeAndVerify({ factorId: owner.factorId, code: totpCode(owner.secret) });
    expect(refused.error?.code).toBe("mfa_verification_rejected");
  });

  it("the hook is the one supabase/config.toml names, called as the auth server's role", async () => {
    const config = await readFile("supabase/config.toml", "utf8");
    const section = /\[auth\.hook\.mfa_verification_attempt\]\nenabled = true\nuri = "([^"]+)"/.exec(config);
    expect(section?.[1]).toBe(MFA_VERIFICATION_ATTEMPT_HOOK);
    const { rows } = await server.db.query<{ role: string; allowed: boolean }>(
      `select r.role, has_function_privilege(r.role, 'private.hook_mfa_verification_attempt(jsonb)', 'EXECUTE') as allowed
         from unnest(array['supabase_auth_admin', 'anon', 'authenticated', 'service_role']) r(role)`,
    );
    expect(rows).toEqual([
      { role: "supabase_auth_admin", allowed: true },
      { role: "anon", allowed: false },
      { role: "authenticated", allowed: false },
      { role: "service_role", allowed: false },
    ]);
  });
});
