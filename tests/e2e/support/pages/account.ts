import { expect, type Locator, type Page } from "@playwright/test";
import { Header } from "./header";

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

  /** The winner's "Your prize" panel inside a competition's entry. */
  prize(competition: { title: string }): Locator {
    return this.entry(competition).getByRole("group", { name: "Your prize" });
  }
}

/** /account/profile: the profile form, the marketing choice and the change-password form. */
export class ProfilePage {
  readonly heading: Locator;
  readonly name: Locator;
  readonly town: Locator;
  /** The marketing section's sentence: "Consented: …" or "Not consented: …". */
  readonly marketingChoice: Locator;
  readonly giveMarketing: Locator;
  readonly stopMarketing: Locator;
  readonly saveProfile: Locator;
  readonly currentPassword: Locator;
  readonly newPassword: Locator;
  readonly changePassword: Locator;
  readonly alert: Locator;
  readonly status: Locator;
  readonly initialsOnly: Locator;
  readonly saveInitialsOnly: Locator;
  readonly emailNotifications: Locator;
  readonly saveEmailNotifications: Locator;

  constructor(private readonly page: Page) {
    this.initialsOnly = page.getByLabel("Show me as initials only if I win");
    this.saveInitialsOnly = page.getByRole("button", { name: "Save winner name choice" });
    this.emailNotifications = page.getByLabel("E-mail me my instant wins as well as showing them here");
    this.saveEmailNotifications = page.getByRole("button", { name: "Save notification choice" });
    this.heading = page.getByRole("heading", { name: "Profile settings" });
    this.name = page.getByLabel("Name", { exact: true });
    this.town = page.getByLabel("Town (optional)");
    this.marketingChoice = page
      .getByRole("region", { name: "Marketing e-mails" })
      .getByText(/^(Consented|Not consented):/);
    this.giveMarketing = page.getByRole("button", { name: "E-mail me about new competitions and results" });
    this.stopMarketing = page.getByRole("button", { name: "Stop marketing e-mails" });
    this.saveProfile = page.getByRole("button", { name: "Save profile" });
    this.currentPassword = page.getByLabel("Current password", { exact: true });
    this.newPassword = page.getByLabel("New password", { exact: true });
    this.changePassword = page.getByRole("button", { name: "Change password" });
    this.alert = page.getByRole("main").getByRole("alert");
    // The invite section's copy button keeps an empty live region of its own: the form's status is the one that speaks.
    this.status = page.getByRole("main").getByRole("status").filter({ hasText: /\S/ });
  }

  async goto() {
    await this.page.goto("/account/profile");
  }
}

/** /account/responsible-play. */
export class ResponsiblePlayPage {
  readonly summary: Locator;
  readonly state: Locator;
  readonly limitChoice: Locator;
  readonly noLimitChoice: Locator;
  readonly limitAmount: Locator;
  readonly saveLimit: Locator;
  readonly formStatus: Locator;
  readonly takeBreak: Locator;
  readonly excludeMyself: Locator;
  readonly closeAccount: Locator;
  readonly dialog: Locator;

  constructor(private readonly page: Page) {
    this.summary = page.getByTestId("protection-summary");
    this.state = page.getByTestId("protection-state");
    this.limitChoice = page.getByLabel("A limit each calendar month");
    this.noLimitChoice = page.getByLabel("No limit");
    this.limitAmount = page.getByLabel("Limit in pounds");
    this.saveLimit = page.getByRole("button", { name: "Save limit" });
    this.formStatus = page.getByRole("main").getByRole("status");
    this.takeBreak = page.getByRole("button", { name: "Take a break…" });
    this.excludeMyself = page.getByRole("button", { name: "Exclude myself…" });
    this.closeAccount = page.getByRole("button", { name: "Close my account…" });
    this.dialog = page.getByRole("dialog");
  }

  /** Opens the page and waits for hydration, so the forms and dialogs respond to the first click. */
  async goto() {
    await this.page.goto("/account/responsible-play");
    await expect(new Header(this.page).accountMenuButton()).toBeEnabled();
  }

  async setLimit(pounds: string) {
    await this.limitChoice.check();
    await this.limitAmount.fill(pounds);
    await this.saveLimit.click();
  }

  /** A summary line's value ("Monthly limit" → "£40.00"). */
  value(term: string): Locator {
    return this.summary.locator(`dt:text-is("${term}") + dd`);
  }
}

/** The "Set a monthly limit" invitation (dashboard, /pending-approval, /credit). */
export class LimitInvitation {
  readonly root: Locator;
  readonly setLimit: Locator;
  readonly notNow: Locator;

  constructor(page: Page) {
    this.root = page.getByRole("region", { name: "Set a monthly limit" });
    this.setLimit = this.root.getByRole("link", { name: "Set a limit" });
    this.notNow = this.root.getByRole("button", { name: "Not now" });
  }
}

/** /account/credits: the balance, the filter form, the totals, the table and its pages. */
export class CreditsPage {
  readonly kind: Locator;
  readonly month: Locator;
  readonly show: Locator;
  readonly count: Locator;
  readonly net: Locator;
  readonly rows: Locator;
  readonly older: Locator;
  readonly newer: Locator;
  readonly download: Locator;
  readonly notice: Locator;

  constructor(private readonly page: Page) {
    this.kind = page.getByLabel("Kind");
    this.month = page.getByLabel("Month");
    this.show = page.getByRole("button", { name: "Show" });
    this.count = page.getByTestId("ledger-count");
    this.net = page.getByTestId("ledger-net");
    this.rows = page.getByRole("main").getByRole("table").locator("tbody tr");
    const pages = page.getByRole("navigation", { name: "Pages of history" });
    this.older = pages.getByRole("link", { name: "Older" });
    this.newer = pages.getByRole("link", { name: "Newer" });
    this.download = page.getByRole("link", { name: "Download CSV" });
    this.notice = page.getByRole("main").getByRole("status");
  }

  async goto(query = "") {
    await this.page.goto(`/account/credits${query}`);
  }

  /** The table as the player reads it: kind, amount, balance after, reference, details (the date's format is local). */
  async tableRows(): Promise<string[][]> {
    return this.rows.evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll("td")].slice(1).map((cell) => cell.textContent?.trim() ?? "")),
    );
  }
}

/** /account/prizes: the winner's prizes, one article per prize, each with its "Claim your prize" form. */
export class MyPrizesPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/account/prizes");
  }

  prize(competition: { title: string }): Locator {
    return this.page.getByRole("article", { name: competition.title });
  }

  claimForm(competition: { title: string }): Locator {
    return this.page.getByRole("form", { name: `Claim your prize: ${competition.title}` });
  }
}
