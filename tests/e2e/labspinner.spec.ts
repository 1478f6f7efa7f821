import type { Page } from "@playwright/test";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { balanceOf, recordSpinRequest, sessionCookies, spinnerWheel, takeBreakAs } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { LabSpinnerPage } from "./support/pages/labspinner";

// /labspinner: the published odds equal the database's, signed-out visitors get a demo
// that wins nothing, a player spends a spin credit and the recorded prize lands in their balance,
// a player on a break is told why and cannot spin, and reduced motion shows the result at once.

const gbp = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" });
const percent = new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 4 });

/** Counts the wheel's Web Animations (keyframes that rotate), so a test can tell a spin from a jump. */
async function countWheelAnimations(page: Page) {
  await page.addInitScript(() => {
    const animate = Element.prototype.animate;
    const counter = window as unknown as { wheelAnimations: number };
    counter.wheelAnimations = 0;
    Element.prototype.animate = function (keyframes, options) {
      if (JSON.stringify(keyframes).includes("rotate(")) counter.wheelAnimations += 1;
      return animate.call(this, keyframes, options);
    };
  });
  return () => page.evaluate(() => (window as unknown as { wheelAnimations: number }).wheelAnimations);
}

test("signed out: the odds are the database's, and a demo spin says it wins nothing", async ({ page }) => {
  const wheel = await spinnerWheel();
  const spinner = new LabSpinnerPage(page);
  await spinner.goto();
  await expect(spinner.heading).toBeVisible();
  await expect(spinner.wheel).toBeVisible();
  // Row by row in position order (two segments may share a label, such as "No prize").
  await expect(spinner.segmentRows).toHaveCount(wheel.segments.length);
  for (const [index, segment] of wheel.segments.entries()) {
    const row = spinner.segmentRows.nth(index);
    await expect(row.getByRole("cell").nth(0)).toHaveText(segment.label);
    await expect(row.getByRole("cell").nth(2)).toHaveText(segment.weight.toLocaleString("en-GB"));
    await expect(row.getByRole("cell").nth(3)).toHaveText(percent.format(segment.probability));
  }
  await expect(spinner.freeRoute).toContainText("LabSpinner");
  await expect(spinner.freeRoute.getByRole("link", { name: "How LabSpinner works" })).toHaveAttribute(
    "href",
    "/docs/labspinner",
  );

  await expect(spinner.demoNotice).toBeVisible();
  await spinner.demoSpinButton.click();
  await expect(spinner.demoResult).toContainText(
    /^Demo spin: the wheel stopped on .+\. This was a demo, so you win nothing\.$/,
  );
  const landed = (await spinner.demoResult.textContent())?.match(/stopped on (.+)\. This was/)?.[1];
  expect(wheel.segments.map((segment) => segment.label)).toContain(landed);
  // Nothing personal and nothing to spend: no balance, no real spin.
  await expect(spinner.yourSpins).toHaveCount(0);
  await expect(spinner.spinButton).toHaveCount(0);
  await expect(spinner.demo.getByRole("link", { name: "Sign in to spin" })).toHaveAttribute(
    "href",
    "/login?next=/labspinner",
  );
});

test("a player with a spin credit spins; the recorded prize lands in their balance", async ({
  approvedPlayer: { page, ...player },
}) => {
  const wheelAnimations = await countWheelAnimations(page);
  await recordSpinRequest(player.id);
  const before = await balanceOf(player.id);
  const spinner = new LabSpinnerPage(page);
  await spinner.goto();

  await expect(spinner.spinCredits).toHaveText("1");
  await expect(spinner.balance).toHaveText(gbp.format(before));
  await expect(spinner.yourSpins).toContainText("£0.00 of £10.00 spent toward your next spin");
  await expect(spinner.yourSpins).toContainText("0 credits earned from tickets, 1 by post, 0 spun.");
  await expect(spinner.serverSeedHash).toHaveText(/^[0-9a-f]{64}$/);
  await expect(spinner.nextNonce).toHaveText("0");
  await expect(spinner.recentSpins).toContainText("You have not spun the wheel yet.");

  const prize = await spinner.spin();
  expect(await wheelAnimations()).toBe(1);
  await expect(spinner.balance).toHaveText(gbp.format(before + prize));
  expect(await balanceOf(player.id)).toBeCloseTo(before + prize, 2);
  await expect(spinner.spinCredits).toHaveText("0");
  await expect(spinner.nextNonce).toHaveText("1");
  await expect(spinner.recentSpins.getByRole("row")).toHaveCount(2);
  // No credit left: how to earn one instead of the button.
  await expect(spinner.spinButton).toHaveCount(0);
  await expect(spinner.yourSpins).toContainText("You have no spin credits yet.");
});

