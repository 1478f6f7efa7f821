import { totpCode } from "@labcash/embedded-supabase/totp";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { createUser, promoteToAdmin, recoveryLink } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { CompetitionPage } from "./support/pages/competition";
import { ResetPasswordPage, SignInPage, signOut } from "./support/pages/sign-in";
import { TwoStepPage } from "./support/pages/two-step";
import { storageStatePath } from "./support/users";

// Two-step verification: admins set up an authenticator app on their first visit
// to the console and give its code at every sign-in after; players may turn it on from their profile.

/** A code that is not the current one, nor either neighbour the server also accepts. */
function wrongCode(key: string): string {
  const near = new Set([-30, 0, 30].map((skew) => totpCode(key, Date.now() / 1000 + skew)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, "0");
    if (!near.has(code)) return code;
  }
}

test("a new admin sets up two-step verification on the first visit to the console, then gives a code at each sign-in", async ({
  page,
}) => {
  const newAdmin = await createUser({ name: "Ada Admin", label: "new-admin" });
  await promoteToAdmin(newAdmin);
  const signIn = new SignInPage(page);
  await signIn.signInToDashboard(newAdmin.email, newAdmin.password);

  // A password alone does not open the console: not its pages, not its downloads.
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Fadmin%2Fusers$/);
  const download = await page.request.get("/admin/activity/export", { maxRedirects: 0 });
  expect(download.status()).toBe(307);
  expect(download.headers().location).toContain("/account/two-step?next=%2Fadmin%2Factivity%2Fexport");

  // Their inbox first: a password alone cannot set up the authenticator that opens the console.
  const twoStep = new TwoStepPage(page);
  await expect(page.getByText("The admin console needs two-step verification.")).toBeVisible();
  await expect(twoStep.setUp).toHaveCount(0);
  await twoStep.emailMeACode.click();
  await expect(page.getByText("We have e-mailed you an 8-digit code.")).toBeVisible();
  await twoStep.inboxCode.fill("00000000");
  await twoStep.confirmInbox.click();
  await expect(twoStep.inboxCode).toHaveAccessibleDescription(/That code is not right, or it has expired\./);
  await twoStep.confirmInboxOf(newAdmin.email, { send: false });
  await twoStep.setUp.click();
  const key = (await twoStep.key.textContent())!.trim();
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  await twoStep.code.fill(wrongCode(key));
  await twoStep.turnOn.click();
  await expect(twoStep.code).toHaveAccessibleDescription(/That code is not right/);
  await expect(twoStep.code).toHaveAttribute("aria-invalid", "true");
  await twoStep.code.fill(totpCode(key));
  await twoStep.turnOn.click();
  await twoStep.keepRecoveryCodes();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();

  // Next time: password, then the code, then the console.
  await signOut(page);
  await signIn.goto("/admin");
  await signIn.signIn(newAdmin.email, newAdmin.password);
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Fadmin$/);
  await expect(page.getByText("Open your authenticator app and enter the code it shows for LabCash.")).toBeVisible();
  await twoStep.code.fill(wrongCode(key));
  await twoStep.verify.click();
  await expect(twoStep.code).toHaveAccessibleDescription(/That code is not right/);
  await twoStep.giveCode(key);
  await expect(page).toHaveURL(/\/admin$/);

  // Admins keep it on: the profile says so and offers no way to turn it off.
  await page.goto("/account/profile");
  await expect(page.getByText("Admins must keep it on.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Turn off two-step verification" })).toHaveCount(0);
});

test("a player turns two-step verification on from the profile, is asked for a code at sign-in, and turns it off", async ({
  approvedPlayer: player,
}) => {
  const { page } = player;
  const twoStepSection = page.getByRole("region", { name: "Two-step verification" });
  await page.goto("/account/profile");
  await expect(twoStepSection).toContainText("Off.");
  await twoStepSection.getByRole("link", { name: "Set up two-step verification" }).click();

  const twoStep = new TwoStepPage(page);
  await expect(page.getByText("Protect your account with a code from an authenticator app")).toBeVisible();
  const key = await twoStep.setUpAuthenticator();
  await expect(page).toHaveURL(/\/account\/profile$/);
  await expect(twoStepSection).toContainText("On: each time you sign in");

  await signOut(page);
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(player.email, player.password);
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Faccount$/);
  await twoStep.giveCode(key);
  await expect(page).toHaveURL(/\/account$/);

  // Turning it off takes the app's current code too.
  await page.goto("/account/profile");
  const turnOff = twoStepSection.getByRole("button", { name: "Turn off two-step verification" });
  await turnOff.click();
  await expect(twoStepSection).toContainText("Enter the 6-digit code from your authenticator app");
  await twoStepSection.getByLabel("6-digit code").fill(wrongCode(key));
  await turnOff.click();
  await expect(twoStepSection).toContainText("That code is not right");
  await twoStepSection.getByLabel("6-digit code").fill(totpCode(key));
  await turnOff.click();
  // The section redraws as it now is.
  await expect(twoStepSection).toContainText("Off.");
  await expect(twoStepSection.getByRole("link", { name: "Set up two-step verification" })).toBeVisible();

  await signOut(page);
  await signIn.goto();
  await signIn.signIn(player.email, player.password);
  await expect(page).toHaveURL(/\/account$/);
});

