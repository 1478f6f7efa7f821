import { expectAccessibleInBothSchemes } from "./support/axe";
import { caughtMail } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { signOut } from "./support/pages/sign-in";
import { TwoStepPage } from "./support/pages/two-step";
import { uniqueEmail } from "./support/users";
import type { Page } from "@playwright/test";

// Sign in by e-mail link or code: the sign-in page's "E-mail me a sign-in link" answers
// the same for every address, and the e-mail's link or its 8-digit code signs in through the same gates as
// a password (approval, two-step).

const CHECK_INBOX = /^Check your inbox\. If an account uses that address/;

/** Asks for a sign-in link from /login's second form and waits for its answer. */
async function askForLink(page: Page, email: string) {
  const form = page.getByRole("form", { name: "Or sign in without your password" });
  await form.getByLabel("E-mail address").fill(email);
  await form.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(form.getByRole("status")).toHaveText(CHECK_INBOX);
}

/** The newest sign-in mail to `email`: its /auth/confirm link (path and query) and its code. */
async function signInMail(email: string): Promise<{ link: string; code: string }> {
  const mail = (await caughtMail(email)).find((m) => m.kind === "magiclink");
  const link = /https?:\/\/\S+\/auth\/confirm\?\S+/.exec(mail?.body ?? "");
  const code = /Or enter this code: (\d{8})/.exec(mail?.body ?? "");
  if (!link || !code) throw new Error(`no sign-in link and code in the mail to ${email}`);
  const url = new URL(link[0]);
  return { link: url.pathname + url.search, code: code[1] };
}

test("a player asks for a sign-in link, told the same as for an unknown address, and the link signs them in once", async ({
  page,
  approvedAccount: player,
}) => {
  await page.goto("/login");
  await expectAccessibleInBothSchemes(page, "/login");
  await askForLink(page, uniqueEmail("nobody"));
  await page.goto("/login");
  await askForLink(page, player.email);

  const { link } = await signInMail(player.email);
  await page.goto(link);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { name: `Hello, ${player.name}`, level: 1 })).toBeVisible();

  // A link works once.
  await signOut(page);
  await page.goto(link);
  await expect(page).toHaveURL(/\/login\?error=/);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "That link is invalid or has expired. Please request a new one.",
  );
});

test("with two-step on, the e-mailed code signs a player in only as far as the authenticator's code", async ({
  approvedPlayer: player,
}) => {
  const { page } = player;
  const twoStep = new TwoStepPage(page);
  const key = await twoStep.turnOnFromProfile();
  await signOut(page);

  await page.goto("/login");
  await askForLink(page, player.email);
  await page.getByRole("link", { name: "I have a code from the e-mail" }).click();
  await expect(page).toHaveURL(/\/login\/code$/);
  await expectAccessibleInBothSchemes(page, "/login/code");
  const { code } = await signInMail(player.email);
  const codeField = page.getByLabel("8-digit code");
  await page.getByLabel("E-mail", { exact: true }).fill(player.email);
  await codeField.fill(String((Number(code) + 1) % 100_000_000).padStart(8, "0"));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(codeField).toHaveAccessibleDescription(
    /That code is wrong or has expired\. Ask for a new sign-in link\.$/,
  );
  await codeField.fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Faccount$/);
  await twoStep.giveCode(key);
  await expect(page).toHaveURL(/\/account$/);
});
