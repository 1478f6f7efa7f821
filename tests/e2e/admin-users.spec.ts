import { randomUUID } from "node:crypto";
import { test, expect } from "./support/fixtures";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { approvalMode, balanceOf, createUser, setApprovalMode } from "./support/backend";
import { ApprovalsPage } from "./support/pages/admin";
import { AdminUsersPage, EditUserPage } from "./support/pages/admin-users";
import { storageStatePath } from "./support/users";

// Admin users and approvals: search and filter, one user's page, credit
// adjustments with a reason, bulk approval, the approval mode, and the super admin's role change
// and deletion. Everything a test makes is its own (unique names), since workers share one database.

const tag = () => `Zed${Date.now().toString(36)}${randomUUID().slice(0, 4)}`;

test.describe("as an admin", () => {
  test.use({ storageState: storageStatePath("admin") });

  test("searches users by name or e-mail, filters them and opens one", async ({ page }) => {
    const t = tag();
    const waiting = await createUser({ name: `${t} Waiting`, approved: false, label: "users" });
    const approved = await createUser({ name: `${t} Approved`, credit: 12.5, label: "users" });
    const users = new AdminUsersPage(page);
    await users.goto();
    await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();

    await users.filterBy({ search: t.toLowerCase() });
    await expect(users.rows()).toHaveCount(2);
    await users.filterBy({ approval: "Waiting" });
    await expect(users.rows()).toHaveCount(1);
    await expect(users.userLink(waiting.name)).toBeVisible();
    await expect(page).toHaveURL(/approval=pending/);

    await users.filterBy({ search: approved.email, approval: "Any approval", role: "Player" });
    await expect(users.rows()).toHaveCount(1);
    await expect(users.rows().first()).toContainText("£12.50");
    await users.filterBy({ kyc: "Verified" });
    await expect(page.getByText("No users match this search.")).toBeVisible();

    await users.goto(`?q=${encodeURIComponent(approved.email)}`);
    await users.userLink(approved.name).click();
    await expect(page.getByRole("heading", { level: 1, name: approved.name })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Users" }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Limits and breaks" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Credit ledger, newest first" })).toContainText("£12.50");
  });

  test("pages through users with the keyset links", async ({ page }) => {
    const t = tag();
    await Promise.all(Array.from({ length: 26 }, (_, i) => createUser({ name: `${t} Pager ${i}`, label: "pager" })));
    const users = new AdminUsersPage(page);
    await users.goto(`?q=${t}`);
    await expect(users.rows()).toHaveCount(25);
    await expect(users.previous).toHaveCount(0);
    // Newest first: the last one made is on page one, the first one made is alone on page two.
    await users.next.click();
    await expect(page).toHaveURL(/after=/);
    await expect(users.rows()).toHaveCount(1);
    await expect(users.next).toHaveCount(0);
    await users.previous.click();
    await expect(page).not.toHaveURL(/after=/);
    await expect(users.rows()).toHaveCount(25);
  });

  test("adjusts credit with a reason; without one nothing is written; a large one needs a super admin", async ({
    page,
  }) => {
    const player = await createUser({ name: `${tag()} Credit`, credit: 10, label: "credit" });
    const edit = new EditUserPage(page);
    await edit.goto(player.id);
    await expect(page.getByRole("heading", { level: 1, name: `Edit ${player.name}` })).toBeVisible();

    await edit.adjust("5", "");
    await expect(
      edit.credit.getByText("Give a reason for the adjustment (at least 3 characters)").first(),
    ).toBeVisible();
    await expect(edit.credit.getByLabel("Reason")).toHaveAttribute("aria-invalid", "true");
    await expect(edit.credit.getByLabel("Amount (£)")).toHaveValue("5");
    expect(await balanceOf(player.id)).toBe(10);

    await edit.adjust("abc", "Goodwill for a late prize");
    await expect(
      edit.credit.getByText("Enter an amount in pounds and pence, such as 10 or -2.50").first(),
    ).toBeVisible();
    expect(await balanceOf(player.id)).toBe(10);

    await edit.adjust("150", "Goodwill for a late prize");
    await expect(edit.credit.getByText("Access denied: Super admin privileges required")).toBeVisible();
    expect(await balanceOf(player.id)).toBe(10);

    await edit.adjust("-2.50", "Duplicate bonus");
    await expect(edit.credit.getByText("Adjusted. The balance is now £7.50.")).toBeVisible();
    await expect(edit.credit.getByLabel("Reason")).toHaveValue("");
    expect(await balanceOf(player.id)).toBe(7.5);

    await page.goto(`/admin/users/${player.id}`);
    const ledger = page.getByRole("table", { name: "Credit ledger, newest first" });
    await expect(ledger.locator("tbody tr").first()).toContainText("Duplicate bonus");
    await expect(ledger.locator("tbody tr").first()).toContainText("-£2.50");
    await expect(page.getByRole("region", { name: "Activity" }).getByText("User credit adjusted")).toBeVisible();
  });

  test("edits name, approval and KYC status", async ({ page }) => {
    const user = await createUser({ name: `${tag()} Edit`, approved: false, label: "edit" });
    const edit = new EditUserPage(page);
    await edit.goto(user.id);
    await edit.details.getByLabel("Name").fill("");
    await edit.details.getByRole("button", { name: "Save details" }).click();
    await expect(edit.details.getByText("Enter a name").first()).toBeVisible();
    await edit.details.getByLabel("Name").fill(`${user.name} Renamed`);
    await edit.details.getByLabel("Approval").selectOption({ label: "Approved" });
    await edit.details.getByLabel("KYC status").selectOption({ label: "Verified" });
    await edit.details.getByRole("button", { name: "Save details" }).click();
    await expect(edit.details.getByText("Saved. The change is in the activity log.")).toBeVisible();
    await page.goto(`/admin/users/${user.id}`);
    await expect(page.getByRole("heading", { level: 1, name: `${user.name} Renamed` })).toBeVisible();
    await expect(page.getByText("KYC: Verified")).toBeVisible();
  });

  test("cannot adjust their own credit, and sees no role or delete controls", async ({ page }) => {
    const users = new AdminUsersPage(page);
    await users.goto("?q=admin%40labcash.test");
    await users.userLink("Alex Admin").click();
    await page.getByRole("link", { name: "Edit user" }).click();
    const edit = new EditUserPage(page);
    await expect(page.getByText("You cannot adjust your own credit. Ask another admin.")).toBeVisible();
    await expect(edit.credit).toHaveCount(0);
    await expect(edit.role).toHaveCount(0);
    await expect(edit.deleteButton).toHaveCount(0);
  });

  test("approves several accounts together", async ({ page }) => {
    const t = tag();
    const a = await createUser({ name: `${t} Ann`, approved: false, label: "bulk" });
    const b = await createUser({ name: `${t} Bob`, approved: false, label: "bulk" });
    const c = await createUser({ name: `${t} Cy`, approved: false, label: "bulk" });
    const approvals = new ApprovalsPage(page);
    await approvals.goto();
    await page.getByRole("button", { name: "Approve selected" }).click();
    await expect(page.getByText("Tick at least one account to approve")).toBeVisible();
    await page.getByRole("checkbox", { name: `Select ${a.name} (${a.email})` }).check();
    await page.getByRole("checkbox", { name: `Select ${b.name} (${b.email})` }).check();
    await page.getByRole("button", { name: "Approve selected" }).click();
    await expect(page.getByText("Approved 2 accounts. We have e-mailed them.")).toBeVisible();
    await expect(approvals.pending(a.email)).toHaveCount(0);
    await expect(approvals.pending(b.email)).toHaveCount(0);
    await expect(approvals.pending(c.email)).toBeVisible();
  });

  test("switches automatic approval on and off, and the change is in the activity log", async ({ page }) => {
    expect(await approvalMode()).toBe("manual");
    const form = page.getByRole("form", { name: "Approval mode" });
    try {
      await page.goto("/admin/approvals");
      await expect(form.getByRole("radio", { name: /Manual/ })).toBeChecked();
      await form.getByRole("radio", { name: /Automatic/ }).check();
      await form.getByRole("button", { name: "Save approval mode" }).click();
      await expect(form.getByText("New sign-ups are now approved automatically.")).toBeVisible();
      expect(await approvalMode()).toBe("auto");
      // Switched straight back: other tests running meanwhile sign people up and expect them to wait.
      await form.getByRole("radio", { name: /Manual/ }).check();
      await form.getByRole("button", { name: "Save approval mode" }).click();
      await expect(form.getByText("New sign-ups now wait for an admin to approve them.")).toBeVisible();
      expect(await approvalMode()).toBe("manual");
      await page.reload();
      await expect(form.getByRole("radio", { name: /Manual/ })).toBeChecked();
    } finally {
      await setApprovalMode("manual");
    }
    await page.goto("/admin/activity?kind=settings.approval_mode");
    await expect(page.getByRole("table", { name: "Activity, newest first" }).locator("tbody tr").first()).toContainText(
      "changed the approval mode from automatic to manual.",
    );
  });
});

test.describe("as a super admin", () => {
  test.use({ storageState: storageStatePath("superAdmin") });

  test("changes a role, and deletes a player behind a confirmation", async ({ page, browser }) => {
    const t = tag();
    const promoted = await createUser({ name: `${t} Promoted`, label: "role" });
    const edit = new EditUserPage(page);
    await edit.goto(promoted.id);
    await edit.changeRole("Admin");
    await expect(edit.role.getByText(`${promoted.name} is now an admin.`)).toBeVisible();
    await page.goto(`/admin/users/${promoted.id}`);
    await expect(page.getByRole("heading", { level: 1, name: promoted.name })).toBeVisible();
    await expect(page.getByRole("main").getByText("Admin", { exact: true }).first()).toBeVisible();

    // An admin sees neither control on the same kind of page, and the action is refused anyway.
    const adminContext = await browser.newContext({ storageState: storageStatePath("admin") });
    const adminPage = await adminContext.newPage();
    const leaving = await createUser({ name: `${t} Leaving`, credit: 3, label: "delete" });
    const adminEdit = new EditUserPage(adminPage);
    await adminEdit.goto(leaving.id);
    await expect(adminEdit.credit).toBeVisible();
    await expect(adminEdit.role).toHaveCount(0);
    await expect(adminEdit.deleteButton).toHaveCount(0);
    await adminContext.close();

    await edit.goto(leaving.id);
    await edit.deleteButton.click();
    const dialog = page.getByRole("alertdialog", { name: `Delete ${leaving.name}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await edit.deleteButton.click();
    await dialog.getByRole("button", { name: `Delete ${leaving.name}` }).click();
    await expect(page.getByText("The account was deleted: personal data cleared and sign-in removed.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Deleted user" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Credit ledger, newest first" })).toContainText("£3.00");
    expect(await balanceOf(leaving.id)).toBe(3);
    // Nothing is left to edit: the edit page is not found, inside the admin's own shell.
    const gone = await page.goto(`/admin/users/${leaving.id}/edit`);
    expect(gone?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Oops! No prize here!" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Admin" })).toBeVisible();
    await expect(page.getByRole("main")).toHaveCount(1);
  });

  test("the users and approvals pages have no axe violations in light and dark mode", async ({ page }) => {
    test.slow();
    const user = await createUser({ name: `${tag()} Axe`, credit: 4, label: "axe" });
    await createUser({ name: `${tag()} Axe Waiting`, approved: false, label: "axe" });
    for (const path of [
      "/admin/users",
      `/admin/users/${user.id}`,
      `/admin/users/${user.id}/edit`,
      "/admin/approvals",
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectAccessibleInBothSchemes(page, path);
    }
    // The edit page's refusal messages and the delete dialog.
    const edit = new EditUserPage(page);
    await edit.goto(user.id);
    await edit.adjust("", "");
    await expect(
      edit.credit.getByText("Give a reason for the adjustment (at least 3 characters)").first(),
    ).toBeVisible();
    await expectAccessibleInBothSchemes(page, "edit with errors");
    await edit.deleteButton.click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await expectAccessibleInBothSchemes(page, "delete dialog");
  });
});
