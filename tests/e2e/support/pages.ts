import { expect, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "./users";

// Page objects for the screens many tests touch.
export class LoginPage {
  constructor(private readonly page: Page) {}

  async goto(next?: string) {
    await this.page.goto(next ? `/login?next=${encodeURIComponent(next)}` : "/login");
  }

  async signIn(email: string, password = DEMO_PASSWORD) {
    await this.page.getByLabel("E-mail").fill(email);
    await this.page.getByLabel("Password", { exact: true }).fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }
}

export class SignUpPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/signup");
  }

  async fill(details: { name: string; email: string; password: string; dateOfBirth: string; acceptTerms?: boolean }) {
    await this.page.getByLabel("Full name").fill(details.name);
    await this.page.getByLabel("E-mail").fill(details.email);
    await this.page.getByLabel("Password", { exact: true }).fill(details.password);
    await this.page.getByLabel("Date of birth").fill(details.dateOfBirth);
    if (details.acceptTerms !== false) await this.page.getByLabel(/I am 18 or over/).check();
  }

  async submit() {
    await this.page.getByRole("button", { name: "Create account" }).click();
  }
}

/** Signs in through the real form and waits until the app has landed on `landing`. */
export async function signIn(page: Page, email: string, landing: RegExp = /\/account$/) {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(email);
  await expect(page).toHaveURL(landing);
}
