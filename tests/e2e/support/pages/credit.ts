import { expect } from "@playwright/test";
import { Header } from "./header";
import { PageObject } from "./page-object";

/** /credit: the amount, its live quote, "Continue". */
export class BuyCreditPage extends PageObject {
  readonly amount = this.page.getByLabel("Amount");
  readonly creditAdded = this.page.getByTestId("quote-credit");
  readonly continueButton = this.page.getByRole("button", { name: "Continue" });

  /** Opens the page and waits for React, so typing reaches the live quote. */
  async goto() {
    await this.page.goto("/credit");
    await expect(new Header(this.page).themeToggle()).toBeEnabled();
  }

  /** Types an amount, waits for its quote, continues, and lands on the test checkout. */
  async checkout(amount: string, creditAdded: string) {
    await this.amount.fill(amount);
    await expect(this.creditAdded).toHaveText(creditAdded);
    await this.continueButton.click();
    await expect(this.page.getByText("This is a test checkout: no card is taken.")).toBeVisible();
  }
}
