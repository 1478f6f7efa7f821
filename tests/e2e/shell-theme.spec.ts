import { expectColourModeButtonAccessible } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { Header } from "./support/pages/header";

test("switches between light and dark and remembers the choice", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/docs/getting-started");
  const header = new Header(page);
  const html = page.locator("html");
  await expect(html).toHaveClass(/\blight\b/);
  await expect(header.themeToggle()).toHaveAccessibleName("Colour mode: system (light)");
  // The button in each state it can be in (every page's own axe check leaves it to this test).
  await expectColourModeButtonAccessible(page);
  await header.chooseTheme("Dark");
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(header.themeToggle()).toHaveAccessibleName("Colour mode: dark");
  await expectColourModeButtonAccessible(page);

  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  await page.goto("/blog");
  await expect(html).toHaveClass(/\bdark\b/);

  await header.chooseTheme("Light");
  await expect(html).toHaveClass(/\blight\b/);
  await expect(header.themeToggle()).toHaveAccessibleName("Colour mode: light");
  await expectColourModeButtonAccessible(page);
  await page.reload();
  await expect(html).toHaveClass(/\blight\b/);
});

test("after a choice, System follows the device again, as it changes", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/blog");
  const header = new Header(page);
  const html = page.locator("html");
  await header.chooseTheme("Dark");
  await expect(html).toHaveClass(/\bdark\b/);

  // The menu says which is chosen.
  await header.themeToggle().click();
  const menu = page.getByRole("menu", { name: "Colour mode" });
  await expect(menu.getByRole("menuitemradio", { name: "Switch to dark mode" })).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await expect(menu.getByRole("menuitemradio", { name: "Switch to light mode" })).toHaveAttribute(
    "aria-checked",
    "false",
  );
  // "System" says what the device gives, and follows it while the menu is open.
  const system = menu.getByRole("menuitemradio", { name: /^System/ });
  await expect(system).toHaveAttribute("aria-checked", "false");
  await expect(system).toHaveAccessibleName("System (light)");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(system).toHaveAccessibleName("System (dark)");
  await page.emulateMedia({ colorScheme: "light" });
  await page.keyboard.press("Escape");

  await header.chooseTheme("System");
  await expect(html).toHaveClass(/\blight\b/);
  await expect(header.themeToggle()).toHaveAccessibleName("Colour mode: system (light)");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(header.themeToggle()).toHaveAccessibleName("Colour mode: system (dark)");
  await expectColourModeButtonAccessible(page);
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  await page.emulateMedia({ colorScheme: "light" });
  await expect(html).toHaveClass(/\blight\b/);
});

type ThemeWindow = { firstClass: string; classChanges: (string | null)[]; blockingSheets: number };

test("follows the system setting until a choice is made, with the class set before first paint", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  // Read the class from the very first HTML parse, before React hydrates, and every later write to it.
  await page.addInitScript(() => {
    const w = window as unknown as ThemeWindow;
    w.classChanges = [];
    w.blockingSheets = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === "attributes" && record.target === document.documentElement) {
          w.classChanges.push(record.oldValue);
        }
        for (const node of record.addedNodes) {
          // next-themes' own sheet (sonner's, loaded on the pages that raise toasts, blocks transitions only while swiping).
          if (
            node instanceof HTMLStyleElement &&
            node.textContent?.startsWith("*,*::before,*::after{-webkit-transition:none")
          ) {
            w.blockingSheets += 1;
          }
        }
      }
    }).observe(document, { subtree: true, childList: true, attributeFilter: ["class"], attributeOldValue: true });
    document.addEventListener("DOMContentLoaded", () => {
      w.firstClass = document.documentElement.className;
    });
  });
  await page.goto("/");
  expect(await page.evaluate(() => (window as unknown as ThemeWindow).firstClass)).toContain("dark");
  await expect(new Header(page).themeToggle()).toBeEnabled();
  // Hydrating writes nothing the page's first script already wrote: every write to <html>'s class, or a sheet
  // that blocks transitions, restyles the whole page, which a phone's processor pays for on every page load.
  const { classChanges, blockingSheets } = await page.evaluate(() => {
    const w = window as unknown as ThemeWindow;
    return { classChanges: w.classChanges, blockingSheets: w.blockingSheets };
  });
  expect({ htmlClassWrites: classChanges.length, blockingSheets }).toEqual({ htmlClassWrites: 1, blockingSheets: 0 });
});

test("a page can force dark mode whatever the visitor chose", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/confetti-test");
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(new Header(page).themeToggle()).toBeDisabled();
  await page.getByRole("link", { name: "How it works" }).first().click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.locator("html")).toHaveClass(/\blight\b/);
});

test("no console errors or hydration warnings while switching", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || /hydrat|script tag/i.test(m.text())) problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  // The analytics script is only served on Vercel; answer it here so its absence is not counted.
  await page.route("**/_vercel/insights/script.js", (r) => r.fulfill({ contentType: "text/javascript", body: "" }));
  await page.goto("/");
  const header = new Header(page);
  await header.chooseTheme("Dark");
  await header.mainNav.getByRole("link", { name: "How it works" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "How LabCash works" })).toBeVisible();
  expect(problems).toEqual([]);
});
