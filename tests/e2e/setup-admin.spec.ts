import { execFileSync } from "node:child_process";
import { EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { E2E_BACKEND_PORT, e2eBaseURL } from "../../scripts/e2e-ports.mjs";
import { caughtMail } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { SignInPage, signOut } from "./support/pages/sign-in";
import { TwoStepPage } from "./support/pages/two-step";
import { uniqueEmail } from "./support/users";

// The go-live step "invite the first super admin": `npm run setup:admin` as an operator runs it (its script, with
// the project in the environment), then the invited operator accepts in the browser, chooses a password and sets
// up two-step verification on the first visit to the console. The demo data already has a super admin, hence
// --another.

test("an operator invited by npm run setup:admin accepts, chooses a password and sets up two-step in the console", async ({
  page,
}) => {
  const email = uniqueEmail("operator");
  const password = "Operator-pass-42";
  const said = execFileSync(process.execPath, ["--import", "tsx", "scripts/setup-admin.ts", email, "--another"], {
    env: {
      ...process.env,
      NEXT_PUBLIC_SUPABASE_URL: `http://127.0.0.1:${E2E_BACKEND_PORT}`,
      SUPABASE_SECRET_KEY: EMBEDDED_SECRET_KEY,
      SITE_URL: e2eBaseURL,
    },
    encoding: "utf8",
  });
  expect(said).toContain(`Invited ${email}.`);

  const invitation = (await caughtMail(email)).find((m) => m.kind === "invite");
  const link = /https?:\/\/\S+\/auth\/confirm\?\S+/.exec(invitation?.body ?? "");
  expect(link, "the invitation carries a link to /auth/confirm").not.toBeNull();
  await page.goto(link![0]);
  await expect(page).toHaveURL(/\/auth\/set-password$/);
  await expect(page.getByRole("heading", { name: "Choose your password", level: 1 })).toBeVisible();

  const main = page.getByRole("main");
  await main.getByLabel("New password", { exact: true }).fill("short");
  await main.getByRole("button", { name: "Set password" }).click();
  await expect(main.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(/at least 8 characters/i);
  await main.getByLabel("New password", { exact: true }).fill(password);
  await main.getByRole("button", { name: "Set password" }).click();
  await expect(main.getByRole("status")).toHaveText("Your password has been changed.");

  await main.getByRole("link", { name: "go to the admin console" }).click();
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Fadmin$/);
  const key = await new TwoStepPage(page).setUpAuthenticator(email);
  await expect(page).toHaveURL(/\/admin$/);

  // The password they chose is theirs from now on, with the authenticator's code after it.
  await signOut(page);
  await new SignInPage(page).goto("/admin");
  await new SignInPage(page).signIn(email, password);
  await expect(page).toHaveURL(/\/account\/two-step\?next=%2Fadmin$/);
  await new TwoStepPage(page).giveCode(key);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/settings");
  // The money settings are a super admin's alone: the invitation gave the role.
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Top-up minimum (£)")).toBeEditable();
});
