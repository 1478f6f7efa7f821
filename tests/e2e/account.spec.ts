import { expect, test } from "@playwright/test";
import { caughtMail, createUser } from "./support/backend";
import { LoginPage, signIn } from "./support/pages";
import { DEMO_PASSWORD } from "./support/users";

test("a forgotten password is reset through the e-mailed link", async ({ page }) => {
  const user = await createUser({ name: "Fern Forgetful", label: "forgetful" });
  await page.goto("/auth/reset-password");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("If an account exists for that e-mail, a reset link is on its way.");

  const [mail] = await caughtMail(user.email);
  expect(mail.subject).toBe("Reset your LabCash password");
  const link = new URL(/https?:\/\/\S+\/auth\/confirm\?\S+/.exec(mail.body)![0]);
  await page.goto(link.pathname + link.search);
  await expect(page).toHaveURL(/\/auth\/reset-password$/);
  await page.getByLabel("New password").fill("weak");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Password is too weak");
  await page.getByLabel("New password").fill("Fresh-start-42");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Your password has been changed.");

  await page.goto("/logout");
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(user.email, DEMO_PASSWORD);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("That e-mail and password do not match an account.");
  await login.signIn(user.email, "Fresh-start-42");
  await expect(page).toHaveURL(/\/account$/);
});

test("a used or forged reset link is refused", async ({ page }) => {
  await page.goto("/auth/confirm?token_hash=not-a-real-token&type=recovery");
  await expect(page).toHaveURL(/\/login\?error=/);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("That link is invalid or has expired. Please request a new one.");
});

test("profile settings save the name and e-mail choice, and validate", async ({ page }) => {
  const user = await createUser({ name: "Piet Profile", label: "profile" });
  await signIn(page, user.email);
  await page.goto("/account/profile");
  await page.getByLabel("Name").fill("   ");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Enter your name");

  await page.getByLabel("Name").fill("Piet P. Profile");
  await page.getByLabel("Town (optional)").fill("Harrogate");
  await page.getByLabel("E-mail me about new competitions and results").uncheck();
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Profile saved.");
  await page.reload();
  await expect(page.getByLabel("Name")).toHaveValue("Piet P. Profile");
  await expect(page.getByLabel("Town (optional)")).toHaveValue("Harrogate");
  await expect(page.getByLabel("E-mail me about new competitions and results")).not.toBeChecked();
});

test("changing the password from the profile uses the update-password API", async ({ page, request }) => {
  const user = await createUser({ name: "Cora Change", label: "change" });
  await signIn(page, user.email);
  await page.goto("/account/profile");
  await page.getByLabel("New password").fill("Another-good-1");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Your password has been changed.");

  // Signed out, the route answers the spec's message.
  const anonymous = await request.post("/api/auth/update-password", { data: { newPassword: "Whatever-1" } });
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.json()).toEqual({ statusCode: 401, statusMessage: "User not authenticated" });
});
