import { expect, test } from "./support/fixtures";

test.beforeEach(async ({ page }) => {
  await page.goto("/notifications-test");
  await expect(page).toHaveTitle(/^Notification System Test · /);
  await expect(page.getByRole("heading", { level: 1, name: "Notification System Test" })).toBeVisible();
});

test("the region is in the page before the first toast, and only where toasts can be raised", async ({ page }) => {
  // Its live region is there before anything is announced in it.
  await expect(page.getByRole("region", { name: /^Notifications/ })).toBeAttached();
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);

  // A page that raises none never loads sonner: once the page is idle (when the region used to load everywhere)
  // and a moment after, no region, and no trace of sonner's module, which writes its own <style> when it runs (the
  // site's sheet, which styles the toasts too, is the one with data-href).
  await page.goto("/competitions");
  await page.evaluate(
    () => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 500), { timeout: 1500 })),
  );
  await expect(page.getByRole("region", { name: /^Notifications/ })).toHaveCount(0);
  const sonnerStyles = () =>
    page.evaluate(
      () =>
        [...document.querySelectorAll("style:not([data-href])")].filter((s) =>
          s.textContent?.includes("data-sonner-toaster"),
        ).length,
    );
  expect(await sonnerStyles()).toBe(0);
  // The same check finds it where toasts are raised.
  await page.goto("/notifications-test");
  await expect(page.getByRole("region", { name: /^Notifications/ })).toBeAttached();
  expect(await sonnerStyles()).toBeGreaterThan(0);
});

test("every kind fires, bottom-right, with a close button and a progress bar", async ({ page }) => {
  const toaster = page.locator("[data-sonner-toaster]");
  for (const [button, title] of [
    ["Default", "Draw reminder"],
    ["Success", "Credit added"],
    ["Info", "New competition"],
    ["Warning", "Monthly limit nearly reached"],
    ["Error", "Payment failed"],
    ["With action", "Ticket reserved"],
  ]) {
    await page.getByRole("button", { name: button, exact: true }).click();
    await expect(toaster.getByText(title)).toBeVisible();
  }
  await expect(toaster).toHaveAttribute("data-x-position", "right");
  await expect(toaster).toHaveAttribute("data-y-position", "bottom");
  const toast = page.locator("[data-sonner-toast]").first();
  const bar = await toast.evaluate((el) => getComputedStyle(el).animationName);
  expect(bar).toBe("toast-progress");
  expect(await toast.evaluate((el) => getComputedStyle(el).animationDuration)).toBe("5s");
});

/** The bar as drawn: its image (none when another stylesheet wipes it) and its width now. */
const barOf = (toast: import("@playwright/test").Locator) =>
  toast.evaluate((el) => {
    const style = getComputedStyle(el);
    return { image: style.backgroundImage, width: parseFloat(style.backgroundSize) };
  });

test("the progress bar is drawn and shrinks while the toast is open", async ({ page }) => {
  await page.getByRole("button", { name: "Success", exact: true }).click();
  const toast = page.locator("[data-sonner-toast]", { hasText: "Credit added" });
  await expect(toast).toBeVisible();
  await page.mouse.move(0, 0);
  const first = await barOf(toast);
  expect(first.image).toContain("gradient");
  await expect.poll(async () => (await barOf(toast)).width).toBeLessThan(first.width - 10);
});

test.describe("reduced motion", () => {
  test.use({ reducedMotion: "reduce" });

  test("the bar still counts down, in one-second steps rather than gliding", async ({ page }) => {
    await page.getByRole("button", { name: "Info", exact: true }).click();
    const toast = page.locator("[data-sonner-toast]", { hasText: "New competition" });
    await expect(toast).toBeVisible();
    await page.mouse.move(0, 0);
    expect(await toast.evaluate((el) => getComputedStyle(el).animationTimingFunction)).toMatch(/^steps\(5/);
    expect((await barOf(toast)).image).toContain("gradient");
    await expect.poll(async () => (await barOf(toast)).width, { timeout: 4000 }).toBeLessThanOrEqual(80);
  });
});

test("at most 5 are shown and the gap is 16 px", async ({ page }) => {
  await page.getByRole("button", { name: "Fire all" }).click();
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(6);
  await expect(page.locator('[data-sonner-toast][data-visible="true"]')).toHaveCount(5);
  expect(
    await page.locator("[data-sonner-toaster]").evaluate((el) => getComputedStyle(el).getPropertyValue("--gap").trim()),
  ).toBe("16px");
});

test("the close button dismisses a toast", async ({ page }) => {
  await page.getByRole("button", { name: "Success", exact: true }).click();
  const toast = page.locator("[data-sonner-toast]", { hasText: "Credit added" });
  await toast.hover();
  await toast.getByRole("button", { name: "Close notification" }).click();
  await expect(toast).toHaveCount(0);
});

test("a toast closes by itself after about 5 seconds", async ({ page }) => {
  // The page's clock is moved on instead of waited for: the toast's timers run as they would in five seconds.
  await page.clock.install();
  await page.reload();
  await page.mouse.move(0, 0);
  await page.getByRole("button", { name: "Info", exact: true }).click();
  const toast = page.getByText("New competition");
  await expect(toast).toBeVisible();
  await page.clock.runFor(4_000);
  await expect(toast).toBeVisible();
  await page.clock.runFor(1_500);
  await expect(toast).toBeHidden();
});

test("swiping right dismisses a toast", async ({ page }) => {
  await page.getByRole("button", { name: "Warning", exact: true }).click();
  const toast = page.locator("[data-sonner-toast]", { hasText: "Monthly limit nearly reached" });
  await expect(toast).toHaveAttribute("data-mounted", "true");
  // hover() waits until the toast has finished sliding in, so the drag starts on it.
  await toast.hover();
  const box = (await toast.boundingBox())!;
  const y = box.y + box.height / 2;
  const x = box.x + 40;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await expect(toast).toHaveAttribute("data-swiping", "true");
  // Sonner locks the swipe direction on the first move and applies distance from the next render on.
  await page.mouse.move(x + 5, y);
  await page.mouse.move(x + 15, y);
  await expect(toast).toHaveAttribute("data-swiped", "true");
  await page.mouse.move(x + 80, y, { steps: 5 });
  await page.mouse.up();
  await expect(toast).toHaveCount(0);
});
