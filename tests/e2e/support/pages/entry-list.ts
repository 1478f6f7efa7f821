import type { Locator, Page } from "@playwright/test";

/** /competitions/<slug>/entries: the public entry list, its search, pages and downloads. */
export class EntryListPage {
  readonly search: Locator;
  readonly find: Locator;
  readonly table: Locator;
  /** The data rows of the table (the header row excluded). */
  readonly rows: Locator;
  readonly previous: Locator;
  readonly next: Locator;
  readonly ticketListDownload: Locator;
  readonly entrantsDownload: Locator;

  constructor(private readonly page: Page) {
    this.search = page.getByLabel("Find a ticket by number");
    this.find = page.getByRole("button", { name: "Find" });
    this.table = page.getByRole("table");
    this.rows = this.table.getByRole("row").filter({ has: page.getByRole("cell") });
    const pages = page.getByRole("navigation", { name: "Entry list pages" });
    this.previous = pages.getByRole("link", { name: "Previous" });
    this.next = pages.getByRole("link", { name: "Next" });
    this.ticketListDownload = page.getByRole("link", { name: "Ticket list (CSV)" });
    this.entrantsDownload = page.getByRole("link", { name: "Entrants (CSV)" });
  }

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
