import { expectAccessibleInBothSchemes } from "./support/axe";
import { caughtMail } from "./support/backend";
import { overflowingBoxes } from "./support/overflow";
import { expect, test } from "./support/fixtures";
import { Header } from "./support/pages/header";
import { signOut } from "./support/pages/sign-in";
import { TwoStepPage } from "./support/pages/two-step";
import { uniqueEmail } from "./support/users";
import type { Page } from "@playwright/test";

// Sign in by e-mail link or code from /login's one form: one e-mail field, then the password or "E-mail me a
// sign-in link". Asking answers the same for every address and goes on to /login/code with the address filled in;
// the e-mail's link or its 8-digit code signs in through the same gates as a password (approval, two-step) and
// returns to the page the player started from.

const CHECK_INBOX = /^Check your inbox\. If an account uses that address/;

/** Asks for a sign-in link from /login's form (already open) and waits for the code page, which keeps the address. */
async function askForLink(page: Page, email: string) {
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("E-mail", { exact: true }).fill(email);
  await form.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Sign in with a code", level: 1 })).toBeVisible();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(CHECK_INBOX);
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue(email);
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

test("from a competition, a player asks for a sign-in link, told the same as for an unknown address; the link returns to the competition, once", async ({
  page,
  approvedAccount: player,
  liveCompetition,
}) => {
  // The header's "Sign in", pressed on the competition: the form comes back there.
  await page.goto(liveCompetition.path);
  await new Header(page).signInLink.click();
  await expect(page).toHaveURL(/\/login$/);
  await askForLink(page, uniqueEmail("nobody"));
  await expectAccessibleInBothSchemes(page, "/login/code with the address kept");
  await page.getByRole("link", { name: "Ask for a new sign-in link" }).click();
  await expect(page).toHaveURL(`/login?next=${encodeURIComponent(liveCompetition.path)}`);
  await askForLink(page, player.email);

  const { link } = await signInMail(player.email);
  await page.goto(link);
  await expect(page).toHaveURL(liveCompetition.path);
  await expect(page.getByRole("heading", { name: liveCompetition.title, level: 1 })).toBeVisible();

  // A link works once.
  await signOut(page);
  await page.goto(link);
  await expect(page).toHaveURL(/\/login\?error=/);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "That link is invalid or has expired. Please request a new one.",
  );
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("with two-step on, the e-mailed code, typed where the address is kept, signs in only as far as the authenticator's code, then returns to the page asked for", async ({
    approvedPlayer: player,
  }) => {
    const { page } = player;
    const twoStep = new TwoStepPage(page);
    const key = await twoStep.turnOnFromProfile();
    await signOut(page);

    await page.goto(`/login?next=${encodeURIComponent("/account/entries")}`);
    await expect(page.getByLabel("E-mail", { exact: true })).toHaveCount(1);
    await expectAccessibleInBothSchemes(page, "/login, one form");
    expect(await overflowingBoxes(page)).toEqual([]);
    await askForLink(page, player.email);
    await expect(page).toHaveURL(`/login/code?next=${encodeURIComponent("/account/entries")}`);
    const { code } = await signInMail(player.email);
    const codeField = page.getByLabel("8-digit code");
    await codeField.fill(String((Number(code) + 1) % 100_000_000).padStart(8, "0"));
    await page.getByRole("button", { name: "Sign in" }).tap();
    await expect(codeField).toHaveAccessibleDescription(
      /That code is wrong or has expired\. Ask for a new sign-in link\.$/,
    );
    await codeField.fill(code);
    await page.getByRole("button", { name: "Sign in" }).tap();
    await expect(page).toHaveURL(`/account/two-step?next=${encodeURIComponent("/account/entries")}`);
    await twoStep.giveCode(key);
    await expect(page).toHaveURL(/\/account\/entries$/);
  });
});
