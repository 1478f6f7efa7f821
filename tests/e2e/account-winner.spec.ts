import type { Page } from "@playwright/test";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { buyAs, createCompetition, drawNow, verifyClaim, type TestUser } from "./support/backend";
import { gotoUntilVisible } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { MyEntriesPage, MyPrizesPage, ProfilePage } from "./support/pages/account";
import { Header } from "./support/pages/header";

// A winner's options: appearing by initials only (CAP 8.28.5) and claiming the prize (with a delivery address) or
// its cash alternative on /account/prizes until the prize is verified.

test.use({ playerDetails: { name: "Wanda Winner", credit: 10 } });

/** A competition that `player` alone enters, drawn at once (its draw time moved to now). */
async function winAlone(player: TestUser, fields: { label: string; cashAlternative?: number }) {
  const competition = await createCompetition({ ...fields, question: null });
  await buyAs(player, competition.id, 2, null);
  const { status, draw } = await drawNow(competition);
  expect(status).toBe("drawn");
  return { competition, draw: draw! };
}

async function openEntries(page: Page): Promise<MyEntriesPage> {
  const entries = new MyEntriesPage(page);
  await entries.goto();
  await expect(new Header(page).accountMenuButton()).toBeEnabled();
  return entries;
}

test("the winner claims the cash, changes to the prize with an address, and the claim is fixed once verified", async ({
  approvedPlayer: { page, ...player },
}) => {
  const { competition, draw } = await winAlone(player, { label: "cash", cashAlternative: 1200 });

  // The dashboard and the entry both point to the claim.
  await page.goto("/account");
  await expect(new Header(page).accountMenuButton()).toBeEnabled();
  await expect(page.getByRole("main").getByText("You won!", { exact: true })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(`Your ticket won ${competition.title}. Claim your prize`);
  const entries = await openEntries(page);
  await expect(entries.entry(competition)).toContainText("Result: Won");
  await expect(entries.prize(competition)).toContainText("Awaiting claim");
  await entries.prize(competition).getByRole("link", { name: "Claim your prize" }).click();
  await expect(page).toHaveURL(new RegExp(`/account/prizes#prize-${draw.id}$`));

  const prizes = new MyPrizesPage(page);
  const prize = prizes.prize(competition);
  const form = prizes.claimForm(competition);
  await expect(prize).toContainText("You won A test prize, or £1,200 cash instead.");
  await expect(prize.getByRole("heading", { name: "Claim your prize" })).toBeVisible();

  // Nothing chosen: the choice is asked for beside it.
  await form.getByRole("button", { name: "Claim your prize" }).click();
  await expect(form.getByRole("group", { name: "Take the prize or the cash" })).toHaveAccessibleDescription(
    "Choose the prize or the cash",
  );
  await expect(form.getByRole("radio", { name: "The prize: A test prize" })).toBeFocused();

  await form.getByRole("radio", { name: "£1,200 cash" }).check();
  await form.getByRole("button", { name: "Claim your prize" }).click();
  await expect(prize.locator("header").getByText("Claimed", { exact: true })).toBeVisible();
  await expect(prize).toContainText("You chose £1,200 cash.");
  await expect(prize.getByRole("list", { name: "Prize progress" }).getByRole("listitem").first()).toHaveText(
    /^Claimed \d/,
  );
  await expectAccessibleInBothSchemes(page);

  // The prize needs the address it goes to; a refusal keeps the choice.
  await form.getByRole("radio", { name: "The prize: A test prize" }).check();
  await form.getByRole("button", { name: "Update my claim" }).click();
  await expect(form.getByLabel("Delivery address")).toHaveAccessibleDescription(
    /Give the UK address to send the prize to, with its postcode/,
  );
  await expect(form.getByLabel("Delivery address")).toBeFocused();
  await expect(form.getByRole("radio", { name: "The prize: A test prize" })).toBeChecked();
  await form.getByLabel("Delivery address").fill("4 Mill Lane\nHarrogate HG1 2AB");
  await form.getByRole("button", { name: "Update my claim" }).click();
  await expect(prize).toContainText("You chose the prize, sent to: 4 Mill Lane");

  // Verified while the page is open: the page catches up, the claim is final and the form is gone.
  await verifyClaim(draw.id);
  await page.reload();
  await expect(prize.locator("header").getByText("Verified", { exact: true })).toBeVisible();
  await expect(prize).toContainText("your claim is final");
  await expect(prizes.claimForm(competition)).toHaveCount(0);
});

test("a player who asked for initials only wins: the public name has no first name, and they claim the prize", async ({
  approvedPlayer: { page, ...player },
}) => {
  const profile = new ProfilePage(page);
  await profile.goto();
  await expect(new Header(page).accountMenuButton()).toBeEnabled();
  await expect(page.getByText("CAP Code 8.28.5")).toBeVisible();
  await expect(profile.initialsOnly).not.toBeChecked();
  await profile.initialsOnly.check();
  await profile.saveInitialsOnly.click();
  await expect(profile.status).toHaveText("Saved: if you win, we will show only your initials.");
  await page.reload();
  await expect(profile.initialsOnly).toBeChecked();

  const { competition, draw } = await winAlone(player, { label: "initials" });
  expect(draw.winner_display_name).not.toContain("Wanda");

  const prizes = new MyPrizesPage(page);
  await prizes.goto();
  await expect(new Header(page).accountMenuButton()).toBeEnabled();
  const prize = prizes.prize(competition);
  const form = prizes.claimForm(competition);
  await expect(prize).toContainText("You won A test prize. Claim your prize");
  await expect(form.getByRole("radio")).toHaveCount(0);
  await form.getByLabel("Delivery address").fill("7 Quay Street, Bristol BS1 4DJ");
  await form.getByRole("button", { name: "Claim your prize" }).click();
  await expect(prize.locator("header").getByText("Claimed", { exact: true })).toBeVisible();
  await expect(prize).toContainText("sent to: 7 Quay Street, Bristol BS1 4DJ");

  // The public winners page shows the same step.
  await gotoUntilVisible(
    page,
    "/winners",
    page.getByRole("article", { name: competition.title }).getByText("Claimed", { exact: true }),
  );
});

test("the profile page has no axe violations in light and dark mode", async ({ approvedPlayer: { page } }) => {
  const profile = new ProfilePage(page);
  await profile.goto();
  await expect(new Header(page).accountMenuButton()).toBeEnabled();
  await profile.initialsOnly.check();
  await profile.saveInitialsOnly.click();
  await expect(profile.status).toHaveText("Saved: if you win, we will show only your initials.");
  await expectAccessibleInBothSchemes(page);
});
