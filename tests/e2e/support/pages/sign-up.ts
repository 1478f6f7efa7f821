import { PageObject } from "./page-object";

export type SignUpDetails = {
  name: string;
  email: string;
  password: string;
  dateOfBirth: string;
  /** Tick "E-mail me about new competitions and results" (left unticked unless asked). */
  marketingConsent?: boolean;
};

/** /signup: the sign-up form. */
export class SignUpPage extends PageObject {
  readonly heading = this.page.getByRole("heading", { name: "Create your account" });
  readonly alert = this.page.getByRole("main").getByRole("alert");
  readonly marketingConsent = this.page.getByLabel("E-mail me about new competitions and results");

  async goto() {
    await this.page.goto("/signup");
  }

  /** Fills every field, ticks the 18-or-over box and submits; the caller asserts where that leads. */
  async signUp(details: SignUpDetails) {
    await this.page.getByLabel("Full name").fill(details.name);
    await this.page.getByLabel("E-mail", { exact: true }).fill(details.email);
    await this.page.getByLabel("Password", { exact: true }).fill(details.password);
    await this.page.getByLabel("Date of birth").fill(details.dateOfBirth);
    await this.page.getByLabel(/I am 18 or over/).check();
    if (details.marketingConsent) await this.marketingConsent.check();
    await this.page.getByRole("button", { name: "Create account" }).click();
  }
}