test("with two-step verification on, the password alone opens no account page and enters no competition", async ({
  approvedPlayer: player,
  liveCompetition: competition,
}) => {
  test.setTimeout(90_000);
  const { page } = player;
  const twoStep = new TwoStepPage(page);
  const key = await twoStep.turnOnFromProfile();
  await page.goto("/logout");

  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(player.email, player.password);
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Faccount$/);

  // Walking away from the code step leads back to it, from the account pages and from adding credit.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Faccount$/);
  await page.goto("/account/responsible-play");
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Faccount%2Fresponsible-play$/);
  await page.goto("/credit");
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Fcredit$/);

  // A competition's page is public, but entering is refused, with the way to the code step.
  const competitionPage = new CompetitionPage(page);
  await competitionPage.goto(competition);
  await competitionPage.entry.buy(1);
  await expect(competitionPage.entry.refusal).toContainText("Two-step verification required");
  const giveCode = competitionPage.entry.refusal.getByRole("link", { name: "Enter your two-step code" });
  await expect(giveCode).toHaveAttribute("href", `/account/two-step?next=${encodeURIComponent(competition.path)}`);
  await giveCode.click();
  await twoStep.giveCode(key);
  await expect(page).toHaveURL(new RegExp(`${competition.path}$`));

  // With the code given, the same entry goes through.
  await competitionPage.goto(competition);
  await competitionPage.entry.buy(1);
  await expect(competitionPage.entry.result).toContainText("You're in!");
});

test("with two-step verification on, a password reset link asks for the code before the new password", async ({
  approvedPlayer: player,
}) => {
  const { page } = player;
  const twoStep = new TwoStepPage(page);
  const key = await twoStep.turnOnFromProfile();
  await signOut(page);

  const link = await recoveryLink(player.email);
  await page.goto(link.pathname + link.search);
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Fauth%2Freset-password$/);
  await twoStep.giveCode(key);
  await expect(page).toHaveURL(/\/auth\/reset-password$/);
  const reset = new ResetPasswordPage(page);
  await reset.newPassword.fill("Fresh-start-42");
  await reset.setNewPassword.click();
  await expect(reset.status).toHaveText("Your password has been changed.");
});

test("a super admin resets the two-step verification of a player who lost their phone", async ({
  browser,
  approvedPlayer: player,
}) => {
  const { page } = player;
  await new TwoStepPage(page).turnOnFromProfile();

  const context = await browser.newContext({ storageState: storageStatePath("superAdmin") });
  const admin = await context.newPage();
  await admin.goto(`/admin/users/${player.id}/edit`);
  await expect(admin.getByText("On. If they have lost their authenticator app, reset it")).toBeVisible();
  // Destructive, so confirmed first: the dialog names whose verification goes, and keeping it changes nothing.
  const trigger = admin.getByRole("button", { name: "Reset two-step verification…" });
  await trigger.click();
  const dialog = admin.getByRole("alertdialog", { name: `Reset ${player.name}'s two-step verification?` });
  await expect(dialog).toContainText("their unused recovery codes stop working");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(trigger).toBeFocused();
  await trigger.click();
  await dialog.getByRole("button", { name: "Reset two-step verification" }).click();
  // The card redraws as it now is: off, with nothing left to reset.
  await expect(admin.getByText("Off: they have no authenticator app set up.")).toBeVisible();
  await expect(trigger).toHaveCount(0);
  await context.close();

  // Their password alone signs them in again.
  await signOut(page);
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(player.email, player.password);
  await expect(page).toHaveURL(/\/account$/);
});

test("the two-step pages have no axe violations in light and dark mode", async ({ approvedPlayer: { page } }) => {
  await page.goto("/account/two-step?next=%2Faccount%2Fprofile");
  const twoStep = new TwoStepPage(page);
  await expect(twoStep.heading).toBeVisible();
  await expectAccessibleInBothSchemes(page, "two-step set-up");
  await twoStep.setUp.click();
  await expect(twoStep.key).toBeVisible();
  await expectAccessibleInBothSchemes(page, "authenticator key");
});
