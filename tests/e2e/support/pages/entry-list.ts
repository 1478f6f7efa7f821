import type { Locator } from "@playwright/test";
import { PageObject } from "./page-object";

/** /competitions/<slug>/entries: the public entry list, its search, pages and downloads. */
export class EntryListPage extends PageObject {
  private readonly pages = this.page.getByRole("navigation", { name: "Entry list pages" });
  readonly search = this.page.getByLabel("Find a ticket by number");
  readonly find = this.page.getByRole("button", { name: "Find" });
  readonly table = this.page.getByRole("table");
  /** The data rows of the table (the header row excluded). */
  readonly rows = this.table.getByRole("row").filter({ has: this.page.getByRole("cell") });
  readonly previous = this.pages.getByRole("link", { name: "Previous" });
  readonly next = this.pages.getByRole("link", { name: "Next" });
  readonly ticketListDownload = this.page.getByRole("link", { name: "Ticket list (CSV)" });
  readonly entrantsDownload = this.page.getByRole("link", { name: "Entrants (CSV)" });

  async goto(competition: { slug: string }, query = "") {
    await this.page.goto(`/competitions/${competition.slug}/entries${query}`);
  }

  heading(competition: { title: string }): Locator {
    return this.page.getByRole("heading", { level: 1, name: `Entry list: ${competition.title}` });
  }

  /** The row of ticket `n`. */
  row(n: number): Locator {
    return this.rows.filter({ has: this.page.getByRole("cell", { name: `#${n}`, exact: true }) });
  }

  async findTicket(input: string) {
    await this.search.fill(input);
    await this.find.click();
  }
}
