import type { Page } from "@playwright/test";
import { axeViolations } from "./support/axe";
import {
  buyAs,
  createCompetition,
  publicCompetition,
  runDueDraws,
  setPrizeStatus,
  type TestUser,
} from "./support/backend";
import { expect, test } from "./support/fixtures";
import { MyEntriesPage, ProfilePage } from "./support/pages/account";
import { Header } from "./support/pages/header";

// A winner's options: appearing by initials only (CAP 8.28.5) and claiming the prize or its cash alternative
// on /account/entries until the prize is verified.

test.use({ playerDetails: { name: "Wanda Winner", credit: 10 } });

/**
 * A competition that `player` alone enters, drawn moments later: it closes 10 s ahead with its postal deadline
 * and draw at the close, and the cron's function is called until it has drawn. Answers the draw's id.
 */
async function winAlone(player: TestUser, fields: { label: string; cashAlternative?: number }) {
  const competition = await createCompetition({
    ...fields,
    question: null,
    closesInSeconds: 10,
    postalDeadlineInSeconds: 10,
    drawInSeconds: 10,
  });
  await buyAs(player, competition.id, 2, null);
  await expect
    .poll(
      async () => {
        await runDueDraws();
        return (await publicCompetition(competition.slug)).status;
      },
      { timeout: 40_000, intervals: [1_000] },
    )
    .toBe("drawn");
  const { draw } = await publicCompetition(competition.slug);
  return { competition, draw: draw! };
}

async function openEntries(page: Page): Promise<MyEntriesPage> {
  const entries = new MyEntriesPage(page);
  await entries.goto();
  await expect(new Header(page).accountMenuButton()).toBeEnabled();
  return entries;
}

test("the winner chooses the cash, changes their mind, and the choice is fixed once the prize is verified", async ({
  approvedPlayer: { page, ...player },
}) => {
  test.setTimeout(90_000);
  const { competition, draw } = await winAlone(player, { label: "cash", cashAlternative: 1200 });

  const entries = await openEntries(page);
  await expect(entries.entry(competition)).toContainText("Result: Won");
  const prize = entries.prize(competition);
  await expect(prize).toContainText("You won A test prize, or £1,200 cash instead.");

  await prize.getByRole("button", { name: "Confirm my choice" }).click();
  await expect(prize.getByRole("group", { name: "Take the prize or the cash" })).toHaveAccessibleDescription(
    "Choose the prize or the cash",
  );

  await prize.getByRole("radio", { name: "£1,200 cash" }).check();
  await prize.getByRole("button", { name: "Confirm my choice" }).click();
  await expect(prize.getByRole("status")).toHaveText("Saved: you will receive £1,200 cash.");
  await expect(prize).toContainText("You chose £1,200 cash.");
  await expect(prize.getByRole("radio", { name: "£1,200 cash" })).toBeChecked();
  await page.mouse.move(0, 0);
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: "reduce" });
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
    expect(await axeViolations(page)).toEqual([]);
  }

  await prize.getByRole("radio", { name: "The prize: A test prize" }).check();
  await prize.getByRole("button", { name: "Change my choice" }).click();
  await expect(prize).toContainText("You chose the prize (A test prize).");

  // Verified while the page is open: the stale change is refused with the reason and the page catches up.
  await setPrizeStatus(draw.id, "verified");
  await prize.getByRole("radio", { name: "£1,200 cash" }).check();
  await prize.getByRole("button", { name: "Change my choice" }).click();
  await expect(prize.getByRole("alert")).toHaveText("Your claim has been verified, so the choice can no longer change");
  await expect(prize).toContainText("You chose the prize (A test prize).");
  await expect(prize).toContainText("your choice is final");
  await expect(prize.getByRole("button")).toHaveCount(0);
  await page.reload();
  await expect(prize).toContainText("your choice is final");
  await expect(prize.getByRole("radio")).toHaveCount(0);
});

test("a player who asked for initials only wins: the public name has no first name, and they claim the prize", async ({
  approvedPlayer: { page, ...player },
}) => {
  test.setTimeout(90_000);
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

  const entries = await openEntries(page);
  const prize = entries.prize(competition);
  await expect(prize).toContainText("You won A test prize. Claim it below");
  await expect(prize.getByRole("radio")).toHaveCount(0);
  await prize.getByRole("button", { name: "Claim your prize" }).click();
  await expect(prize.getByRole("status")).toHaveText("Your claim is saved.");
  await expect(prize).toContainText("You have claimed it; we will be in touch");
  await expect(prize.getByRole("button")).toHaveCount(0);
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the profile page has no axe violations in ${colorScheme} mode`, async ({ approvedPlayer: { page } }) => {
    await page.emulateMedia({ colorScheme, reducedMotion: "reduce" });
    const profile = new ProfilePage(page);
    await profile.goto();
    await expect(new Header(page).accountMenuButton()).toBeEnabled();
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
    await profile.initialsOnly.check();
    await profile.saveInitialsOnly.click();
    await expect(profile.status).toHaveText("Saved: if you win, we will show only your initials.");
    await page.mouse.move(0, 0);
    expect(await axeViolations(page)).toEqual([]);
  });
}
