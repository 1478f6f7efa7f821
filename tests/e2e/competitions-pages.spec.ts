import { expect, test } from "./support/fixtures";
import { gotoUntilVisible } from "./support/cached-pages";
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
  // Closing soonest puts it among the few the home page shows.
  test.use({ competitionFields: { label: "home", closesInSeconds: 20 * 60 } });

  test("the home page shows live competitions from the backend", async ({ page, liveCompetition: competition }) => {
    const link = page.getByRole("region", { name: "Live competitions" }).getByRole("link", { name: competition.title });
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
