import { expect, type Locator, type Page } from "@playwright/test";
import { Header } from "./header";

/** /labspinner/verify: the player's spins recomputed in the browser, a by-hand check and their seed pairs. */
export class LabSpinnerVerifyPage {
  readonly heading: Locator;
  readonly signInLink: Locator;
  readonly spins: Locator;
  /** The live summary ("2 of 2 spins verified"). */
  readonly summary: Locator;
  readonly table: Locator;

  readonly byHand: Locator;
  readonly serverSeed: Locator;
  readonly clientSeed: Locator;
  readonly nonce: Locator;
  readonly wheelVersion: Locator;
  readonly compute: Locator;
  readonly byHandResult: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Verify your spins", level: 1 });
    this.signInLink = page.getByRole("main").getByRole("link", { name: "Sign in" });
    this.spins = page.getByRole("region", { name: "Your spins" });
    this.summary = this.spins.getByRole("status");
    this.table = this.spins.getByRole("table");

    this.byHand = page.getByRole("region", { name: "Check a spin by hand" });
    this.serverSeed = this.byHand.getByLabel("Server seed");
    this.clientSeed = this.byHand.getByLabel("Client seed");
    this.nonce = this.byHand.getByLabel("Nonce");
    this.wheelVersion = this.byHand.getByLabel("Wheel version");
    this.compute = this.byHand.getByRole("button", { name: "Compute the segment" });
    this.byHandResult = this.byHand.getByRole("status");
  }

  /** Opens the page and waits for hydration (the header's theme button is enabled once it has). */
  async goto() {
    await this.page.goto("/labspinner/verify");
    await expect(new Header(this.page).themeToggle()).toBeEnabled();
  }

  /** The table's spin rows (the header row left out), newest first. */
  spinRows(): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("rowheader") });
  }

  /** A cell of a spin row by its column header. */
  async cell(row: Locator, column: string): Promise<Locator> {
    const headers = await this.table.getByRole("columnheader").allTextContents();
    const index = headers.indexOf(column);
    if (index < 0) throw new Error(`No column "${column}" in ${headers.join(", ")}`);
    // The row header is the first column; the data cells follow it.
    return index === 0 ? row.getByRole("rowheader") : row.getByRole("cell").nth(index - 1);
  }

  async checkByHand(fields: { serverSeed: string; clientSeed: string; nonce: number }) {
    await this.serverSeed.fill(fields.serverSeed);
    await this.clientSeed.fill(fields.clientSeed);
    await this.nonce.fill(String(fields.nonce));
    await this.compute.click();
  }
}
