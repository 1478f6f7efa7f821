import { expect, type Locator } from "@playwright/test";
import { PageObject } from "./page-object";

/** The site header on every page: main links, sign-in links, the avatar menu and, on phones, the menu dialog. */
export class Header extends PageObject {
  readonly banner = this.page.getByRole("banner");
  readonly mainNav = this.banner.getByRole("navigation", { name: "Main" });
  readonly signInLink = this.banner.getByRole("link", { name: "Sign in" });
  readonly signUpLink = this.banner.getByRole("link", { name: "Sign up" });
  /** The avatar menu once open. */
  readonly accountMenu = this.page.getByRole("menu");
  readonly openMenuButton = this.page.getByRole("button", { name: "Open menu" });
  readonly closeMenuButton = this.page.getByRole("button", { name: "Close menu" });
  /** The phone-sized menu dialog. */
  readonly mobileMenu = this.page.getByRole("dialog", { name: "Menu" });

  /** The avatar button, announced with the user's name (any user's when no name is given). */
  accountMenuButton(name?: string): Locator {
    return this.banner.getByRole("button", { name: name ? `Account menu for ${name}` : /^Account menu/ });
  }

  /** The bell, a link to /account/notifications named with the unread count ("Notifications, 2 unread"). */
  bell(): Locator {
    return this.banner.getByRole("link", { name: /^Notifications/ });
  }

  /** The colour-mode button (it opens the Light / Dark / System menu), named for the current choice. */
  themeToggle(): Locator {
    return this.page.getByRole("button", { name: /^Colour mode/ });
  }

  /** Chooses light, dark or system from the colour-mode menu ("Switch to light mode", "System (dark)"…). */
  async chooseTheme(choice: "Light" | "Dark" | "System") {
    const menu = this.page.getByRole("menu", { name: "Colour mode" });
    await expect(this.themeToggle()).toBeEnabled();
    await clickUntilShown(this.themeToggle(), menu);
    const name = choice === "System" ? /^System/ : `Switch to ${choice.toLowerCase()} mode`;
    await menu.getByRole("menuitemradio", { name }).click();
    await expect(menu).toBeHidden();
  }

  async openAccountMenu(name: string): Promise<Locator> {
    await clickUntilShown(this.accountMenuButton(name), this.accountMenu);
    return this.accountMenu;
  }

  async openMobileMenu(): Promise<Locator> {
    await clickUntilShown(this.openMenuButton, this.mobileMenu);
    return this.mobileMenu;
  }
}

/**
 * Clicks `button` until `menu` shows. The server renders the button before React has hydrated it
 * (the avatar menu even has its own chunk), and a click before that does nothing.
 */
async function clickUntilShown(button: Locator, menu: Locator) {
  await expect(async () => {
    if (!(await menu.isVisible())) await button.click();
    await expect(menu).toBeVisible({ timeout: 1_000 });
  }).toPass(); // as long as hydration takes: the test's time bounds it
}
