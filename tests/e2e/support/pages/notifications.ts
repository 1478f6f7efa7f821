import type { Locator, Page } from "@playwright/test";

/** /account/notifications: the unread count, the list (newest first), marking read, and the push settings. */
export class NotificationsPage {
  readonly heading: Locator;
  /** "2 unread notifications". */
  readonly unreadCount: Locator;
  readonly list: Locator;
  readonly markAllRead: Locator;
  /** The push section's kinds, and their save button. */
  readonly pushKinds: Locator;
  readonly savePushChoices: Locator;

  constructor(private readonly page: Page) {
    const main = page.getByRole("main");
    this.heading = main.getByRole("heading", { level: 1, name: "Notifications" });
    this.unreadCount = main.getByText(/^\d+ unread notifications?$/);
    this.list = main.getByRole("list", { name: "Notifications" });
    this.markAllRead = main.getByRole("button", { name: "Mark all read" });
    this.pushKinds = main.getByRole("group", { name: "Push me about" });
    this.savePushChoices = main.getByRole("button", { name: "Save push choices" });
  }

  async goto() {
    await this.page.goto("/account/notifications");
  }

  /** One notification, by its title (a link to what it is about). */
  notification(title: string): Locator {
    return this.list.getByRole("listitem").filter({ has: this.page.getByRole("link", { name: title, exact: true }) });
  }
}

/** "Did I win?" on /winners (with a choice of drawn competitions) and on each competition's page. */
export class TicketCheck {
  readonly form: Locator;
  readonly competition: Locator;
  readonly number: Locator;
  /** The answer, read out when it comes. */
  readonly answer: Locator;

  constructor(page: Page) {
    this.form = page.getByRole("form", { name: "Did I win?" });
    this.competition = this.form.getByLabel("Competition");
    this.number = this.form.getByLabel("Ticket number");
    this.answer = this.form.getByRole("status");
  }

  async check(number: string) {
    await this.number.fill(number);
    await this.form.getByRole("button", { name: "Check ticket" }).click();
  }
}
