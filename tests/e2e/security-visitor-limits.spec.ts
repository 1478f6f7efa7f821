import { expect, test, type Browser } from "@playwright/test";
import { createClient } from "@supabase/supabase-js";
import { TURNSTILE_TEST_SECRETS, TURNSTILE_TEST_SITE_KEY } from "@labcash/embedded-supabase/captcha";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { totpCode } from "@labcash/embedded-supabase/totp";
import { ProfilePage } from "./support/pages/account";
import { ResetPasswordPage, SignInPage } from "./support/pages/sign-in";
import { SignUpPage } from "./support/pages/sign-up";
import { TwoStepPage } from "./support/pages/two-step";
import { startOwnSite, type OwnSite } from "./support/own-site";
import { emptySignInAllowance } from "./support/sign-in-allowance";
import { DEMO_PASSWORD, demoUsers, uniqueEmail } from "./support/users";

// One visitor must not lock every other out. The shared e2e server runs without
// auth rate limits (every test signs its users in from this machine), so this file starts a second
// server on the same build with the limits a newcomer's `npm start` has, and tells its visitors apart
// as a proxy in front of the site would: by X-Forwarded-For, which the site forwards to the auth
// server as the visitor's address.

let own: OwnSite | undefined;
let backendPort = 0;
let site = "";

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  own = await startOwnSite("visitor-limits", {
    EMBEDDED_RATE_LIMITS: "",
    // This file plays the proxy: it names each visitor in X-Forwarded-For, appending as a proxy does.
    CLIENT_ADDRESS_HEADER: "x-forwarded-for",
    // A production start has no CAPTCHA without keys; Turnstile's always-passing test keys, declared.
    TURNSTILE_SITE_KEY: TURNSTILE_TEST_SITE_KEY,
    TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRETS.passes,
  });
  ({ backendPort, url: site } = own);
});

test.afterAll(() => own?.stop());

/** A browser context for one visitor, arriving from `address` as a proxy would report it. */
async function visitor(browser: Browser, address: string) {
  const context = await browser.newContext({ baseURL: site, extraHTTPHeaders: { "x-forwarded-for": address } });
  return { context, page: await context.newPage() };
}

async function mailTo(email: string): Promise<{ kind: string; body: string }[]> {
  const res = await fetch(`http://127.0.0.1:${backendPort}/_embedded/mail?email=${encodeURIComponent(email)}`, {
    headers: { apikey: EMBEDDED_SECRET_KEY },
  });
  return (await res.json()) as { kind: string; body: string }[];
}

/**
 * A wrong password as the site sends it for a visitor at `address` (lib/supabase/visitor-fetch.ts): the
 * secret key, and the address in Sb-Forwarded-For.
 */
