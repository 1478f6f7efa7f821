import { test, expect } from "./support/fixtures";
import { createUser } from "./support/backend";
import { EditUserPage } from "./support/pages/admin-users";
import { storageStatePath, type DemoUser } from "./support/users";
import { dashboardNav } from "../../config/nav";

// The browser half of the authorization matrix (issue 11 "Tests"): every admin route in the
// sidebar's list (config/nav.ts, so a section added later is covered), plus a user's page and its
// edit page, visited signed out, as a player, as an admin and as a super admin. Signed out goes to
// sign-in and comes back; a player gets the 403 page; admins and super admins get the page.
// Super-admin-only controls are not rendered for admins.

const SECTIONS = dashboardNav.admin.map((link) => link.href);

/** The routes to visit: every section, and one user's page and edit page. */
async function adminRoutes(): Promise<string[]> {
  const user = await createUser({ name: "Matrix Subject", label: "matrix" });
  return [...SECTIONS, `/admin/users/${user.id}`, `/admin/users/${user.id}/edit`];
}

test("the route list covers every admin section", () => {
  expect(SECTIONS).toContain("/admin");
  expect(SECTIONS).toContain("/admin/users");
  expect(SECTIONS).toContain("/admin/approvals");
  expect(SECTIONS.length).toBeGreaterThanOrEqual(10);
  expect(SECTIONS.every((href) => href === "/admin" || href.startsWith("/admin/"))).toBe(true);
});

test("signed out, every admin route sends the visitor to sign in and remembers where they were going", async ({
  page,
}) => {
  test.slow();
  for (const path of await adminRoutes()) {
    await page.goto(path);
    await expect(page, path).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(path).replace(/\//g, "%2F")}$`));
  }
});

test.describe("as an approved player", () => {
  test.use({ storageState: storageStatePath("player") });

  test("every admin route answers 403 with the access-denied page", async ({ page }) => {
    test.slow();
    for (const path of await adminRoutes()) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(
        page.getByRole("heading", { level: 1, name: "Access denied: Admin privileges required" }),
      ).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Admin", exact: true })).toHaveCount(0);
    }
  });
});

for (const who of ["admin", "superAdmin"] as DemoUser[]) {
  test.describe(`as ${who === "admin" ? "an admin" : "a super admin"}`, () => {
    test.use({ storageState: storageStatePath(who) });

    test("every admin route renders its page", async ({ page }) => {
      test.slow();
      for (const path of await adminRoutes()) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        await expect(page.getByRole("heading", { level: 1 }), path).toBeVisible();
        await expect(page.getByText("Access denied")).toHaveCount(0);
        await expect(page.getByRole("navigation", { name: "Admin", exact: true })).toBeVisible();
      }
    });

    test(`super-admin-only controls are ${who === "admin" ? "hidden" : "shown"}`, async ({ page }) => {
      const user = await createUser({ name: "Matrix Controls", label: "matrix" });
      const edit = new EditUserPage(page);
      await edit.goto(user.id);
      await expect(edit.details).toBeVisible();
      await expect(edit.credit).toBeVisible();
      await expect(edit.role).toHaveCount(who === "admin" ? 0 : 1);
      await expect(edit.deleteButton).toHaveCount(who === "admin" ? 0 : 1);
    });
  });
}
