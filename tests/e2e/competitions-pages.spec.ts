import type { Page } from "@playwright/test";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { gotoUntilVisible } from "./support/cached-pages";
import { overflowingBoxes } from "./support/overflow";
import { CompetitionPage } from "./support/pages/competition";

test.describe("at £0.75 a ticket, 40 tickets", () => {
  test.use({ competitionFields: { label: "listed", ticketPrice: 0.75, totalTickets: 40 } });

  test("the competitions page lists a new live competition with its price, progress and countdown", async ({
    page,
    liveCompetition: competition,
  }) => {
    const live = page.getByRole("region", { name: /^Live now/ });
    const card = live.getByRole("article").filter({ has: page.getByRole("heading", { name: competition.title }) });
    await gotoUntilVisible(page, "/competitions", card);
    await expect(card).toContainText("£0.75 per ticket");
    await expect(card.getByRole("progressbar", { name: "Tickets sold" })).toHaveAttribute(
      "aria-valuetext",
      "0 of 40 tickets sold",
    );
    await expect(card).toContainText(/Closes in \d+d \d{2}h \d{2}m \d{2}s/);
    await expect(card).toContainText("1 in 40 per ticket, plus free postal entries");
    // Drawn competitions come after the live ones, with their winners.
    const finished = page.getByRole("region", { name: /^Drawn/ });
    await expect(finished.getByRole("article").first()).toContainText(
      /Won by \S+ \S\.(, [A-Z][a-z]+)? with ticket #\d+/,
    );
    await card.getByRole("link", { name: competition.title }).click();
    await expect(page).toHaveURL(new RegExp(`${competition.path}$`));
    await expect(new CompetitionPage(page).heading(competition)).toBeVisible();
  });
});

test.describe("closing in 20 minutes", () => {
  // Closing soonest puts it among the few the home page shows: the featured prize or one of those after it.
  test.use({ competitionFields: { label: "home", closesInSeconds: 20 * 60 } });

  test("the home page shows live competitions from the backend", async ({ page, liveCompetition: competition }) => {
    const link = page
      .getByRole("region", { name: /^(Featured prize|More live competitions)$/ })
      .getByRole("link", { name: competition.title, exact: true });
    await gotoUntilVisible(page, "/", link);
    await expect(link).toHaveAttribute("href", competition.path);
  });
});

test("an unknown competition is the site's 404 page", async ({ page }) => {
  const response = await page.goto("/competitions/no-such-prize-here");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Page not found: /competitions/no-such-prize-here")).toBeVisible();
});

test.describe("opening in three days", () => {
  test.use({
    competitionFields: {
      label: "later",
      opensAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      closesInSeconds: 10 * 86_400,
    },
  });

  test("a competition that is not open yet says when it opens", async ({ page, liveCompetition: competition }) => {
    const competitionPage = new CompetitionPage(page);
    await competitionPage.goto(competition);
    await expect(page.getByText(/^Opens in/).first()).toBeVisible();
    await expect(competitionPage.entry.root).toContainText(/Entries open on \d{1,2} \w+ \d{4} at \d{2}:\d{2}/);
  });
});

test("an unknown draw id is a 404, and a draw can be verified without an account", async ({ page }) => {
  expect((await page.goto("/winners/00000000-0000-4000-8000-000000000000"))?.status()).toBe(404);
  expect((await page.goto("/winners/not-a-draw"))?.status()).toBe(404);
  await page.goto("/winners");
  await page
    .getByRole("link", { name: /^Verify the draw for / })
    .first()
    .click();
  await expect(page.getByText("This draw checks out")).toBeVisible();
});

test("the demo runs a whole competition on sample data and verifies the draw in the browser", async ({ page }) => {
  await page.goto("/competitions-demo");
  await expect(page.getByText(/^[0-9a-f]{64}$/).first()).toBeVisible();
  await page.getByRole("button", { name: "Buy 3 sample tickets" }).click();
  await expect(page.getByText("Your sample tickets: #9, #10, #11")).toBeVisible();
  await page.getByRole("button", { name: "Another player buys 2" }).click();
  await page.getByRole("button", { name: "Close and draw now" }).click();
  await expect(page.getByText(/^Ticket #\d+ wins/)).toBeVisible();
  await expect(page.getByText("This draw checks out")).toBeVisible();
  await page.getByRole("button", { name: "Tamper: swap ticket #1 after the draw" }).click();
  await expect(page.getByText(/This draw does not check out: .*Ticket list hash/)).toBeVisible();
  await page.getByRole("button", { name: "Undo the tampering" }).click();
  await expect(page.getByText("This draw checks out")).toBeVisible();
});

test("a live competition page hydrates without an error: the browser parses the server's HTML as React wrote it", async ({
  page,
  liveCompetition,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await new CompetitionPage(page).goto(liveCompetition);
  // Drawn by the client in the commit that ends hydration (where a mismatch is reported).
  await expect(page.getByTestId("search-shortcut")).toBeAttached();
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
  expect(errors).toEqual([]);
});

test.describe("on a phone, a prize with a cash alternative", () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    competitionFields: { label: "thumbs", prizeValue: 1199, cashAlternative: 1050, ticketPrice: 0.99 },
  });

  const entryBar = (page: Page) => page.getByRole("region", { name: "Enter this competition" });

  /** The page at each phone width from the narrowest: nothing wider than its box, nothing past the screen's edge. */
  async function expectNothingOverflows(page: Page) {
    for (const width of [320, 390, 430]) {
      await page.setViewportSize({ width, height: 844 });
      expect(await overflowingBoxes(page), `at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 390, height: 844 });
  }

  test("signed out: nothing overflows at 320 to 430 px, and the bar's Sign in to enter opens the entry card", async ({
    page,
    liveCompetition,
  }) => {
    const competition = new CompetitionPage(page);
    await competition.goto(liveCompetition);
    await expect(page.getByText("£1,199 or £1,050 cash").first()).toBeVisible();
    await expectNothingOverflows(page);

    // The bar is on the first screen, with the price, the time left and the way in.
    const bar = entryBar(page);
    await expect(bar).toBeInViewport({ ratio: 1 });
    await expect(bar).toContainText("£0.99 a ticket");
    await expect(bar).toContainText(/Closes in \d+d \d{2}h \d{2}m \d{2}s/);
    await expectAccessibleInBothSchemes(page);

    await bar.getByRole("link", { name: "Sign in to enter" }).tap();
    await expect(competition.entry.root).toBeFocused();
    await expect(competition.entry.root).toBeInViewport();
    await expect(competition.entry.root.getByRole("link", { name: "Sign in to enter" })).toBeInViewport();
    // With the card on screen the bar steps aside.
    await expect(bar).toBeHidden();
  });

  test("signed in: the bar's Enter opens the entry form, which fits at 320 px; a wide screen has no bar", async ({
    approvedPlayer: { page },
    liveCompetition,
  }) => {
    const competition = new CompetitionPage(page);
    await competition.goto(liveCompetition);
    await expect(competition.entry.quantity).toBeAttached();
    const bar = entryBar(page);
    await bar.getByRole("link", { name: "Enter", exact: true }).tap();
    await expect(competition.entry.root).toBeFocused();
    await expect(competition.entry.quantity).toBeInViewport();
    await expectNothingOverflows(page);

    // Back at the top the bar returns; a wide screen, with room for the page as it is, has none.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(bar).toBeInViewport({ ratio: 1 });
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(bar).toBeHidden();
  });
});
