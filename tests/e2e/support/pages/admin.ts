import type { Locator, Page } from "@playwright/test";

/** /admin/approvals: accounts waiting for an admin's decision. */
export class ApprovalsPage {
  readonly status: Locator;
  /** The error when Reject is pressed without a reason. */
  readonly reasonRequired: Locator;

  constructor(private readonly page: Page) {
    this.status = page.getByRole("status");
    this.reasonRequired = page.getByText("Give a reason of at least 3 characters").first();
  }

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

  /** Presses Reject, having typed `reason` first unless it is left out. */
  async reject(name: string, reason?: string) {
    if (reason !== undefined) await this.page.getByLabel(`Reason for rejecting ${name}`).fill(reason);
    await this.page.getByRole("button", { name: `Reject ${name}` }).click();
  }
}
