import { expect, type Locator } from "@playwright/test";
import { Header } from "./header";
import { PageObject } from "./page-object";

/** /labspinner/verify: the player's spins recomputed in the browser, a by-hand check and their seed pairs. */
export class LabSpinnerVerifyPage extends PageObject {
  readonly heading = this.page.getByRole("heading", { name: "Verify your spins", level: 1 });
  readonly signInLink = this.page.getByRole("main").getByRole("link", { name: "Sign in" });
  readonly spins = this.page.getByRole("region", { name: "Your spins" });
  /** The live summary ("2 of 2 spins verified"). */
  readonly summary = this.spins.getByRole("status");
  readonly table = this.spins.getByRole("table");

  readonly byHand = this.page.getByRole("region", { name: "Check a spin by hand" });
  readonly serverSeed = this.byHand.getByLabel("Server seed");
  readonly clientSeed = this.byHand.getByLabel("Client seed");
  readonly nonce = this.byHand.getByLabel("Nonce");
  readonly wheelVersion = this.byHand.getByLabel("Wheel version");
  readonly compute = this.byHand.getByRole("button", { name: "Compute the segment" });
  readonly byHandResult = this.byHand.getByRole("status");

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
