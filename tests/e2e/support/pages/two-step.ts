import { expect } from "@playwright/test";
import { totpCode } from "@labcash/embedded-supabase/totp";
import { caughtMail } from "../backend";
import { Header } from "./header";
import { PageObject } from "./page-object";

/** /account/two-step: setting up an authenticator app, or giving its code after signing in. */
export class TwoStepPage extends PageObject {
  readonly heading = this.page.getByRole("heading", { name: "Two-step verification", level: 1 });
  readonly setUp = this.page.getByRole("button", { name: "Set up authenticator app" });
  readonly key = this.page.getByLabel("Set-up key");
  readonly code = this.page.getByLabel("6-digit code");
  readonly turnOn = this.page.getByRole("button", { name: "Turn on two-step verification" });
  readonly verify = this.page.getByRole("button", { name: "Verify" });
  readonly alert = this.page.getByRole("main").getByRole("alert");
  readonly emailMeACode = this.page.getByRole("button", { name: "E-mail me a code" });
  readonly inboxCode = this.page.getByLabel("Code from the e-mail");
  readonly confirmInbox = this.page.getByRole("button", { name: "Confirm it is me" });
  readonly recoveryCodes = this.page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  readonly recoveryCode = this.page.getByLabel("Recovery code", { exact: true });
  readonly useRecoveryCode = this.page.getByRole("button", { name: "Use recovery code" });
  /** The recovery codes the last admin set-up showed (keepRecoveryCodes). */
  keptCodes: string[] = [];

  /**
   * An admin's first authenticator is followed by making their recovery codes, shown once: keeps them and goes on.
   * `whileShown` runs on the page while the codes are on it (an axe check).
   */
  async keepRecoveryCodes(whileShown?: () => Promise<void>): Promise<string[]> {
    await this.page.getByRole("button", { name: "Make my recovery codes" }).click();
    await expect(this.recoveryCodes).toHaveCount(10);
    await whileShown?.();
    this.keptCodes = (await this.recoveryCodes.allTextContents()).map((code) => code.trim());
    await this.page.getByRole("link", { name: "I have kept my codes: continue" }).click();
    return this.keptCodes;
  }

  /** Opens the code step at `url` afresh, once React has hydrated it (the header's theme switch is enabled then): a code typed before that can be lost. */
  async reopen(url: string) {
    await this.page.goto(url);
    await expect(new Header(this.page).themeToggle()).toBeEnabled();
  }

  /**
   * An admin's first step: asks for the e-mailed code (unless `send` is false: one was asked for already),
   * reads the newest from `email`'s inbox and confirms it.
   */
  async confirmInboxOf(email: string, { send = true } = {}) {
    const codes = async () => (await caughtMail(email)).filter((m) => m.kind === "reauthentication");
    if (send) {
      const before = (await codes()).length;
      await this.emailMeACode.click();
      // A new code replaces the one before: wait for its mail, not the last one.
      await expect.poll(async () => (await codes()).length).toBeGreaterThan(before);
    }
    const [mail] = await codes();
    await this.inboxCode.fill(/Your code: (\d{8})/.exec(mail.body)![1]);
    await this.confirmInbox.click();
  }

  /**
   * Sets up an authenticator as a user would (reading the key under the QR code); returns the key. An
   * admin (`adminEmail`) first confirms the code e-mailed to them; an admin (`admin`, whether or not their inbox
   * is confirmed here) then keeps the recovery codes their first authenticator comes with.
   */
  async setUpAuthenticator(
    adminEmail?: string,
    {
      admin = adminEmail !== undefined,
      whileCodesShown,
    }: { admin?: boolean; whileCodesShown?: () => Promise<void> } = {},
  ): Promise<string> {
    await expect(this.heading).toBeVisible();
    if (adminEmail) await this.confirmInboxOf(adminEmail);
    await this.setUp.click();
    await expect(
      this.page.getByRole("img", { name: "QR code that adds LabCash to an authenticator app" }),
    ).toBeVisible();
    const key = (await this.key.textContent())!.trim();
    await this.code.fill(totpCode(key));
    await this.turnOn.click();
    if (admin) await this.keepRecoveryCodes(whileCodesShown);
    return key;
  }

  /**
   * The signed-in player turns two-step verification on (the set-up page, back to their profile); returns
   * the authenticator's key.
   */
  async turnOnFromProfile(): Promise<string> {
    await this.page.goto("/account/two-step?next=%2Faccount%2Fprofile");
    const key = await this.setUpAuthenticator();
    await expect(this.page).toHaveURL(/\/account\/profile$/);
    return key;
  }

  /** Gives the current code for `key` after signing in. */
  async giveCode(key: string) {
    await expect(this.heading).toBeVisible();
    await this.code.fill(totpCode(key));
    await this.verify.click();
  }
}
