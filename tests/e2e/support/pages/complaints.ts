import { expect, type Locator, type Page } from "@playwright/test";
import { Header } from "./header";

/** /complaints: how to complain, the deadlines and the dispute-resolution body (the same for everyone). */
export class ComplaintsInfoPage {
  readonly heading: Locator;
  readonly makeComplaint: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Complaints", level: 1 });
    this.makeComplaint = page.getByRole("main").getByRole("link", { name: "Make a complaint" });
  }

  async goto() {
    await this.page.goto("/complaints");
  }

  section(name: string): Locator {
    return this.page.getByRole("region", { name });
  }
}

/** /account/complaints: the complaint form and the player's complaints. */
export class MyComplaintsPage {
  readonly subject: Locator;
  readonly reference: Locator;
  readonly details: Locator;
  readonly send: Locator;
  /** The saved complaint's confirmation. */
  readonly confirmation: Locator;
  readonly alert: Locator;
  readonly list: Locator;

  constructor(private readonly page: Page) {
    const main = page.getByRole("main");
    this.subject = main.getByLabel("Subject");
    this.reference = main.getByLabel("Competition or payment reference (optional)");
    this.details = main.getByLabel("Details");
    this.send = main.getByRole("button", { name: "Send complaint" });
    this.confirmation = main.getByRole("status");
    this.alert = main.getByRole("alert");
    this.list = page.getByRole("region", { name: "Your complaints" });
  }

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
