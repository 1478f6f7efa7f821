import { expect, test } from "@playwright/test";
import { demoUsers, storageStatePath } from "./support/users";

test.use({ viewport: { width: 390, height: 844 } });

test("signed out: Sign in and Sign up, and it closes when a link is followed", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
  await expect(menu.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/signup");
  await menu.getByRole("link", { name: "How it works" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(menu).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: "How LabCash works" })).toBeVisible();
});

test("closes with its close button and on back navigation", async ({ page }) => {
  await page.goto("/pricing");
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("button", { name: "Close menu" }).click();
  await expect(page.getByRole("dialog", { name: "Menu" })).toBeHidden();

  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Winners" }).click();
  await expect(page).toHaveURL(/\/winners$/);
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByRole("dialog", { name: "Menu" })).toBeHidden();
});

test.describe("signed in", () => {
  test.use({ storageState: storageStatePath("player") });

  test("shows the user's name and e-mail, Dashboard, My Entries, Credits and Sign out", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu).toContainText(demoUsers.player.name);
    await expect(menu).toContainText(demoUsers.player.email);
    for (const [name, href] of [
      ["Dashboard", "/account"],
      ["My Entries", "/account/entries"],
      ["Credits", "/account/credits"],
      ["Sign out", "/logout"],
    ]) {
      await expect(menu.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    await expect(menu.getByRole("link", { name: "Sign in" })).toHaveCount(0);
    await menu.getByRole("link", { name: "My Entries" }).click();
    await expect(page).toHaveURL(/\/account\/entries$/);
    await expect(menu).toBeHidden();
  });
});
