import { expect, test, type Browser, type TestInfo } from "@playwright/test";
import { EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { totpCode } from "@labcash/embedded-supabase/totp";
import { caughtAppMail, createUser, signedInClient, type TestUser } from "./support/backend";
import { ProfilePage } from "./support/pages/account";
import { SignInPage, signOut } from "./support/pages/sign-in";
import { TwoStepPage } from "./support/pages/two-step";

// A password thief at the code step must not keep the owner out. Wrong authenticator codes hold back the
// visitor who typed them (the auth server's MFA verification attempt hook, in SQL, on hosted Supabase and
// here alike), never the owner's right code from elsewhere; a factor takes 50 wrong codes a day from all
// addresses together; the owner is e-mailed once for the burst. Visitors are told apart as a proxy in front
// of the site would report them: by X-Forwarded-For, which the site forwards to the auth server.

const backendUrl = `http://127.0.0.1:${process.env.E2E_BACKEND_PORT ?? 54329}`;

/** A browser context for one visitor, arriving from `address`. */
async function visitor(browser: Browser, testInfo: TestInfo, address: string) {
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    extraHTTPHeaders: { "x-forwarded-for": address },
  });
  return { context, page: await context.newPage() };
}

/** A code that is not the current one, nor either neighbour the server also accepts. */
function wrongCode(key: string): string {
  const near = new Set([-30, 0, 30].map((skew) => totpCode(key, Date.now() / 1000 + skew)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, "0");
    if (!near.has(code)) return code;
  }
}

/** Signs in with the password at the site's form and gives `code` at the two-step page that follows. */
async function giveCodeAfterPassword(
  visitorPage: Awaited<ReturnType<typeof visitor>>["page"],
  user: TestUser,
  code: string,
) {
  const signIn = new SignInPage(visitorPage);
  await signIn.goto();
  await signIn.signIn(user.email, user.password);
  await expect(visitorPage).toHaveURL(/\/account\/two-step\?next=%2Faccount$/);
  const twoStep = new TwoStepPage(visitorPage);
  await twoStep.code.fill(code);
  await twoStep.verify.click();
  return twoStep;
}

async function burstMails(user: TestUser) {
  return (await caughtAppMail(user.email)).filter((m) => m.kind === "two_step_wrong_codes");
}

test("a thief's wrong codes hold back the thief; the owner, elsewhere, gives the code and changes the password at once", async ({
  browser,
}, testInfo) => {
  const owner = await createUser({ name: "Olive Owner", label: "owner" });
  const home = await visitor(browser, testInfo, "198.51.100.20");
  await new SignInPage(home.page).signInToDashboard(owner.email, owner.password);
  const key = await new TwoStepPage(home.page).turnOnFromProfile();
  await signOut(home.page);

  // The thief has the password and types ten wrong codes (the hook's wait starts at the tenth, so an owner's
  // few typos never sign them out), each on a fresh form so no answer is mistaken for the one before.
  const thief = await visitor(browser, testInfo, "198.51.100.21");
  const thiefStep = await giveCodeAfterPassword(thief.page, owner, wrongCode(key));
  await expect(thiefStep.code).toHaveAccessibleDescription(/That code is not right/);
  const codeStep = thief.page.url();
  for (let i = 0; i < 9; i++) {
    await thiefStep.reopen(codeStep);
    await thiefStep.code.fill(wrongCode(key));
    await thiefStep.verify.click();
    await expect(thiefStep.code).toHaveAccessibleDescription(/That code is not right/);
  }
  // From there, even the right code does not pass, and the stolen session is over.
  await thiefStep.reopen(codeStep);
  await thiefStep.code.fill(totpCode(key));
  await thiefStep.verify.click();
  await expect(thiefStep.alert).toHaveText(
    "Too many wrong codes have been typed from here, so this code was not accepted and you have been signed out. Please try again later.",
  );
  await thief.page.goto("/account");
  await expect(thief.page).toHaveURL(/\/login\b/);

  // The owner, from home, is not held back at all.
  await giveCodeAfterPassword(home.page, owner, totpCode(key));
  await expect(home.page).toHaveURL(/\/account$/);
  const profile = new ProfilePage(home.page);
  await profile.goto();
  await profile.currentPassword.fill(owner.password);
  await profile.newPassword.fill("Owner-new-pass-7");
  await profile.changePassword.click();
  await expect(profile.status).toHaveText("Your password has been changed.");

  const mails = await burstMails(owner);
  expect(mails).toHaveLength(1);
  expect(mails[0].subject).toBe("Wrong two-step codes for your LabCash account");
  expect(mails[0].body_text).toContain("change your password on your profile page now");
  await thief.context.close();
  await home.context.close();
});

test("50 wrong codes from many addresses end that day's guessing, but not the owner's right code", async ({
  browser,
}, testInfo) => {
  const owner = await createUser({ name: "Olive Owner", label: "owner" });
  const setUp = await signedInClient(owner.email, owner.password);
  const { data: enrolled } = await setUp.auth.mfa.enroll({ factorType: "totp", friendlyName: "Authenticator app" });
  const key = enrolled!.totp.secret;
  expect((await setUp.auth.mfa.challengeAndVerify({ factorId: enrolled!.id, code: totpCode(key) })).error).toBeNull();

  // One stolen sign-in spread over 25 addresses, two wrong codes each, as the site forwards them.
  const stolen = await signedInClient(owner.email, owner.password);
  const token = (await stolen.auth.getSession()).data.session!.access_token;
  const from = (address: string, path: string, body: Record<string, unknown>) =>
    fetch(`${backendUrl}/auth/v1/factors/${enrolled!.id}${path}`, {
      method: "POST",
      headers: {
        apikey: EMBEDDED_SECRET_KEY,
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "sb-forwarded-for": address,
      },
      body: JSON.stringify(body),
    });
  for (let i = 0; i < 25; i++) {
    const address = `198.51.100.${100 + i}`;
    for (let j = 0; j < 2; j++) {
      const challenge = (await (await from(address, "/challenge", {})).json()) as { id: string };
      const answer = await from(address, "/verify", { challenge_id: challenge.id, code: wrongCode(key) });
      expect(answer.status).toBe(422);
    }
  }

  // Through the site's form: an address that guessed today is refused even the right code…
  const guesser = await visitor(browser, testInfo, "198.51.100.103");
  const refused = await giveCodeAfterPassword(guesser.page, owner, totpCode(key));
  await expect(refused.alert).toHaveText(/^Too many wrong codes have been typed from here/);
  // …while the owner, from an address that has not mistyped, signs in.
  const home = await visitor(browser, testInfo, "198.51.100.99");
  await giveCodeAfterPassword(home.page, owner, totpCode(key));
  await expect(home.page).toHaveURL(/\/account$/);
  expect(await burstMails(owner)).toHaveLength(1);
  await guesser.context.close();
  await home.context.close();
});
