import { expect, type Locator, type Page } from "@playwright/test";
import { Header } from "./header";

/** /credit: the amount, its live quote, "Continue". */
export class BuyCreditPage {
  readonly amount: Locator;
  readonly creditAdded: Locator;
  readonly continueButton: Locator;

  constructor(private readonly page: Page) {
    this.amount = page.getByLabel("Amount");
    this.creditAdded = page.getByTestId("quote-credit");
    this.continueButton = page.getByRole("button", { name: "Continue" });
  }

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
