import { totpCode } from "@labcash/embedded-supabase/totp";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { createUser, promoteToAdmin } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { SignInPage, signOut } from "./support/pages/sign-in";
import { TwoStepPage } from "./support/pages/two-step";

// An admin's own way back: recovery codes kept at set-up, and further authenticators of their own. A super admin's
// reset (admin-users.spec.ts) stays for an admin who has neither.

/**
 * A new admin who has set up their first authenticator (and kept its recovery codes) and is in the console;
 * `whileCodesShown` runs while /account/recovery-codes shows the codes.
 */
async function adminWithAuthenticator(
  page: import("@playwright/test").Page,
  label: string,
  whileCodesShown?: () => Promise<void>,
) {
  const admin = await createUser({ name: "Rhea Recovery", label });
  await promoteToAdmin(admin);
  const signIn = new SignInPage(page);
  await signIn.signInToDashboard(admin.email, admin.password);
  await page.goto("/admin");
  const twoStep = new TwoStepPage(page);
  const key = await twoStep.setUpAuthenticator(admin.email, { whileCodesShown });
  await expect(page).toHaveURL(/\/admin$/);
  return { admin, signIn, twoStep, key, codes: twoStep.keptCodes };
}

test("an admin who lost their phone signs in with the password and a recovery code, replaces the authenticator and reaches the console", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { admin, signIn, twoStep, key: lostKey, codes } = await adminWithAuthenticator(page, "lost-phone");
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);

  await signOut(page);
  await signIn.goto("/admin");
  await signIn.signIn(admin.email, admin.password);
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Fadmin$/);
  await expect(page.getByRole("heading", { name: "Lost your authenticator?" })).toBeVisible();
  await twoStep.recoveryCode.fill("0000-0000-0000");
  await twoStep.useRecoveryCode.click();
  await expect(twoStep.recoveryCode).toHaveAccessibleDescription(/That recovery code is not right/);
  await twoStep.recoveryCode.fill(codes[0].toUpperCase());
  await twoStep.useRecoveryCode.click();

  // The code opens no page of the console: it lets this session remove the lost authenticator.
  await expect(page.getByText("Your recovery code was accepted.")).toBeVisible();
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Fadmin$/);
  await page.getByRole("button", { name: "Remove Authenticator app" }).click();

  // Then a new authenticator, as the first: the inbox, the app's code, new recovery codes.
  await expect(page.getByText("The admin console needs two-step verification.")).toBeVisible();
  const newKey = await twoStep.setUpAuthenticator(admin.email);
  expect(newKey).not.toBe(lostKey);
  expect(twoStep.keptCodes).toHaveLength(10);
  expect(twoStep.keptCodes).not.toContain(codes[1]);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Admin dashboard", level: 1 })).toBeVisible();

  // The lost phone's codes and the old recovery codes no longer open anything; the new phone does.
  await signOut(page);
  await signIn.goto("/admin");
  await signIn.signIn(admin.email, admin.password);
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Fadmin$/);
  await twoStep.recoveryCode.fill(codes[1]);
  await twoStep.useRecoveryCode.click();
  await expect(twoStep.recoveryCode).toHaveAccessibleDescription(/That recovery code is not right/);
  await twoStep.giveCode(newKey);
  await expect(page).toHaveURL(/\/admin$/);
});

test("an admin adds a second, named authenticator from their inbox, signs in with either, and makes new recovery codes", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { admin, signIn, twoStep } = await adminWithAuthenticator(page, "second-phone", () =>
    expectAccessibleInBothSchemes(page, "recovery codes"),
  );
  await page.goto("/account/profile");
  await page.getByRole("link", { name: "Authenticators and recovery codes" }).click();
  await expect(page.getByRole("heading", { name: "Authenticators and recovery codes", level: 1 })).toBeVisible();
  await expect(page.getByText("10 codes left.")).toBeVisible();
  await expectAccessibleInBothSchemes(page, "authenticators");

  await twoStep.confirmInboxOf(admin.email);
  await expect(page).toHaveURL(/\/account\/authenticators$/);
  const name = page.getByLabel("Name of this authenticator");
  await name.fill("Authenticator app");
  await twoStep.setUp.click();
  await expect(name).toHaveAccessibleDescription(/You already have an authenticator called "Authenticator app"/);
  await name.fill("Work phone");
  await twoStep.setUp.click();
  const secondKey = (await twoStep.key.textContent())!.trim();
  await twoStep.code.fill(totpCode(secondKey));
  await twoStep.turnOn.click();
  await expect(page).toHaveURL(/\/account\/authenticators$/);
  await expect(page.getByRole("region", { name: "Your authenticators" })).toContainText("Work phone");
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin$/);

  // At sign-in the admin says which authenticator is in hand.
  await signOut(page);
  await signIn.goto("/admin");
  await signIn.signIn(admin.email, admin.password);
  await page.getByLabel("Authenticator", { exact: true }).selectOption({ label: "Work phone" });
  await twoStep.giveCode(secondKey);
  await expect(page).toHaveURL(/\/admin$/);

  // New recovery codes, shown once.
  await page.goto("/account/authenticators");
  await page.getByRole("button", { name: "Make new recovery codes" }).click();
  await expect(twoStep.recoveryCodes).toHaveCount(10);
});
