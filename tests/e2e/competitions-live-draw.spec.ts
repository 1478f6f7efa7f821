import { expectAccessibleInBothSchemes } from "./support/axe";
import { buyAs, createUser, drawNow, sessionCookies } from "./support/backend";
import { gotoUntilVisible } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { CompetitionPage } from "./support/pages/competition";

// The live draw page: before the draw the countdown, the commitment and the entries; at the
// draw time it reveals the draw step by step without a reload and checks it in the browser; afterwards it is the
// record, with a social card. Time is moved, not waited for: the competition's draw becomes now on the server and
// the browser's clock is run on to the page's next question.

/** The page's slowest pace of asking (lib/draws/live-draw.ts LONG_POLL_MS): one run of the clock brings its next question. */
const LONG_POLL_MS = 30_000;

test.describe("a live competition with three tickets sold", () => {
  test.use({ competitionFields: { label: "livedraw", totalTickets: 10, maxPerUser: 5 } });

  test("the draw page counts down, then reveals the draw as it happens and says it checks out", async ({
    page,
    liveCompetition: competition,
  }) => {
    const buyer = await createUser({ name: "Lena Live", credit: 10, label: "livedraw" });
    await buyAs(buyer, competition.id, 3);
    const path = `${competition.path}/draw`;

    await page.clock.install();
    const entries = page.getByTestId("live-draw-entries");
    await gotoUntilVisible(page, path, entries.filter({ hasText: "3 tickets" }));
    await expect(page.getByRole("heading", { level: 1, name: competition.title })).toBeVisible();
    await expect(page.getByText(/^Draw in \d+d/)).toBeVisible();
    await expect(page.getByTestId("live-draw-commitment")).toHaveText(competition.seed_commitment);
    const calendar = page.getByRole("link", { name: "Add the draw to my calendar" });
    const ics = await page.request.get((await calendar.getAttribute("href"))!);
    expect(ics.headers()["content-type"]).toContain("text/calendar");
    expect(await ics.text()).toContain(`URL:`);
    await expectAccessibleInBothSchemes(page, "before the draw");
    // Watched as most people watch it: with motion.
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.evaluate(() => Object.assign(window, { loadedOnce: true }));

    const { draw } = await drawNow(competition);
    expect(draw).not.toBeNull();
    const firstStep = page.getByRole("heading", { name: "1. The seed matches its commitment" });
    await expect(async () => {
      await page.clock.fastForward(LONG_POLL_MS);
      await expect(firstStep).toBeVisible({ timeout: 2_000 });
    }).toPass();
    // Step by step: the winner is the last thing shown.
    await expect(page.getByRole("heading", { name: "5. The winner" })).toHaveCount(0);
    const status = page.getByRole("status").filter({ hasText: /This draw|Step/ });
    await expect(status).toHaveText("This draw checks out");
    await expect(page.getByRole("heading", { name: "4. The winning ticket" })).toBeVisible();
    await expect(page.getByText(`#${draw!.winning_number}`, { exact: true })).toBeVisible();
    await expect(page.getByTestId("live-draw-winner")).toContainText(draw!.winner_display_name);
    expect(await page.evaluate(() => (window as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    await expectAccessibleInBothSchemes(page, "after the reveal");

    // The shareable record: the same page later shows the result at once, with an image of it.
    const result = page.getByText(`Ticket #${draw!.winning_number} of 3 won`);
    await gotoUntilVisible(page, path, result);
    await expect(status).toHaveText("This draw checks out");
    // Told in the past tense, and the winner's initial ends the sentence with one full stop.
    await expect(result).toHaveText(`Ticket #${draw!.winning_number} of 3 won: ${draw!.winner_display_name}`);
    expect(draw!.winner_display_name).toMatch(/\.$/);
    await expect(page).toHaveTitle(/^Draw result: /);
    await expect(page.getByText("Live draw", { exact: true })).toHaveCount(0);
    await expect(page.getByText(/^The draw was made on /)).toBeVisible();
    const image = new URL((await page.locator('meta[property="og:image"]').getAttribute("content"))!);
    const png = await page.request.get(image.pathname + image.search);
    expect(png.status()).toBe(200);
    expect(png.headers()["content-type"]).toBe("image/png");
    expect((await png.body()).subarray(1, 4).toString()).toBe("PNG");

    // A signed-in player who held no ticket is told so in the past tense on the competition page.
    const bystander = await createUser({ name: "Bea Bystander", credit: 0, label: "livedraw" });
    await page.context().addCookies(await sessionCookies(bystander.email, bystander.password));
    await page.goto(competition.path);
    await expect(new CompetitionPage(page).yourTickets).toContainText("You had no tickets in this draw.");
  });
});