function wrongPasswordFrom(address: string, email: string, attempt: number) {
  return fetch(`http://127.0.0.1:${backendPort}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: EMBEDDED_SECRET_KEY, "content-type": "application/json", "sb-forwarded-for": address },
    body: JSON.stringify({ email, password: `Wrong-guess-${attempt}` }),
  });
}

/**
 * Sign-in forms for `visitors`, each filled with a wrong password and not yet sent (sendAtOnceAndExpectRefused sends
 * them): the allowance refills a sign-in every ten seconds, so forms filled and sent one after another would, on a
 * slow enough machine, find one refilled whatever the site did.
 */
async function filledWrongSignIns(browser: Browser, visitors: string[], label: string) {
  return Promise.all(
    visitors.map(async (address, i) => {
      const guesser = await visitor(browser, address);
      const form = new SignInPage(guesser.page);
      await form.goto();
      await form.fill(uniqueEmail("nobody"), `Wrong-guess-${label}-${i}`);
      return { ...guesser, form };
    }),
  );
}

/** Sends the filled forms at once, the moment `spender`'s allowance is empty; each must be refused for it. */
async function sendAtOnceAndExpectRefused(spender: string, guessers: { form: SignInPage }[]) {
  await emptySignInAllowance(backendPort, spender);
  await Promise.all(guessers.map(({ form }) => form.submit.click()));
  for (const { form } of guessers)
    await expect(form.alert).toHaveText("Too many attempts from here. Please wait a few minutes and try again.");
}

test("one visitor's 40 wrong passwords lock out no one else", async ({ browser }) => {
  // 38 guesses at once as the site forwards them (at once: the hold-back slows only guesses made one after
  // another), then two forms: it is that same visitor's allowance the forms find spent.
  const attackerForms = await filledWrongSignIns(browser, ["203.0.113.40", "203.0.113.40"], "attacker");
  await Promise.all(
    Array.from({ length: 38 }, (_, i) =>
      wrongPasswordFrom("203.0.113.40", i % 2 ? demoUsers.superAdmin.email : uniqueEmail("nobody"), i),
    ),
  );
  await sendAtOnceAndExpectRefused("203.0.113.40", attackerForms);

  const player = await visitor(browser, "203.0.113.41");
  await new SignInPage(player.page).signInToDashboard(demoUsers.player.email, DEMO_PASSWORD);
  await expect(player.page).toHaveURL(/\/account$/);

  const admin = await visitor(browser, "203.0.113.42");
  const adminForm = new SignInPage(admin.page);
  await adminForm.goto("/admin");
  await adminForm.signIn(demoUsers.superAdmin.email, DEMO_PASSWORD);
  // Signed in: the console asks for the second step next.
  await expect(admin.page.getByRole("heading", { name: "Two-step verification", level: 1 })).toBeVisible();

  const newcomer = await visitor(browser, "203.0.113.43");
  const signUp = new SignUpPage(newcomer.page);
  await signUp.goto();
  await signUp.signUp({
    name: "Newcomer",
    email: uniqueEmail("newcomer"),
    password: "Sturdy-pass-42",
    dateOfBirth: "1990-05-01",
  });
  await expect(newcomer.page).toHaveURL(/\/pending-approval$/);
  for (const v of [...attackerForms, player, admin, newcomer]) await v.context.close();
});

test("a spoofed first X-Forwarded-For entry buys no fresh allowance; one IPv6 /64 is one visitor", async ({
  browser,
}) => {
  // The site counts the entry its proxy appended (the right-most). This visitor, 203.0.113.60 to the proxy, has
  // spent the sign-in allowance: 30 guesses at once as the site forwards them. The probe then wrote a new address
  // in front of the proxy's on every request: each is still that visitor.
  const guessers = await filledWrongSignIns(
    browser,
    ["10.0.0.2", "198.51.100.99", "unknown", "2001:db8::99"].map((spoof) => `${spoof}, 203.0.113.60`),
    "spoofed",
  );
  await Promise.all(Array.from({ length: 30 }, (_, i) => wrongPasswordFrom("203.0.113.60", uniqueEmail("nobody"), i)));
  await sendAtOnceAndExpectRefused("203.0.113.60", guessers);
  // The owner behind another address, with the same spoofed entry in front, signs in.
  const owner = await visitor(browser, "10.0.0.2, 203.0.113.61");
  await new SignInPage(owner.page).signInToDashboard(demoUsers.player.email, DEMO_PASSWORD);

  // An IPv6 visitor is their /64: the allowance spent from one address of it is spent for every other spelling.
  const sameNetwork = await filledWrongSignIns(browser, ["2001:0db8:0060:0060:abcd:0:0:0042"], "v6");
  await Promise.all(
    Array.from({ length: 30 }, (_, i) => wrongPasswordFrom("2001:db8:60:60::1", uniqueEmail("nobody"), i)),
  );
  await sendAtOnceAndExpectRefused("2001:db8:60:60::1", sameNetwork);
  // The next /64 is someone else.
  const nextNetwork = await visitor(browser, "2001:db8:60:61::1");
  await new SignInPage(nextNetwork.page).signInToDashboard(demoUsers.player.email, DEMO_PASSWORD);
  for (const v of [...guessers, owner, ...sameNetwork, nextNetwork]) await v.context.close();
});

test("junk links from one visitor leave another visitor's reset link working", async ({ browser }) => {
  const attacker = await visitor(browser, "203.0.113.50");
  for (let i = 0; i < 32; i++) {
    const junk = new URLSearchParams({
      email: uniqueEmail("nobody"),
      code: String(i).padStart(8, "0"),
      type: "recovery",
    });
    await attacker.page.request.get(`/auth/confirm?${junk}`);
  }

  const owner = await visitor(browser, "203.0.113.51");
  const reset = new ResetPasswordPage(owner.page);
  await reset.goto();
  await reset.email.fill(demoUsers.player.email);
  await reset.sendLink.click();
  await expect(reset.status).toHaveText("If an account exists for that e-mail, a reset link is on its way.");
  const [mail] = await mailTo(demoUsers.player.email);
  const link = new URL(/https?:\/\/\S+\/auth\/confirm\?\S+/.exec(mail.body)![0]);
  await owner.page.goto(link.pathname + link.search);
  await expect(owner.page).toHaveURL(/\/auth\/reset-password$/);
  await attacker.context.close();
  await owner.context.close();
});

test("past three e-mails an hour a visitor confirms they are a person; the e-mail allowance still holds, and no one else is asked", async ({
  browser,
}) => {
  const SENT = "If an account exists for that e-mail, a reset link is on its way.";
  const { context, page } = await visitor(browser, "203.0.113.60");
  const reset = new ResetPasswordPage(page);
  /** A reset for a new address. A fresh form each time: the form clears itself after an answer. */
  const ask = async () => {
    await reset.goto();
    await reset.email.fill(uniqueEmail("reset"));
    await reset.sendLink.click();
  };
  for (let i = 0; i < 3; i++) {
    await ask();
    await expect(reset.status).toHaveText(SENT);
  }
  // The fourth asks for the check (on this backend, Turnstile's test keys: a tick box stands in for the widget).
  for (let i = 0; i < 3; i++) {
    await ask();
    await expect(reset.alert).toHaveText("Please confirm you are a person, then send the form again.");
    await page.getByLabel("I am a person").check();
    await reset.sendLink.click();
    // Two more go with the check; the sixth is past the auth server's five a visitor an hour, check or not.
    if (i < 2) await expect(reset.status).toHaveText(SENT);
    else
      await expect(reset.alert).toHaveText("We could not send the e-mail just now. Please try again in a few minutes.");
  }
  // Another visitor is not asked for anything.
  const other = await visitor(browser, "203.0.113.61");
  const theirs = new ResetPasswordPage(other.page);
  await theirs.goto();
  await theirs.email.fill(uniqueEmail("reset"));
  await theirs.sendLink.click();
  await expect(theirs.status).toHaveText(SENT);
  await context.close();
  await other.context.close();
});

test("a password thief's wrong authenticator codes hold back the thief, never the owner's right code from home", async ({
  browser,
}) => {
  // A player with an authenticator, made through this server's auth API.
  const email = uniqueEmail("owner");
  const password = "Sturdy-pass-42";
  const api = createClient(`http://127.0.0.1:${backendPort}`, EMBEDDED_PUBLISHABLE_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  await api.auth.signUp({ email, password, options: { data: { name: "Owner", date_of_birth: "1990-05-01" } } });
  const { data: enrolled } = await api.auth.mfa.enroll({ factorType: "totp", friendlyName: "Authenticator app" });
  const key = enrolled!.totp.secret;
  expect((await api.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code: totpCode(key) })).error).toBeNull();
  const wrongCode = String((Number(totpCode(key)) + 500_000) % 1_000_000).padStart(6, "0");

  // The thief has the password: five wrong codes (a fresh form each, so no answer is taken for the one before),
  // then even the right code waits at the thief's address.
  const thief = await visitor(browser, "203.0.113.70");
  const thiefSignIn = new SignInPage(thief.page);
  await thiefSignIn.goto();
  await thiefSignIn.signIn(email, password);
  await expect(thief.page).toHaveURL(/\/account\/two-step\?next=%2Faccount$/);
  const codeStep = thief.page.url();
  const thiefStep = new TwoStepPage(thief.page);
  for (let i = 0; i < 5; i++) {
    await thiefStep.reopen(codeStep);
    await thiefStep.code.fill(wrongCode);
    await thiefStep.verify.click();
    await expect(thiefStep.code).toHaveAccessibleDescription(/That code is not right/);
  }
  await thiefStep.reopen(codeStep);
  await thiefStep.code.fill(totpCode(key));
  await thiefStep.verify.click();
  await expect(thiefStep.alert).toHaveText("Too many attempts from here. Please wait a minute and try again.");

  // The owner, at home, gives the code at once and changes the password.
  const owner = await visitor(browser, "203.0.113.71");
  const ownerSignIn = new SignInPage(owner.page);
  await ownerSignIn.goto();
  await ownerSignIn.signIn(email, password);
  await new TwoStepPage(owner.page).giveCode(key);
  await expect(owner.page).toHaveURL(/\/account$/);
  const profile = new ProfilePage(owner.page);
  await profile.goto();
  await profile.currentPassword.fill(password);
  await profile.newPassword.fill("Sturdy-pass-43");
  await profile.changePassword.click();
  await expect(profile.status).toHaveText("Your password has been changed.");

  // One e-mail told the owner of the burst.
  const res = await fetch(`http://127.0.0.1:${backendPort}/_embedded/app-mail?email=${encodeURIComponent(email)}`, {
    headers: { apikey: EMBEDDED_SECRET_KEY },
  });
  const mail = ((await res.json()) as { kind: string }[]).filter((m) => m.kind === "two_step_wrong_codes");
  expect(mail).toHaveLength(1);
  await thief.context.close();
  await owner.context.close();
});
