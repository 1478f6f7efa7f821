import type { Locator } from "@playwright/test";
import { PageObject } from "./page-object";

/** /admin/mail: compose to a segment, preview, send; recent campaigns; the outbox. */
export class AdminMailPage extends PageObject {
  readonly compose = this.page.getByRole("form", { name: "Compose mail" });
  readonly preview = this.page.getByRole("region", { name: "Preview" });
  readonly outbox = this.page.getByRole("region", { name: "Outbox" });

  async goto(query = "") {
    await this.page.goto(`/admin/mail${query}`);
  }

  /** Fills the compose form; fields left out keep what they hold. */
  async fill(mail: { kind?: string; segment?: string; competition?: string; subject?: string; body?: string }) {
    if (mail.kind) await this.compose.getByLabel("Kind").selectOption({ label: mail.kind });
    if (mail.segment) await this.compose.getByLabel("Send to").selectOption({ label: mail.segment });
    if (mail.competition) {
      const select = this.compose.getByLabel("Competition");
      const value = await select.locator("option", { hasText: mail.competition }).first().getAttribute("value");
      await select.selectOption(value ?? "");
    }
    if (mail.subject !== undefined) await this.compose.getByLabel("Subject").fill(mail.subject);
    if (mail.body !== undefined) await this.compose.getByLabel("Message").fill(mail.body);
  }

  async previewMail() {
    await this.compose.getByRole("button", { name: "Preview" }).click();
  }

  /** The "Send to N players" button under the preview. */
  sendButton(): Locator {
    return this.preview.getByRole("button", { name: /^Send to / });
  }

  /** The outbox's message rows. */
  outboxRows(): Locator {
    return this.outbox.getByRole("table", { name: "Outbox, newest first" }).locator("tbody tr");
  }
}
