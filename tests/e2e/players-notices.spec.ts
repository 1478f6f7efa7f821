import type { Page } from "@playwright/test";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { recordSpinRequest, takeBreakAs } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { CompetitionPage } from "./support/pages/competition";
import { Header } from "./support/pages/header";
import { LabSpinnerPage } from "./support/pages/labspinner";

// What a player meets before they act: on a break the competition page and the
// wheel say so, until when, with the way to Responsible play, instead of a form that would only refuse;
// a newly approved player is welcomed once; a signed-out visitor sees the price and the bundles beside
// "Sign in to enter"; /competitions-demo names the promoter and who may enter.

// 50p tickets, at most 20 each: the bundles are 1, 5 and 10 (25 is over the cap).
test.use({ competitionFields: { ticketPrice: 0.5, maxPerUser: 20 } });

const BREAK_NOTICE = /^You are taking a break until \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2}$/;

const welcome = (page: Page) => page.getByRole("region", { name: "You're approved" });

test("a player on a break sees a notice with the date and Responsible play instead of the entry form and the Spin button", async ({
  approvedPlayer: { page, ...player },
  liveCompetition,
}) => {
  await recordSpinRequest(player.id);
  await takeBreakAs(player);

  const competition = new CompetitionPage(page);
  await competition.goto(liveCompetition);
  const notice = competition.entry.root.getByText(BREAK_NOTICE);
  await expect(notice).toBeVisible();
  await expect(competition.entry.root).toContainText("Entries are paused while this lasts.");
  await expect(competition.entry.root.getByRole("link", { name: "Responsible play" })).toHaveAttribute(
    "href",
    "/account/responsible-play",
  );
  await expect(competition.entry.quantity).toHaveCount(0);
  await expect(competition.entry.buyButtons).toHaveCount(0);
  await expect(competition.entry.root.getByRole("link", { name: "Sign in to enter" })).toHaveCount(0);

  const spinner = new LabSpinnerPage(page);
  await spinner.goto();
  await expect(spinner.yourSpins.getByText(BREAK_NOTICE)).toBeVisible();
  await expect(spinner.yourSpins).toContainText("You cannot spin the wheel while this lasts.");
  await expect(spinner.yourSpins.getByRole("link", { name: "Responsible play" })).toHaveAttribute(
    "href",
    "/account/responsible-play",
  );
  await expect(spinner.spinCredits).toHaveText("1");
  await expect(spinner.spinButton).toHaveCount(0);
});

test('a newly approved player sees "You\'re approved" once, and never after dismissing it', async ({
  approvedPlayer: { page },
}) => {
  // Signed in straight after approval: the dashboard welcomes them with what to do next.
  await page.goto("/account");
  await expect(welcome(page)).toBeVisible();
  await expect(welcome(page).getByRole("link", { name: "Top up your credit" })).toHaveAttribute("href", "/credit");
  await expect(welcome(page).getByRole("link", { name: "Browse competitions" })).toHaveAttribute(
    "href",
    "/competitions",
  );
  // Still there on the next visit until dismissed.
  await page.reload();
  await expect(welcome(page)).toBeVisible();

  await expect(new Header(page).themeToggle()).toBeEnabled();
  await welcome(page).getByRole("button", { name: "Dismiss welcome" }).click();
  await expect(welcome(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: /^Hello, / })).toBeVisible();
  await expect(welcome(page)).toHaveCount(0);
});

test("a signed-out visitor sees the ticket price and the bundles beside Sign in to enter", async ({
  page,
  liveCompetition,
}) => {
  const competition = new CompetitionPage(page);
  await competition.goto(liveCompetition);
  const card = competition.entry.root;
  await expect(card).toContainText("£0.50 per ticket");
  const bundles = card.getByRole("list", { name: "Ticket bundles" }).getByRole("listitem");
  await expect(bundles).toHaveText(["1 ticket£0.50", "5 tickets£2.50", "10 tickets£5.00"]);
  await expect(card.getByRole("link", { name: "Sign in to enter" })).toHaveAttribute(
    "href",
    `/login?next=${encodeURIComponent(liveCompetition.path)}`,
  );
});

test("/competitions-demo names who may enter and the promoter", async ({ page }) => {
  await page.goto("/competitions-demo");
  const notice = page.getByRole("group", { name: "Who can enter and who runs this competition" });
  await expect(notice).toContainText("Open to UK residents aged 18 or over only.");
  // The promoter is a shared setting another spec changes for a moment: any name with a UK postcode.
  await expect(notice).toContainText(/Promoter: [^,]+, .+ [A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}\./);
});

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`the welcome and the break notices have no axe violations in light and dark mode on a ${viewport.name}`, async ({
    approvedPlayer: { page, ...player },
    liveCompetition,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto("/account");
    await expect(welcome(page)).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    await takeBreakAs(player);
    const competition = new CompetitionPage(page);
    await competition.goto(liveCompetition);
    await expect(competition.entry.root.getByText(BREAK_NOTICE)).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    const spinner = new LabSpinnerPage(page);
    await spinner.goto();
    await expect(spinner.yourSpins.getByText(BREAK_NOTICE)).toBeVisible();
    await expectAccessibleInBothSchemes(page);
  });

  test(`the signed-out entry card and /competitions-demo have no axe violations in light and dark mode on a ${viewport.name}`, async ({
    page,
    liveCompetition,
  }) => {
    await page.setViewportSize(viewport);
    const competition = new CompetitionPage(page);
    await competition.goto(liveCompetition);
    await expect(competition.entry.root.getByRole("list", { name: "Ticket bundles" })).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    await page.goto("/competitions-demo");
    await expect(page.getByRole("group", { name: "Who can enter and who runs this competition" })).toBeVisible();
    await expectAccessibleInBothSchemes(page);
  });
}
