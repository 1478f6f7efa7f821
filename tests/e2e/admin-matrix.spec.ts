import { test, expect } from "./support/fixtures";
import { createUser } from "./support/backend";
import { EditUserPage } from "./support/pages/admin-users";
import { storageStatePath, type DemoUser } from "./support/users";
import { dashboardNav } from "../../config/nav";

// The browser half of the authorization matrix: every admin route in the
// sidebar's list (config/nav.ts, so a section added later is covered), plus a user's page and its
// edit page, visited signed out, as a player, as an admin and as a super admin. Signed out goes to
// sign-in and comes back; a player gets the 403 page; admins and super admins get the page.
// Super-admin-only controls are not rendered for admins. Each row is a status, a redirect or the page's HTML,
// so they are plain HTTP requests; the controls are checked in Chromium.

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
  request,
}) => {
  for (const path of await adminRoutes()) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(307);
    expect(response.headers().location, path).toBe(`/login?next=${encodeURIComponent(path)}`);
  }
});

test.describe("as an approved player", () => {
  test.use({ storageState: storageStatePath("player") });

  test("every admin route answers 403 with the access-denied page", async ({ page }) => {
    for (const path of await adminRoutes()) {
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(403);
      const html = await response.text();
      expect(html, path).toMatch(/<h1[^>]*>Access denied: Admin privileges required<\/h1>/);
      expect(html, path).not.toContain('aria-label="Admin"');
    }
  });
});

for (const who of ["admin", "superAdmin"] as DemoUser[]) {
  test.describe(`as ${who === "admin" ? "an admin" : "a super admin"}`, () => {
    test.use({ storageState: storageStatePath(who) });

    // The pages' HTML as the server renders it; admin-console.spec renders each section in Chromium.
    test("every admin route renders its page", async ({ page }) => {
      for (const path of await adminRoutes()) {
        const response = await page.request.get(path, { maxRedirects: 0 });
        expect(response.status(), path).toBe(200);
        const html = await response.text();
        expect(html, path).toMatch(/<h1[^>]*>[^<]+/);
        expect(html, path).not.toMatch(/<h1[^>]*>Access denied/);
        expect(html, path).toContain('aria-label="Admin"');
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
