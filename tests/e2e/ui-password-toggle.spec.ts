import type { Page } from "@playwright/test";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { Header } from "./support/pages/header";

// The password fields' "Show password" / "Hide password" toggle (spec §9) on the two public forms.
const forms = [
  { path: "/login", heading: "Sign in" },
  { path: "/signup", heading: "Create your account" },
] as const;

/** Opens the form once React has hydrated it (the theme switch is enabled only then). */
async function openForm(page: Page, path: string) {
  await page.goto(path);
  await expect(new Header(page).themeToggle()).toBeEnabled();
  const password = page.getByLabel("Password", { exact: true });
  return {
    password,
    show: page.getByRole("button", { name: "Show password" }),
    hide: page.getByRole("button", { name: "Hide password" }),
  };
}

for (const { path, heading } of forms) {
  test.describe(path, () => {
    test("the toggle shows and hides the password without leaving the field's label", async ({ page }) => {
      const { password, show, hide } = await openForm(page, path);
      // The toggle is named by its text, not by a label: "Password" still finds the input alone.
      await expect(page.getByLabel("Password", { exact: true })).toHaveCount(1);
      await expect(show).toHaveAttribute("type", "button");
      await expect(show).toHaveAttribute("aria-controls", (await password.getAttribute("id"))!);

      await password.fill("Secret-typing-1");
      await expect(password).toHaveAttribute("type", "password");
      await show.click();
      await expect(password).toHaveAttribute("type", "text");
      await expect(password).toHaveValue("Secret-typing-1");
      await expect(hide).toBeFocused();
      await expect(show).toHaveCount(0);

      await hide.click();
      await expect(password).toHaveAttribute("type", "password");
      await expect(password).toHaveValue("Secret-typing-1");
      await expect(show).toBeFocused();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    });

    test("the toggle works from the keyboard and keeps focus", async ({ page }) => {
      const { password, show, hide } = await openForm(page, path);
      await password.fill("Keyboard-only-2");
      await password.press("Tab");
      await expect(show).toBeFocused();

      await page.keyboard.press("Enter");
      await expect(password).toHaveAttribute("type", "text");
      await expect(hide).toBeFocused();

      await page.keyboard.press("Space");
      await expect(password).toHaveAttribute("type", "password");
      await expect(show).toBeFocused();
      await expect(password).toHaveValue("Keyboard-only-2");
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    });

    test(`the form has no axe violations with the password shown or hidden in light and dark mode`, async ({
      page,
    }) => {
      const { password, show, hide } = await openForm(page, path);
      await password.fill("Axe-checked-3");
      await expectAccessibleInBothSchemes(page);
      await show.click();
      await expect(hide).toBeFocused();
      await expectAccessibleInBothSchemes(page);
    });
  });
}
