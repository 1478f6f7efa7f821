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

/** The header's slowest pace of asking again (components/layout/header-account.tsx), which brings the bell's count. */
const HEADER_REFRESH_MS = 60_000;

test.describe("a live competition with four tickets sold, watched on a phone", () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    competitionFields: { label: "livedraw", totalTickets: 10, maxPerUser: 5 },
  });

  test("the draw page counts down, then reveals the draw as it happens, says it checks out and tells each entrant their result", async ({
    page,
    browser,
    liveCompetition: competition,
  }) => {
    // Lena watches on her phone; Leo looks afterwards on a desktop. One of the two wins, so each run sees both results.
    const lena = await createUser({ name: "Lena Live", credit: 10, label: "livedraw" });
    const { ticket_numbers: lenaTickets } = await buyAs(lena, competition.id, 3);
    const leo = await createUser({ name: "Leo Later", credit: 10, label: "livedraw" });
    await buyAs(leo, competition.id, 1);
    await page.context().addCookies(await sessionCookies(lena.email, lena.password));
    const path = `${competition.path}/draw`;

    await page.clock.install();
    const entries = page.getByTestId("live-draw-entries");
    await gotoUntilVisible(page, path, entries.filter({ hasText: "4 tickets" }));
    const bell = page.getByRole("link", { name: /^Notifications/ });
    await expect(bell).toBeVisible();
    const unreadBefore = Number((await bell.getAttribute("aria-label"))!.match(/(\d+) unread/)?.[1] ?? 0);
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
    // As the reveal ends, the watching entrant is told what it meant for them, in a live region.
    const lenaWon = lenaTickets.includes(draw!.winning_number);
    const lenaOutcome = page.getByRole("status").and(page.getByTestId("live-draw-outcome"));
    await expect(lenaOutcome).toHaveText(
      lenaWon
        ? `You won! Your ticket #${draw!.winning_number} was drawn. Claim your prize`
        : "Your tickets did not win this time.",
    );
    // The draw wrote Lena a notification: the bell counts it without a reload when the header next asks.
    await expect(async () => {
      await page.clock.fastForward(HEADER_REFRESH_MS);
      await expect(bell).toHaveAccessibleName(`Notifications, ${unreadBefore + 1} unread`, { timeout: 2_000 });
    }).toPass();
    expect(await page.evaluate(() => (window as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    await expectAccessibleInBothSchemes(page, "after the reveal");

    // Afterwards, on a desktop: Leo's result, the other one, is on the record and on the competition page.
    const desktop = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      isMobile: false,
      hasTouch: false,
    });
    await desktop.addCookies(await sessionCookies(leo.email, leo.password));
    const leoPage = await desktop.newPage();
    const leoOutcome = leoPage.getByRole("status").and(leoPage.getByTestId("live-draw-outcome"));
    // The drawn page (the server writes the result), then the outcome, which comes once the browser has checked
    // the draw and asked for Leo's tickets: on a slow machine that takes longer than a reload's window.
    await gotoUntilVisible(leoPage, path, leoPage.getByText(`Ticket #${draw!.winning_number} of 4 won`));
    await expect(leoOutcome).toHaveText(
      lenaWon
        ? "Your ticket did not win this time."
        : `You won! Your ticket #${draw!.winning_number} was drawn. Claim your prize`,
    );
    await expectAccessibleInBothSchemes(leoPage, "the record, signed in, on a desktop");
    await leoPage.goto(competition.path);
    const leoCompetition = new CompetitionPage(leoPage);
    await expect(leoCompetition.howItWorks).toContainText(/letters had to arrive by .* and the draw was made /);
    await expect(leoCompetition.yourTickets).toContainText(
      `You held 1 ticket of 4 sold. ${lenaWon ? "Your ticket did not win this time." : "You won!"}`,
    );
    await desktop.close();

    // The shareable record: the same page later shows the result at once, with an image of it.
    const result = page.getByText(`Ticket #${draw!.winning_number} of 4 won`);
    await gotoUntilVisible(page, path, result);
    await expect(status).toHaveText("This draw checks out");
    // Told in the past tense, and the winner's initial ends the sentence with one full stop.
    await expect(result).toHaveText(`Ticket #${draw!.winning_number} of 4 won: ${draw!.winner_display_name}`);
    expect(draw!.winner_display_name).toMatch(/\.$/);
    await expect(page).toHaveTitle(/^Draw result: /);
    await expect(page.getByText("Live draw", { exact: true })).toHaveCount(0);
    await expect(page.getByText(/^The draw was made on /)).toBeVisible();
    const image = new URL((await page.locator('meta[property="og:image"]').getAttribute("content"))!);
    const png = await page.request.get(image.pathname + image.search);
    expect(png.status()).toBe(200);
    expect(png.headers()["content-type"]).toBe("image/png");
    expect((await png.body()).subarray(1, 4).toString()).toBe("PNG");

    // A signed-in player who held no ticket is told so in the past tense, on the record and on the competition page.
    const bystander = await createUser({ name: "Bea Bystander", credit: 0, label: "livedraw" });
    await page.context().addCookies(await sessionCookies(bystander.email, bystander.password));
    await page.goto(path);
    await expect(lenaOutcome).toHaveText("You had no tickets in this draw.");
    await page.goto(competition.path);
    await expect(new CompetitionPage(page).yourTickets).toContainText("You had no tickets in this draw.");
  });
});