test("with reduced motion the wheel does not spin: the result shows at once", async ({
  approvedPlayer: { page, ...player },
}) => {
  const wheelAnimations = await countWheelAnimations(page);
  await page.emulateMedia({ reducedMotion: "reduce" });
  await recordSpinRequest(player.id);
  const spinner = new LabSpinnerPage(page);
  await spinner.goto();
  await spinner.spin();
  expect(await wheelAnimations()).toBe(0);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the Spin button is on the first screen with the wheel, and a spin from further down brings the wheel into view", async ({
    approvedPlayer: { page, ...player },
  }) => {
    await recordSpinRequest(player.id);
    const spinner = new LabSpinnerPage(page);
    await spinner.goto();
    await expect(spinner.wheel).toBeInViewport({ ratio: 1 });
    await expect(spinner.spinButton).toBeInViewport({ ratio: 1 });

    // Scrolled to the foot of the page, the wheel is out of sight; a spin from the keyboard (which scrolls
    // nothing by itself) brings it back, clear of the sticky header, for the whole spin and its result.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(spinner.wheel).not.toBeInViewport();
    await spinner.spinButton.evaluate((button: HTMLElement) => button.focus({ preventScroll: true }));
    await page.keyboard.press("Enter");
    await expect(spinner.result).toHaveText("The wheel is spinning…");
    await expect(spinner.wheel).toBeInViewport({ ratio: 1 });
    const headerBottom = (await page.getByRole("banner").boundingBox())!;
    expect((await spinner.wheel.boundingBox())!.y).toBeGreaterThanOrEqual(headerBottom.y + headerBottom.height);
    await expect(spinner.result).toHaveText(/^The wheel stopped on .+\./);
    await expect(spinner.wheel).toBeInViewport({ ratio: 1 });
    await expect(spinner.result).toBeInViewport();
  });
});

test("a player on a break is told why and has no spin button", async ({ approvedPlayer: { page, ...player } }) => {
  await recordSpinRequest(player.id);
  await takeBreakAs(player);
  const spinner = new LabSpinnerPage(page);
  await spinner.goto();
  await expect(spinner.yourSpins).toContainText(/You are taking a break until .+/);
  await expect(spinner.yourSpins).toContainText("You cannot spin the wheel while this lasts.");
  await expect(spinner.spinCredits).toHaveText("1");
  await expect(spinner.spinButton).toHaveCount(0);
});

test("/labspinner has no axe violations in light and dark mode, signed out and signed in", async ({
  page,
  approvedAccount,
  browser,
}) => {
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
  const spinner = new LabSpinnerPage(page);
  await spinner.goto();
  await expect(spinner.demoSpinButton).toBeEnabled();
  await expectAccessibleInBothSchemes(page, "/labspinner signed out");

  await recordSpinRequest(approvedAccount.id);
  const context = await browser.newContext();
  try {
    // Signed in through the API (the form is tested where it is the subject).
    await context.addCookies(await sessionCookies(approvedAccount.email, approvedAccount.password));
    const playerPage = await context.newPage();
    await playerPage.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
    const mine = new LabSpinnerPage(playerPage);
    await mine.goto();
    await mine.spin();
    await expect(mine.spinCredits).toHaveText("0");
    await expectAccessibleInBothSchemes(playerPage, "/labspinner after a spin");
  } finally {
    await context.close();
  }
});
