import { test as setup } from "@playwright/test";
import { SignInPage } from "./support/pages/sign-in";
import { demoUsers, storageStatePath, type DemoUser } from "./support/users";

// Sign each demo user in once through the real form and keep the browser state.
for (const user of Object.keys(demoUsers) as DemoUser[]) {
  setup(`sign in as ${user}`, async ({ page }) => {
    await new SignInPage(page).signInToDashboard(demoUsers[user].email);
    await page.context().storageState({ path: storageStatePath(user) });
  });
}
