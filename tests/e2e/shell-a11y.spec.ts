import { axeViolations, expectAccessibleInBothSchemes } from "./support/axe";
import { createUser } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { Header } from "./support/pages/header";
import { storageStatePath } from "./support/users";

// Checked where their own specs check them: /docs (with an answer) in shell-docs, /complaints in complaints and
// /labspinner in labspinner.
const publicPages = [
  "/",
  "/docs/getting-started",
  "/docs/fair-draws",
  "/docs/legal/privacy-policy",
  "/docs/legal/code-of-practice",
  "/blog",
  "/blog/welcome-to-labcash",
  "/pricing",
  "/competitions",
  "/competitions/example",
  "/winners",
  "/transparency",
  "/charities",
  "/notifications-test",
  "/confetti-test",
  "/no-such-page",
];

// Each page is loaded once and checked in the light and then the dark scheme (support/axe.ts).
for (const path of publicPages) {
  test(`${path} has no axe violations in light and dark mode`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
    await page.goto(path);
    if (path === "/confetti-test") {
      // Forced dark whatever the device says: the document follows once hydrated.
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      expect(await axeViolations(page)).toEqual([]);
      return;
    }
    // Wait for hydration so client-only controls are in their final state.
    await expect(new Header(page).themeToggle()).toBeEnabled();
    await expectAccessibleInBothSchemes(page);
  });
}

// Signed-in screens: the header's account menu, the dashboard layout and the forms.
const signedInPages = {
  player: ["/account", "/account/credits", "/account/entries", "/account/profile", "/competitions/iphone-17-pro-max"],
  pending: ["/pending-approval", "/account"],
} as const;
// Checked where their own specs check them: /competitions-demo in players-notices, every admin page in admin-console
// and admin-users.

for (const [user, paths] of Object.entries(signedInPages) as [keyof typeof signedInPages, readonly string[]][]) {
  test.describe(`signed in as ${user}`, () => {
    test.use({ storageState: storageStatePath(user) });
    for (const path of paths) {
      test(`${path} has no axe violations in light and dark mode`, async ({ page }) => {
        await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
        await page.goto(path);
        await expect(page).toHaveURL(new RegExp(`${path}$`));
        await expect(new Header(page).accountMenuButton()).toBeEnabled();
        await expectAccessibleInBothSchemes(page);
      });
    }
  });
}

test.describe("the approval queue", () => {
  test.use({ storageState: storageStatePath("admin") });

  test("two people waiting with the same name leave every landmark uniquely named", async ({ page }) => {
    await Promise.all([
      createUser({ name: "Sam Same", approved: false, label: "same-name" }),
      createUser({ name: "Sam Same", approved: false, label: "same-name" }),
    ]);
    await page.goto("/admin/approvals");
    await expect(page.getByRole("button", { name: "Approve Sam Same" })).toHaveCount(2);
    await expect(new Header(page).accountMenuButton()).toBeEnabled();
    expect(await axeViolations(page)).toEqual([]);
  });
});
