import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

async function openWithShortcut(page: Page) {
  // Wait for hydration: the shortcut listener is attached by the header's search button.
  await expect(page.getByRole("button", { name: "Search..." })).toBeVisible();
  await page.keyboard.press("ControlOrMeta+k");
  const dialog = page.getByRole("dialog", { name: "Search documentation" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("opens with the keyboard shortcut and finds a section", async ({ page }) => {
  await page.goto("/");
  const dialog = await openWithShortcut(page);
  const input = dialog.getByPlaceholder("Search...");
  await expect(input).toBeFocused();
  await input.fill("rejection sampling");
  await expect(dialog.getByRole("option").first()).toContainText("Choosing the ticket without bias");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("opens from the button, tolerates typos and navigates to the heading anchor with the keyboard", async ({
  page,
}) => {
  await page.goto("/pricing");
  await page.getByRole("button", { name: "Search..." }).click();
  const dialog = page.getByRole("dialog", { name: "Search documentation" });
  await dialog.getByPlaceholder("Search...").fill("self-exclsion");
  const first = dialog.getByRole("option").first();
  await expect(first).toContainText("Self-exclusion");
  await expect(first).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/docs\/responsible-play#self-exclusion$/);
  await expect(page.getByRole("heading", { name: "Self-exclusion" })).toBeInViewport();
  await expect(dialog).toBeHidden();
});

test("arrow keys move through the results", async ({ page }) => {
  await page.goto("/docs");
  const dialog = await openWithShortcut(page);
  await dialog.getByPlaceholder("Search...").fill("credit");
  const options = dialog.getByRole("option");
  await expect(options.nth(1)).toBeVisible();
  await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
});

test("returns at most 42 results", async ({ page }) => {
  const index = await (await page.request.get("/search.json")).json();
  expect(index.length).toBeGreaterThan(42);
  for (const record of index) {
    expect(record.id).toMatch(/^\/docs(\/[a-z0-9-]+)*(#[a-z0-9-]+)?$/);
    expect(record.level).toBeGreaterThanOrEqual(1);
    expect(record.level).toBeLessThanOrEqual(6);
    expect(Array.isArray(record.titles)).toBe(true);
  }
  await page.goto("/");
  const dialog = await openWithShortcut(page);
  // Single letters match almost every section by prefix.
  await dialog.getByPlaceholder("Search...").fill("a");
  await expect(dialog.getByRole("option").first()).toBeVisible();
  await expect(dialog.getByRole("option")).toHaveCount(42);
});
