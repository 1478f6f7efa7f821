import { expect, type Locator, type Page } from "@playwright/test";
import { Header } from "./header";
import { PageObject } from "./page-object";

/** /account: the dashboard. */
export class DashboardPage extends PageObject {
  readonly creditBalance = this.page.getByTestId("credit-balance");
  // The invite card's copy button keeps an empty live region of its own: the account's status is the one that speaks.
  readonly status = this.page.getByRole("main").getByRole("status").filter({ hasText: /\S/ });

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
export class ProfilePage extends PageObject {
  readonly heading = this.page.getByRole("heading", { name: "Profile settings" });
  readonly name = this.page.getByLabel("Name", { exact: true });
  readonly town = this.page.getByLabel("Town (optional)");
  /** The marketing section's sentence: "Consented: …" or "Not consented: …". */
  readonly marketingChoice = this.page
    .getByRole("region", { name: "Marketing e-mails" })
    .getByText(/^(Consented|Not consented):/);
  readonly giveMarketing = this.page.getByRole("button", { name: "E-mail me about new competitions and results" });
  readonly stopMarketing = this.page.getByRole("button", { name: "Stop marketing e-mails" });
  readonly saveProfile = this.page.getByRole("button", { name: "Save profile" });
  readonly currentPassword = this.page.getByLabel("Current password", { exact: true });
  readonly newPassword = this.page.getByLabel("New password", { exact: true });
  readonly changePassword = this.page.getByRole("button", { name: "Change password" });
  readonly alert = this.page.getByRole("main").getByRole("alert");
  // The invite section's copy button keeps an empty live region of its own: the form's status is the one that speaks.
  readonly status = this.page.getByRole("main").getByRole("status").filter({ hasText: /\S/ });
  readonly initialsOnly = this.page.getByLabel("Show me as initials only if I win");
  readonly saveInitialsOnly = this.page.getByRole("button", { name: "Save winner name choice" });
  readonly emailNotifications = this.page.getByLabel("E-mail me my instant wins as well as showing them here");
  readonly saveEmailNotifications = this.page.getByRole("button", { name: "Save notification choice" });

  async goto() {
    await this.page.goto("/account/profile");
  }
}

/** /account/responsible-play. */
export class ResponsiblePlayPage extends PageObject {
  readonly summary = this.page.getByTestId("protection-summary");
  readonly state = this.page.getByTestId("protection-state");
  readonly limitChoice = this.page.getByLabel("A limit each calendar month");
  readonly noLimitChoice = this.page.getByLabel("No limit");
  readonly limitAmount = this.page.getByLabel("Limit in pounds");
  readonly saveLimit = this.page.getByRole("button", { name: "Save limit" });
  readonly formStatus = this.page.getByRole("main").getByRole("status");
  readonly takeBreak = this.page.getByRole("button", { name: "Take a break…" });
  readonly excludeMyself = this.page.getByRole("button", { name: "Exclude myself…" });
  readonly closeAccount = this.page.getByRole("button", { name: "Close my account…" });
  readonly dialog = this.page.getByRole("dialog");

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
export class CreditsPage extends PageObject {
  private readonly pages = this.page.getByRole("navigation", { name: "Pages of history" });
  readonly kind = this.page.getByLabel("Kind");
  readonly month = this.page.getByLabel("Month");
  readonly show = this.page.getByRole("button", { name: "Show" });
  readonly count = this.page.getByTestId("ledger-count");
  readonly net = this.page.getByTestId("ledger-net");
  readonly rows = this.page.getByRole("main").getByRole("table").locator("tbody tr");
  readonly older = this.pages.getByRole("link", { name: "Older" });
  readonly newer = this.pages.getByRole("link", { name: "Newer" });
  readonly download = this.page.getByRole("link", { name: "Download CSV" });
  readonly notice = this.page.getByRole("main").getByRole("status");

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
