import { expect, type Locator } from "@playwright/test";
import { Header } from "./header";
import { PageObject } from "./page-object";

/** /complaints: how to complain, the deadlines and the dispute-resolution body (the same for everyone). */
export class ComplaintsInfoPage extends PageObject {
  readonly heading = this.page.getByRole("heading", { name: "Complaints", level: 1 });
  readonly makeComplaint = this.page.getByRole("main").getByRole("link", { name: "Make a complaint" });

  async goto() {
    await this.page.goto("/complaints");
  }

  section(name: string): Locator {
    return this.page.getByRole("region", { name });
  }
}

/** /account/complaints: the complaint form and the player's complaints. */
export class MyComplaintsPage extends PageObject {
  private readonly main = this.page.getByRole("main");
  readonly subject = this.main.getByLabel("Subject");
  readonly reference = this.main.getByLabel("Competition or payment reference (optional)");
  readonly details = this.main.getByLabel("Details");
  readonly send = this.main.getByRole("button", { name: "Send complaint" });
  /** The saved complaint's confirmation. */
  readonly confirmation = this.main.getByRole("status");
  readonly alert = this.main.getByRole("alert");
  readonly list = this.page.getByRole("region", { name: "Your complaints" });

  /** Opens the page and waits for hydration, so the form answers the first click. */
  async goto() {
    await this.page.goto("/account/complaints");
    await expect(new Header(this.page).accountMenuButton()).toBeEnabled();
  }

  async complain(complaint: { subject: string; reference?: string; details: string }) {
    await this.subject.fill(complaint.subject);
    await this.reference.fill(complaint.reference ?? "");
    await this.details.fill(complaint.details);
    await this.send.click();
  }

  complaint(reference: string): Locator {
    return this.list.getByRole("article", { name: new RegExp(`^${reference}:`) });
  }
}
