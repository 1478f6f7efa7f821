import type { Locator, Page } from "@playwright/test";
import { PageObject } from "./page-object";

/** /account/notifications: the unread count, the list (newest first), marking read, and the push settings. */
export class NotificationsPage extends PageObject {
  private readonly main = this.page.getByRole("main");
  readonly heading = this.main.getByRole("heading", { level: 1, name: "Notifications" });
  /** "2 unread notifications". */
  readonly unreadCount = this.main.getByText(/^\d+ unread notifications?$/);
  readonly list = this.main.getByRole("list", { name: "Notifications" });
  readonly markAllRead = this.main.getByRole("button", { name: "Mark all read" });
  /** The push section's kinds, and their save button. */
  readonly pushKinds = this.main.getByRole("group", { name: "Push me about" });
  readonly savePushChoices = this.main.getByRole("button", { name: "Save push choices" });

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
