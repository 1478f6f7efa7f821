import { expect, type Locator, type Page } from "@playwright/test";
import { Header } from "./header";

/** /admin/approvals: accounts waiting for an admin's decision. */
export class ApprovalsPage {
  readonly status: Locator;
  /** The error when Reject is pressed without a reason. */
  readonly reasonRequired: Locator;

  constructor(private readonly page: Page) {
    this.status = page.getByRole("status");
    this.reasonRequired = page.getByText("Give a reason of at least 3 characters").first();
  }

  async goto() {
    await this.page.goto("/admin/approvals");
  }

  /** The waiting account, found by its e-mail. */
  pending(email: string): Locator {
    return this.page.getByText(email);
  }

  async approve(name: string) {
    await this.page.getByRole("button", { name: `Approve ${name}` }).click();
  }

  /** The confirmation Reject opens, named for the account it rejects. */
  rejectDialog(name: string): Locator {
    return this.page.getByRole("alertdialog", { name: new RegExp(`^Reject ${name} `) });
  }

  /** Opens Reject's confirmation (unless it is open), types `reason` unless it is left out, and confirms. */
  async reject(name: string, reason?: string) {
    const dialog = this.rejectDialog(name);
    if (!(await dialog.isVisible())) await this.page.getByRole("button", { name: `Reject ${name}…` }).click();
    if (reason !== undefined) await dialog.getByLabel(`Reason for rejecting ${name}`).fill(reason);
    await dialog.getByRole("button", { name: `Reject ${name}`, exact: true }).click();
  }
}

/** The admin area's frame: the sidebar (collapsible from md up, a menu on phones) and the breadcrumbs. */
export class AdminShell {
  /** The list of admin sections. */
  readonly sections: Locator;
  readonly collapseButton: Locator;
  readonly expandButton: Locator;
  /** The phone-sized button that shows and hides the sections. */
  readonly menuButton: Locator;
  readonly breadcrumbs: Locator;

  constructor(private readonly page: Page) {
    this.sections = page.getByRole("navigation", { name: "Admin", exact: true });
    this.collapseButton = page.getByRole("button", { name: "Collapse sidebar" });
    this.expandButton = page.getByRole("button", { name: "Expand sidebar" });
    this.menuButton = page.getByRole("button", { name: "Admin menu" });
    this.breadcrumbs = page.getByRole("navigation", { name: "Breadcrumb" });
  }

  section(name: string): Locator {
    return this.sections.getByRole("link", { name, exact: true });
  }

  /** The last crumb: the page itself. */
  currentCrumb(): Locator {
    return this.breadcrumbs.locator('[aria-current="page"]');
  }
}

/** /admin: the figures now and the last 30 days, each chart with its table. */
export class AdminDashboardPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/admin");
  }

  /** The number under a figure's label ("Players", "Pending approvals", …). */
  figure(label: string): Locator {
    return this.page.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]");
  }

  /** A chart, by its heading ("Sign-ups", "Tickets sold", "Credit sold"). */
  chart(title: string): Locator {
    return this.page.getByRole("figure", { name: title });
  }

  /** Opens a chart's table alternative and returns the table. */
  async table(title: string): Promise<Locator> {
    await this.chart(title).getByText(`Show ${title.toLowerCase()} as a table`).click();
    return this.chart(title).getByRole("table", { name: `${title} per day` });
  }
}

/** /admin/activity: the audit log with its filter, pages and CSV. */
export class ActivityPage {
  readonly filter: Locator;
  readonly table: Locator;
  readonly older: Locator;
  readonly newer: Locator;
  readonly downloadCsv: Locator;

  constructor(private readonly page: Page) {
    this.filter = page.getByRole("search", { name: "Filter the activity" });
    this.table = page.getByRole("table", { name: "Activity, newest first" });
    this.older = page.getByRole("navigation", { name: "Pages of activity" }).getByRole("link", { name: "Older" });
    this.newer = page.getByRole("navigation", { name: "Pages of activity" }).getByRole("link", { name: "Newer" });
    this.downloadCsv = page.getByRole("link", { name: "Download CSV" });
  }

  async goto(query = "") {
    await this.page.goto(`/admin/activity${query}`);
  }

  /** Fills in the filter's fields that are given and presses Show. */
  async filterBy(fields: { actor?: string; kind?: string; subject?: string; from?: string; to?: string }) {
    if (fields.actor !== undefined) await this.filter.getByLabel("Actor", { exact: true }).fill(fields.actor);
    if (fields.kind !== undefined) await this.filter.getByLabel("Kind", { exact: true }).selectOption(fields.kind);
    if (fields.subject !== undefined) await this.filter.getByLabel("Subject", { exact: true }).fill(fields.subject);
    if (fields.from !== undefined) await this.filter.getByLabel("From", { exact: true }).fill(fields.from);
    if (fields.to !== undefined) await this.filter.getByLabel("To", { exact: true }).fill(fields.to);
    await this.filter.getByRole("button", { name: "Show" }).click();
  }

  /** The table's body rows. */
  rows(): Locator {
    return this.table.locator("tbody tr");
  }
}

/** /admin/settings: every operator setting in one form, saved all or nothing. */
export class AdminSettingsPage {
  readonly form: Locator;
  readonly save: Locator;
  /** The line under the form: "Saved: …" or the refusal. */
  readonly status: Locator;
  readonly alert: Locator;

  constructor(private readonly page: Page) {
    this.form = page.getByRole("form", { name: "Settings" });
    this.save = this.form.getByRole("button", { name: "Save settings" });
    this.status = this.form.getByRole("status");
    this.alert = this.form.getByRole("alert");
  }

  /** Opens the page once React has hydrated it (the account menu is enabled then), so typing is kept. */
  async goto() {
    await this.page.goto("/admin/settings");
    await expect(new Header(this.page).accountMenuButton()).toBeEnabled();
  }

  field(label: string | RegExp): Locator {
    return this.form.getByLabel(label, { exact: typeof label === "string" });
  }

  /** A group of settings ("Money", "Free postal entry", "Complaints" …). */
  group(name: string): Locator {
    return this.form.getByRole("group", { name, exact: true });
  }
}

/** /admin/complaints: the queue, filtered by status, and one complaint's page. */
export class AdminComplaintsPage {
  readonly table: Locator;
  readonly filter: Locator;

  constructor(private readonly page: Page) {
    this.table = page.getByRole("table", { name: /^Complaints/ });
    this.filter = page.getByRole("navigation", { name: "Filter by status" });
  }

  async goto(query = "") {
    await this.page.goto(`/admin/complaints${query}`);
  }

  /** The queue's row for a complaint, by its reference. */
  row(reference: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("link", { name: reference, exact: true }) });
  }

  /** Opens a complaint from the queue and waits for its forms to be live. */
  async open(reference: string) {
    await this.table.getByRole("link", { name: reference, exact: true }).click();
    await expect(this.page.getByRole("heading", { level: 1, name: `Complaint ${reference}` })).toBeVisible();
    await expect(new Header(this.page).accountMenuButton()).toBeEnabled();
  }

  acknowledgeForm(reference: string): Locator {
    return this.page.getByRole("form", { name: `Acknowledge ${reference}` });
  }

  answerForm(reference: string): Locator {
    return this.page.getByRole("form", { name: `Answer ${reference}` });
  }
}
