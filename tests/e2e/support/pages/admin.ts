import { expect, type Locator, type Page } from "@playwright/test";
import { Header } from "./header";
import { PageObject } from "./page-object";

/** /admin/approvals: accounts waiting for an admin's decision. */
export class ApprovalsPage extends PageObject {
  readonly status = this.page.getByRole("status");
  /** The error when Reject is pressed without a reason. */
  readonly reasonRequired = this.page.getByText("Give a reason of at least 3 characters").first();

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
export class AdminShell extends PageObject {
  /** The list of admin sections. */
  readonly sections = this.page.getByRole("navigation", { name: "Admin", exact: true });
  readonly collapseButton = this.page.getByRole("button", { name: "Collapse sidebar" });
  readonly expandButton = this.page.getByRole("button", { name: "Expand sidebar" });
  /** The phone-sized button that shows and hides the sections. */
  readonly menuButton = this.page.getByRole("button", { name: "Admin menu" });
  readonly breadcrumbs = this.page.getByRole("navigation", { name: "Breadcrumb" });

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
export class ActivityPage extends PageObject {
  readonly filter = this.page.getByRole("search", { name: "Filter the activity" });
  readonly table = this.page.getByRole("table", { name: "Activity, newest first" });
  readonly older = this.page
    .getByRole("navigation", { name: "Pages of activity" })
    .getByRole("link", { name: "Older" });
  readonly newer = this.page
    .getByRole("navigation", { name: "Pages of activity" })
    .getByRole("link", { name: "Newer" });
  readonly downloadCsv = this.page.getByRole("link", { name: "Download CSV" });

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
export class AdminSettingsPage extends PageObject {
  readonly form = this.page.getByRole("form", { name: "Settings" });
  readonly save = this.form.getByRole("button", { name: "Save settings" });
  /** The line under the form: "Saved: …" or the refusal. */
  readonly status = this.form.getByRole("status");
  readonly alert = this.form.getByRole("alert");

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
export class AdminComplaintsPage extends PageObject {
  readonly table = this.page.getByRole("table", { name: /^Complaints/ });
  readonly filter = this.page.getByRole("navigation", { name: "Filter by status" });

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
