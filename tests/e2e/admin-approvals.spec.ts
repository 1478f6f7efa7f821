import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { createUser } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { ApprovalsPage } from "./support/pages/admin";
import { storageStatePath } from "./support/users";

// Approvals that do not wait: every admin is told of a new sign-up in the notification centre; the queue comes
// before the approval-mode settings on a phone and a desktop alike; each row says the age; "Select all" ticks
// the queue; Reject is quieter than Approve and confirmed in a dialog. Workers share one database, so each test
// makes its own accounts (unique names) and never approves or rejects anyone else's.

test.use({ storageState: storageStatePath("admin") });

const tag = () => `Ap${Date.now().toString(36)}${randomUUID().slice(0, 4)}`;

/** The age of someone born on 17 May 1990 (every e2e account's date of birth), today in UTC, as ageOn reckons. */
function ageOfTestUsers(today = new Date()): number {
  const beforeBirthday = today.getUTCMonth() < 4 || (today.getUTCMonth() === 4 && today.getUTCDate() < 17);
  return today.getUTCFullYear() - 1990 - (beforeBirthday ? 1 : 0);
}

/** The solid red of the theme now (light or dark): what only the confirming button may wear. */
const destructiveFill = (page: Page) =>
  page.evaluate(() => {
    const probe = document.createElement("span");
    probe.className = "bg-destructive";
    document.body.append(probe);
    const colour = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return colour;
  });

for (const [screen, viewport] of [
  ["a phone", { width: 390, height: 844 }],
  ["a desktop", { width: 1280, height: 800 }],
] as const) {
  test.describe(`on ${screen}`, () => {
    test.use({ viewport });

    test("the queue comes first, with each row's age, select all, and a quiet Reject behind a confirmation", async ({
      page,
    }) => {
      const waiting = await createUser({ name: `${tag()} Rhea`, approved: false, label: "queue" });
      const approvals = new ApprovalsPage(page);
      await approvals.goto();
      await expect(approvals.pending(waiting.email)).toBeVisible();

      // The queue, then the approval mode's card below it.
      const bulk = page.getByRole("form", { name: "Approve in bulk" });
      const mode = page.getByRole("form", { name: "Approval mode" });
      const bulkTop = (await bulk.boundingBox())!.y;
      const modeTop = (await mode.boundingBox())!.y;
      const rowTop = (await approvals.pending(waiting.email).boundingBox())!.y;
      expect(bulkTop).toBeLessThan(modeTop);
      expect(rowTop).toBeLessThan(modeTop);
      // What automatic approval checks, in its own words.
      await expect(mode).toContainText("The only check is the one every sign-up passes");

      const row = page.getByRole("listitem").filter({ hasText: waiting.email });
      await expect(row).toContainText(`aged ${ageOfTestUsers()} (born 17 May 1990)`);

      // Select all ticks every waiting account, and clears them again.
      const rowBox = row.getByRole("checkbox", { name: `Select ${waiting.name} (${waiting.email})` });
      const selectAll = bulk.getByRole("checkbox", { name: /^Select all \d+ waiting$/ });
      await selectAll.check();
      await expect(rowBox).toBeChecked();
      const boxes = page.getByRole("checkbox", { name: /^Select .+ \(.+\)$/ });
      const count = await boxes.count();
      await expect(bulk.getByText(`${count} selected`)).toBeVisible();
      await selectAll.uncheck();
      await expect(rowBox).not.toBeChecked();
      await expect(bulk.getByText("0 selected")).toBeVisible();
      await rowBox.check();
      await expect(bulk.getByText("1 selected")).toBeVisible();
      await rowBox.uncheck();

      // Reject: lighter than Approve (no red fill, not the row's width), and it only opens a confirmation.
      const approve = row.getByRole("button", { name: `Approve ${waiting.name}` });
      const reject = row.getByRole("button", { name: `Reject ${waiting.name}…` });
      expect(await reject.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(await destructiveFill(page));
      expect((await reject.boundingBox())!.width).toBeLessThan((await row.boundingBox())!.width * 0.8);
      await expect(approve).toBeVisible();
      await expectAccessibleInBothSchemes(page, `/admin/approvals on ${screen}`);

      await reject.click();
      const dialog = approvals.rejectDialog(waiting.name);
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText("They cannot top up or enter competitions.");
      await expect(dialog.getByRole("button", { name: `Reject ${waiting.name}`, exact: true })).toHaveCSS(
        "background-color",
        await destructiveFill(page),
      );
      await expectAccessibleInBothSchemes(page, `the reject dialog on ${screen}`);
      // Keeping them waiting changes nothing, and focus is back on Reject.
      await dialog.getByRole("button", { name: "Keep waiting" }).click();
      await expect(dialog).toBeHidden();
      await expect(reject).toBeFocused();
      await expect(approvals.pending(waiting.email)).toBeVisible();

      await approvals.reject(waiting.name, "We could not verify your address.");
      await expect(page.getByText(`Rejected ${waiting.name}. They will see your reason.`)).toBeVisible();
      await expect(approvals.pending(waiting.email)).toHaveCount(0);
    });
  });
}

test("a new sign-up is in the admin's notification centre at once, linking the queue", async ({ page }) => {
  const newcomer = await createUser({ name: `${tag()} Nina`, approved: false, label: "told" });
  await page.goto("/account/notifications");
  const told = page.getByRole("link", { name: `New sign-up: ${newcomer.name}` });
  await expect(told).toBeVisible();
  // Admins may have it pushed too; the choice is theirs, on the same form as every other kind.
  await expect(page.getByLabel("New sign-ups waiting for approval (admins)")).toBeVisible();
  await told.click();
  await expect(page).toHaveURL(/\/admin\/approvals$/);
  await expect(new ApprovalsPage(page).pending(newcomer.email)).toBeVisible();
});

test("the daily sign-up digest is a setting, off until an admin turns it on", async ({ page }) => {
  await page.goto("/admin/settings");
  const form = page.getByRole("form", { name: "Settings" });
  const digest = form.getByRole("checkbox", { name: /E-mail admins a daily digest of sign-ups waiting/ });
  await expect(digest).not.toBeChecked();
  await expect(form.getByRole("group", { name: "Sign-ups" })).toContainText("The only check is the one every sign-up");
  try {
    await digest.check();
    await form.getByRole("button", { name: "Save settings" }).click();
    await expect(form.getByRole("status")).toContainText("sign-up digest");
    await page.reload();
    await expect(digest).toBeChecked();
  } finally {
    // Shared by every worker: put it back whatever happened.
    await page.goto("/admin/settings");
    if (await digest.isChecked()) {
      await digest.uncheck();
      await form.getByRole("button", { name: "Save settings" }).click();
      await expect(form.getByRole("status")).toContainText("sign-up digest");
    }
  }
  await expect(digest).not.toBeChecked();
});
