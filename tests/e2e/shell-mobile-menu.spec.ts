import { expectAccessibleInBothSchemes } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { Header } from "./support/pages/header";
import { demoUsers, storageStatePath } from "./support/users";

test.use({ viewport: { width: 390, height: 844 } });

test("signed out: Sign in and Sign up, and it closes when a link is followed", async ({ page }) => {
  await page.goto("/");
  const menu = await new Header(page).openMobileMenu();
  await expect(menu.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
  await expect(menu.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/signup");
  await menu.getByRole("link", { name: "How it works" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(menu).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: "How LabCash works" })).toBeVisible();
});

test("closes with its close button and on back navigation", async ({ page }) => {
  const header = new Header(page);
  await page.goto("/pricing");
  await header.openMobileMenu();
  await header.closeMenuButton.click();
  await expect(header.mobileMenu).toBeHidden();

  await header.openMobileMenu();
  await header.mobileMenu.getByRole("link", { name: "Winners" }).click();
  await expect(page).toHaveURL(/\/winners$/);
  await header.openMobileMenu();
  await expect(header.mobileMenu).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(header.mobileMenu).toBeHidden();
});

test("Escape and a click beside the panel close it, focus returns to the button, and the page behind is inert", async ({
  page,
}) => {
  const header = new Header(page);
  await page.goto("/pricing");
  const openButton = header.openMenuButton;
  const menu = header.mobileMenu;

  await header.openMobileMenu();
  await expect(menu).toBeVisible();
  await expect(openButton).toHaveAttribute("aria-expanded", "true");
  // Focus starts inside the menu, and the page behind cannot be reached or scrolled.
  await expect(header.closeMenuButton).toBeFocused();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    // Tabbing cycles through the menu (and the browser's own controls), never the page behind.
    expect(
      await page.evaluate(
        () => document.activeElement === document.body || Boolean(document.activeElement?.closest("dialog")),
      ),
    ).toBe(true);
  }
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(openButton).toBeFocused();
  await expect(openButton).toHaveAttribute("aria-expanded", "false");

  await header.openMobileMenu();
  await expect(menu).toBeVisible();
  // The backdrop covers the left of the screen; the panel is on the right.
  await page.mouse.click(20, 400);
  await expect(menu).toBeHidden();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");
});

test("the open menu has no axe violations in light and dark mode", async ({ page }) => {
  await page.goto("/");
  await new Header(page).openMobileMenu();
  await expectAccessibleInBothSchemes(page);
});

test.describe("signed in", () => {
  test.use({ storageState: storageStatePath("player") });

  test("shows the user's name and e-mail, Dashboard, My Entries, Credits and Sign out", async ({ page }) => {
    await page.goto("/");
    const menu = await new Header(page).openMobileMenu();
    await expect(menu).toContainText(demoUsers.player.name);
    await expect(menu).toContainText(demoUsers.player.email);
    for (const [name, href] of [
      ["Dashboard", "/account"],
      ["My Entries", "/account/entries"],
      ["Credits", "/account/credits"],
    ]) {
      await expect(menu.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    // Signing out is a button posting the sign-out form, not a link (a GET of /logout only asks).
    await expect(menu.getByRole("button", { name: "Sign out" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Sign out" })).toHaveCount(0);
    await expect(menu.getByRole("link", { name: "Sign in" })).toHaveCount(0);
    await menu.getByRole("link", { name: "My Entries" }).click();
    await expect(page).toHaveURL(/\/account\/entries$/);
    await expect(menu).toBeHidden();
  });
});
