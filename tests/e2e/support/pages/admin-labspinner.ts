import type { Locator } from "@playwright/test";
import { PageObject } from "./page-object";

/** /admin/labspinner: the live wheel and its switch, the segment editor, observed spins, versions, postal requests. */
export class AdminLabSpinnerPage extends PageObject {
  /** The live wheel's segments with the database's odds. */
  readonly liveOdds = this.page.getByRole("table", { name: "Live wheel odds" });
  readonly onOff = this.page.getByRole("form", { name: "LabSpinner on or off" });
  readonly editor = this.page.getByRole("form", { name: "Wheel segments" });
  readonly save = this.editor.getByRole("button", { name: "Save as a new version" });
  readonly addSegment = this.editor.getByRole("button", { name: "Add a segment" });
  /** The line under the editor: "Saved as wheel version …" or the refusal. */
  readonly editorStatus = this.editor.getByRole("status").or(this.editor.getByRole("alert"));
  readonly observed = this.page.getByRole("table", {
    name: "Observed spins against the odds, per segment of the live wheel",
  });
  readonly versions = this.page.getByRole("table", { name: "Wheel versions, newest first (the last 10)" });
  readonly postalRequest = this.page.getByRole("form", { name: "Record a postal request" });
  readonly postalRequests = this.page.getByRole("table", { name: "Postal requests, newest first (the last 20)" });

  async goto() {
    await this.page.goto("/admin/labspinner");
  }

  /** The editor's row for the segment at `position` (from 1). */
  segment(position: number): Locator {
    return this.editor.getByRole("group", { name: `Segment ${position}`, exact: true });
  }

  /** A field of a segment's row: "Label", "Colour", "Label colour", "Prize (credits)" or "Weight". */
  field(position: number, label: string): Locator {
    return this.segment(position).getByLabel(label, { exact: true });
  }

  /** The live-wheel row of the segment with this label. */
  liveRow(label: string): Locator {
    return this.liveOdds.getByRole("row").filter({ hasText: label });
  }

  /** Presses the switch (its name says which way it goes). */
  async switchWheel(to: "on" | "off") {
    await this.onOff.getByRole("button", { name: `Switch the wheel ${to}` }).click();
  }

  async recordPostalRequest(email: string, reference: string) {
    await this.postalRequest.getByLabel("Player's account e-mail").fill(email);
    await this.postalRequest.getByLabel("Reference").fill(reference);
    await this.postalRequest.getByRole("button", { name: "Record postal request" }).click();
  }
}

/** The LabSpinner part of /admin/users/{id}: spin credits, last spins and postal requests. */
export class UserSpinsRecord extends PageObject {
  readonly section = this.page.getByRole("region", { name: "LabSpinner", exact: true });
  readonly grants = this.section.getByRole("table", { name: "Postal requests, newest first (the last 20)" });

  async goto(userId: string) {
    await this.page.goto(`/admin/users/${userId}`);
  }

  /** A figure by its label ("Spin credits to use", "From postal requests", …). */
  figure(label: string): Locator {
    return this.section.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]");
  }
}
