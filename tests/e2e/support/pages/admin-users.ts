import type { Locator } from "@playwright/test";
import { PageObject } from "./page-object";

/** /admin/users: search, filters, the table and its pages. */
export class AdminUsersPage extends PageObject {
  private readonly pages = this.page.getByRole("navigation", { name: "Pages of users" });
  readonly filter = this.page.getByRole("search", { name: "Filter the users" });
  readonly table = this.page.getByRole("table", { name: "Users, newest first" });
  readonly next = this.pages.getByRole("link", { name: "Next page" });
  readonly previous = this.pages.getByRole("link", { name: "Previous page" });

  async goto(query = "") {
    await this.page.goto(`/admin/users${query}`);
  }

  /** Fills in the fields given (selects by their visible option) and presses Show. */
  async filterBy(fields: { search?: string; role?: string; approval?: string; kyc?: string }) {
    if (fields.search !== undefined) await this.filter.getByLabel("Search", { exact: true }).fill(fields.search);
    if (fields.role !== undefined)
      await this.filter.getByLabel("Role", { exact: true }).selectOption({ label: fields.role });
    if (fields.approval !== undefined)
      await this.filter.getByLabel("Approval", { exact: true }).selectOption({ label: fields.approval });
    if (fields.kyc !== undefined)
      await this.filter.getByLabel("KYC status", { exact: true }).selectOption({ label: fields.kyc });
    await this.filter.getByRole("button", { name: "Show" }).click();
  }

  rows(): Locator {
    return this.table.locator("tbody tr");
  }

  userLink(name: string): Locator {
    return this.table.getByRole("link", { name, exact: true });
  }
}

/** /admin/users/{id}/edit: details, credit, and for super admins the role and deletion. */
export class EditUserPage extends PageObject {
  readonly details = this.page.getByRole("form", { name: "User details" });
  readonly credit = this.page.getByRole("form", { name: "Adjust credit" });
  readonly role = this.page.getByRole("form", { name: "Role" });
  readonly deleteButton = this.page.getByRole("button", { name: "Delete user…" });

  async goto(userId: string) {
    await this.page.goto(`/admin/users/${userId}/edit`);
  }

  async adjust(amount: string, reason: string) {
    await this.credit.getByLabel("Amount (£)").fill(amount);
    await this.credit.getByLabel("Reason").fill(reason);
    await this.credit.getByRole("button", { name: "Adjust credit" }).click();
  }

  async changeRole(label: string) {
    await this.role.getByLabel("Role", { exact: true }).selectOption({ label });
    await this.role.getByRole("button", { name: "Change role" }).click();
  }
}
