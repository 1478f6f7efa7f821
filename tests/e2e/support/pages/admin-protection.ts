import type { Locator } from "@playwright/test";
import { PageObject } from "./page-object";

/** /admin/protection: the review queue of open flags (a form per flag) and the recently reviewed ones. */
export class AdminProtectionPage extends PageObject {
  readonly reviewed = this.page.getByRole("table", { name: "Reviewed flags, latest first" });

  async goto() {
    await this.page.goto("/admin/protection");
  }

  /** The review form of `player`'s flag of the kind labelled `kind` ("Monthly limit reached", …). */
  reviewForm(player: string, kind: string): Locator {
    return this.page.getByRole("form", { name: `Review: ${player}, ${kind}` });
  }

  async review(player: string, kind: string, note: string, intervention = "None") {
    const form = this.reviewForm(player, kind);
    await form.getByLabel("Review note").fill(note);
    await form.getByLabel("Intervention").selectOption({ label: intervention });
    await form.getByRole("button", { name: "Mark reviewed" }).click();
  }
}

/** The "Flags and interventions" part of /admin/users/{id}. */
export class PlayerProtectionRecord extends PageObject {
  readonly flags = this.page.getByRole("table", { name: "Flags raised for this player, newest first" });
  readonly interventions = this.page.getByRole("list", { name: "Interventions, newest first" });
  readonly form = this.page.getByRole("form", { name: "Record an intervention" });

  async goto(userId: string) {
    await this.page.goto(`/admin/users/${userId}`);
  }

  async record(what: string, note: string) {
    await this.form.getByLabel("What was done").selectOption({ label: what });
    await this.form.getByLabel("Note").fill(note);
    await this.form.getByRole("button", { name: "Record intervention" }).click();
  }
}
