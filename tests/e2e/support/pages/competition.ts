import { expect, type Locator } from "@playwright/test";
import { Header } from "./header";
import { PageObject } from "./page-object";

/** /competitions/<slug>: the prize, its dates, the two ways to enter, how the draw works, the player's tickets and the result. */
export class CompetitionPage extends PageObject {
  readonly ticketsSold = this.page.getByRole("progressbar", { name: "Tickets sold" });
  /** The four dates: opens, closes, postal deadline, draw. */
  readonly dates = this.page.getByRole("region", { name: /^Dates/ });
  /** The "How this draw works" box. */
  readonly howItWorks = this.page.getByRole("region", { name: "How this draw works" });
  /** The link to the public entry list, there once online sales have ended. */
  readonly entryListLink = this.page.getByRole("link", { name: "Entry list", exact: true });
  readonly seedCommitment = this.page.getByTestId("seed-commitment");
  /** The paid entry, "Enter online". */
  readonly entry = new EntryPanel(this.page.getByRole("article", { name: "Enter online" }));
  readonly postalEntry = this.page.getByRole("article", { name: "Enter free by post" });
  /** "Your tickets": only there for a signed-in player. */
  readonly yourTickets = this.page.getByRole("region", { name: "Your tickets" });
  readonly yourTicketNumbers = this.page.getByRole("list", { name: "Your ticket numbers" }).getByRole("listitem");
  readonly winnerName = this.page.getByTestId("winner-name");
  readonly winningTicket = this.page.getByTestId("winning-ticket");
  /** "Instant wins": the prizes, the wins so far and, after the draw, the browser's check. */
  readonly instantWins = this.page.getByRole("region", { name: "Instant wins" });

  /** Opens the page and waits until React has hydrated it (the header's theme switch is enabled then), so the entry form responds. */
  async goto(competition: { path: string }) {
    await this.page.goto(competition.path);
    await expect(new Header(this.page).themeToggle()).toBeEnabled();
  }

  /** The value of one of the dates ("Opens", "Closes", "Postal deadline", "Draw"). */
  date(term: "Opens" | "Closes" | "Postal deadline" | "Draw"): Locator {
    return this.dates.locator(`dt:text-is("${term}") + dd`).locator("time");
  }

  /** The page's title, the competition's name. */
  heading(competition: { title: string }): Locator {
    return this.page.getByRole("heading", { level: 1, name: competition.title });
  }
}

/** The "Enter online" card: quantity, the skill question, the total, the buy button and its outcome. */
export class EntryPanel {
  readonly quantity: Locator;
  readonly quickPicks: Locator;
  readonly total: Locator;
  /** Any buy button, whatever the quantity: none when the player cannot enter. */
  readonly buyButtons: Locator;
  /** The purchase's success: ticket numbers and credit left. */
  readonly result: Locator;
  /** A refusal from the server. */
  readonly refusal: Locator;

  constructor(readonly root: Locator) {
    this.quantity = root.getByLabel("Number of tickets");
    this.quickPicks = root.getByRole("group", { name: "Quick picks" });
    this.total = root.getByTestId("entry-total");
    this.buyButtons = root.getByRole("button", { name: /^Buy/ });
    this.result = root.getByRole("status");
    this.refusal = root.getByRole("alert");
  }

  /** The buy button as it reads for `quantity` tickets ("Buy 1 ticket", "Buy 5 tickets"). */
  buyButton(quantity: number): Locator {
    return this.root.getByRole("button", { name: `Buy ${quantity} ${quantity === 1 ? "ticket" : "tickets"}` });
  }

  async pickQuick(label: string) {
    await this.quickPicks.getByRole("button", { name: label, exact: true }).click();
  }

  async answer(option: string) {
    await this.root.getByRole("radio", { name: option }).check();
  }

  /** Types the quantity, answers (unless `answer` is null) and presses the buy button. */
  async buy(quantity: number, answer: string | null = "Yellow") {
    await this.quantity.fill(String(quantity));
    if (answer !== null) await this.answer(answer);
    await this.buyButton(quantity).click();
  }
}
