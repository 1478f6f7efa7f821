import { expect, type Locator, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../users";

/** /login: the sign-in form. */
export class SignInPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  /** Why the form was refused. */
  readonly alert: Locator;

  constructor(private readonly page: Page) {
    this.email = page.getByLabel("E-mail", { exact: true });
    // Exact, so the "Show password" toggle beside the input never matches.
    this.password = page.getByLabel("Password", { exact: true });
    this.submit = page.getByRole("button", { name: "Sign in" });
    this.alert = page.getByRole("main").getByRole("alert");
  }

  /** Opens the form, with `next` as the page to come back to after signing in. */
  async goto(next?: string) {
    await this.page.goto(next ? `/login?next=${encodeURIComponent(next)}` : "/login");
  }

  /** Fills the form without sending it. */
  async fill(email: string, password = DEMO_PASSWORD) {
    await this.email.fill(email);
    await this.password.fill(password);
  }

  /** Fills the form and submits it; the caller asserts where that leads. */
  async signIn(email: string, password = DEMO_PASSWORD) {
    await this.fill(email, password);
    await this.submit.click();
  }

  /** Opens the form, signs in and waits for the dashboard, where a plain sign-in lands. */
  async signInToDashboard(email: string, password = DEMO_PASSWORD) {
    await this.goto();
    await this.signIn(email, password);
    await expect(this.page).toHaveURL(/\/account$/);
  }
}

/**
 * Signs out through /logout: a GET only asks ("Sign out?"), its button posts the sign-out action and
 * lands on the home page.
 */
export async function signOut(page: Page) {
  await page.goto("/logout");
  await expect(page.getByRole("heading", { name: "Sign out?" })).toBeVisible();
  await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** /auth/reset-password: asking for a reset link, then (from the link) choosing a new password. */
export class ResetPasswordPage {
  readonly email: Locator;
  readonly sendLink: Locator;
  readonly newPassword: Locator;
  readonly setNewPassword: Locator;
  readonly alert: Locator;
  readonly status: Locator;

  constructor(private readonly page: Page) {
    this.email = page.getByLabel("E-mail");
    this.sendLink = page.getByRole("button", { name: "Send reset link" });
    this.newPassword = page.getByLabel("New password", { exact: true });
    this.setNewPassword = page.getByRole("button", { name: "Set new password" });
    this.alert = page.getByRole("main").getByRole("alert");
    this.status = page.getByRole("main").getByRole("status");
  }

  async goto() {
    await this.page.goto("/auth/reset-password");
  }
}
