import type { Page } from "@playwright/test";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { DashboardPage, LimitInvitation, ResponsiblePlayPage } from "./support/pages/account";
import { Header } from "./support/pages/header";
import { SignUpPage } from "./support/pages/sign-up";
import { uniqueEmail } from "./support/users";

// The invitation to set a monthly limit at sign-up (code of practice): a new player sees it while
// waiting for approval, and it goes for good once they set a limit or say "Not now".

/** Signs a new player up and leaves them on /pending-approval, hydrated, with the invitation in view. */
async function signUpNewPlayer(page: Page, name: string): Promise<LimitInvitation> {
  const signUp = new SignUpPage(page);
  await signUp.goto();
  await signUp.signUp({ name, email: uniqueEmail("limit"), password: "Brand-new-1", dateOfBirth: "1990-05-05" });
  await expect(page).toHaveURL(/\/pending-approval$/);
  await expect(new Header(page).accountMenuButton()).toBeEnabled();
  const invitation = new LimitInvitation(page);
  await expect(invitation.root).toBeVisible();
  return invitation;
}

test("a new player follows the invitation, sets £100 and is not asked again", async ({ page }) => {
  const invitation = await signUpNewPlayer(page, "Lena Limit");
  await expect(invitation.root).toContainText("£0 is allowed");

  await invitation.setLimit.click();
  await expect(page).toHaveURL(/\/account\/responsible-play$/);
  const play = new ResponsiblePlayPage(page);
  await expect(new Header(page).accountMenuButton()).toBeEnabled();
  await play.setLimit("100");
  await expect(play.formStatus).toHaveText("Your monthly limit is now £100.00.");
  await expect(play.value("Monthly limit")).toHaveText("£100.00");

  await page.goto("/pending-approval");
  await expect(page.getByRole("heading", { name: "Your account is waiting for approval" })).toBeVisible();
  await expect(invitation.root).toHaveCount(0);
  await new DashboardPage(page).goto();
  await expect(new DashboardPage(page).greeting("Lena Limit")).toBeVisible();
  await expect(invitation.root).toHaveCount(0);
});

test("'Not now' hides the invitation, and it stays hidden after a reload", async ({ page }) => {
  const invitation = await signUpNewPlayer(page, "Nat Notnow");
  await invitation.notNow.click();
  await expect(invitation.root).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole("heading", { name: "Your account is waiting for approval" })).toBeVisible();
  await expect(invitation.root).toHaveCount(0);
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await expect(dashboard.greeting("Nat Notnow")).toBeVisible();
  await expect(invitation.root).toHaveCount(0);
});

test("an approved player who never answered sees the invitation on the dashboard", async ({
  approvedPlayer: { page },
}) => {
  await page.goto("/account");
  const invitation = new LimitInvitation(page);
  await expect(invitation.root).toBeVisible();
  await expect(invitation.setLimit).toHaveAttribute("href", "/account/responsible-play");
});

test(`/pending-approval with the invitation has no axe violations in light and dark mode`, async ({ page }) => {
  await signUpNewPlayer(page, "Axel Axe");
  await expectAccessibleInBothSchemes(page);
});
