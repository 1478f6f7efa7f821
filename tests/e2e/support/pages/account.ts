import type { Locator, Page } from "@playwright/test";

/** /account: the dashboard. */
export class DashboardPage {
  readonly creditBalance: Locator;
  readonly status: Locator;

  constructor(private readonly page: Page) {
    this.creditBalance = page.getByTestId("credit-balance");
    this.status = page.getByRole("main").getByRole("status");
  }

  async goto() {
    await this.page.goto("/account");
  }

  greeting(name: string): Locator {
    return this.page.getByRole("heading", { name: `Hello, ${name}` });
  }
}

/** /account/entries: the player's entries, one article per competition. */
export class MyEntriesPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/account/entries");
  }

  entry(competition: { title: string }): Locator {
    return this.page.getByRole("article", { name: competition.title });
  }
}

/** /account/profile: the profile form and the change-password form. */
export class ProfilePage {
  readonly heading: Locator;
  readonly name: Locator;
  readonly town: Locator;
  readonly emailNotifications: Locator;
  readonly saveProfile: Locator;
  readonly newPassword: Locator;
  readonly changePassword: Locator;
  readonly alert: Locator;
  readonly status: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Profile settings" });
    this.name = page.getByLabel("Name", { exact: true });
    this.town = page.getByLabel("Town (optional)");
    this.emailNotifications = page.getByLabel("E-mail me about new competitions and results");
    this.saveProfile = page.getByRole("button", { name: "Save profile" });
    this.newPassword = page.getByLabel("New password", { exact: true });
    this.changePassword = page.getByRole("button", { name: "Change password" });
    this.alert = page.getByRole("main").getByRole("alert");
    this.status = page.getByRole("main").getByRole("status");
  }

  async goto() {
    await this.page.goto("/account/profile");
  }
}
