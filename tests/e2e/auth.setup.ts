import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, test as setup } from "@playwright/test";
import { SignInPage } from "./support/pages/sign-in";
import { TwoStepPage } from "./support/pages/two-step";
import { demoUsers, storageStatePath, twoStepKeyPath, type DemoUser } from "./support/users";

// Sign each demo user in once through the real form and keep the browser state. The admins' first
// visit to the console has them confirm a code e-mailed to them and set up two-step verification, as it
// would on a fresh site; their
// sessions are then aal2, and the key is kept for fixtures that sign them in again (support/backend.ts).
for (const user of Object.keys(demoUsers) as DemoUser[]) {
  setup(`sign in as ${user}`, async ({ page }) => {
    await new SignInPage(page).signInToDashboard(demoUsers[user].email);
    if (user === "admin" || user === "superAdmin") {
      await page.goto("/admin");
      await expect(page).toHaveURL(/\/account\/two-step\?next=%2Fadmin$/);
      const key = await new TwoStepPage(page).setUpAuthenticator(demoUsers[user].email);
      await expect(page).toHaveURL(/\/admin$/);
      await mkdir(path.dirname(twoStepKeyPath(user)), { recursive: true });
      await writeFile(twoStepKeyPath(user), key);
    }
    await page.context().storageState({ path: storageStatePath(user) });
  });
}
