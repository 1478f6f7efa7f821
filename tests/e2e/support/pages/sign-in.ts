import { expect, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../users";
import { PageObject } from "./page-object";

/** /login: the sign-in form. */
export class SignInPage extends PageObject {
  readonly email = this.page.getByLabel("E-mail", { exact: true });
  // Exact, so the "Show password" toggle beside the input never matches.
  readonly password = this.page.getByLabel("Password", { exact: true });
  readonly submit = this.page.getByRole("button", { name: "Sign in" });
  /** Why the form was refused. */
  readonly alert = this.page.getByRole("main").getByRole("alert");

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
export class ResetPasswordPage extends PageObject {
  readonly email = this.page.getByLabel("E-mail");
  readonly sendLink = this.page.getByRole("button", { name: "Send reset link" });
  readonly newPassword = this.page.getByLabel("New password", { exact: true });
  readonly setNewPassword = this.page.getByRole("button", { name: "Set new password" });
  readonly alert = this.page.getByRole("main").getByRole("alert");
  readonly status = this.page.getByRole("main").getByRole("status");

  async goto() {
    await this.page.goto("/auth/reset-password");
  }
}
