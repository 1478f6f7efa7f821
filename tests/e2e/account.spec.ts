import { expect, test } from "./support/fixtures";
import { caughtMail, recoveryLink } from "./support/backend";
import { ProfilePage } from "./support/pages/account";
import { ResetPasswordPage, SignInPage, signOut } from "./support/pages/sign-in";
import { uniqueEmail } from "./support/users";

test("a forgotten password is reset through the e-mailed link", async ({ page, approvedAccount: user }) => {
  const reset = new ResetPasswordPage(page);
  await reset.goto();
  await reset.email.fill(user.email);
  await reset.sendLink.click();
  await expect(reset.status).toHaveText("If an account exists for that e-mail, a reset link is on its way.");

  const [mail] = await caughtMail(user.email);
  expect(mail.subject).toBe("Reset your LabCash password");
  const link = new URL(/https?:\/\/\S+\/auth\/confirm\?\S+/.exec(mail.body)![0]);
  await page.goto(link.pathname + link.search);
  await expect(page).toHaveURL(/\/auth\/reset-password$/);
  await reset.newPassword.fill("weak");
  await reset.setNewPassword.click();
  await expect(reset.newPassword).toHaveAccessibleDescription(/Password is too weak/);
  await reset.newPassword.fill("Fresh-start-42");
  await reset.setNewPassword.click();
  await expect(reset.status).toHaveText("Your password has been changed.");

  await signOut(page);
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(user.email, user.password);
  await expect(signIn.alert).toHaveText("That e-mail and password do not match an account.");
  await signIn.signIn(user.email, "Fresh-start-42");
  await expect(page).toHaveURL(/\/account$/);
});

test("a used or forged reset link is refused", async ({ page }) => {
  await page.goto(`/auth/confirm?email=${encodeURIComponent(uniqueEmail("forged"))}&code=12345678&type=recovery`);
  await expect(page).toHaveURL(/\/login\?error=/);
  await expect(new SignInPage(page).alert).toHaveText("That link is invalid or has expired. Please request a new one.");
});

test("profile settings save the name and town, and validate", async ({ approvedPlayer: { page } }) => {
  const profile = new ProfilePage(page);
  await profile.goto();
  await profile.name.fill("   ");
  await profile.saveProfile.click();
  await expect(profile.name).toHaveAccessibleDescription("Enter your name");

  await profile.name.fill("Piet P. Profile");
  await profile.town.fill("Harrogate");
  await profile.saveProfile.click();
  await expect(profile.status).toHaveText("Profile saved.");
  await page.reload();
  await expect(profile.name).toHaveValue("Piet P. Profile");
  await expect(profile.town).toHaveValue("Harrogate");

  // The help assistant is on the account pages too, and never answers about the account: it says where to look.
  await page.getByLabel("Ask about LabCash").fill("What is my balance?");
  await page.getByRole("button", { name: "Send prompt" }).click();
  await expect(page.getByRole("link", { name: "Go to Account › Credits" })).toHaveAttribute("href", "/account/credits");
});

test("changing the password from the profile needs the current one and uses the update-password API", async ({
  approvedPlayer: { page, email, password },
  request,
}) => {
  const profile = new ProfilePage(page);
  await profile.goto();
  await profile.newPassword.fill("Another-good-1");
  await profile.changePassword.click();
  await expect(profile.currentPassword).toHaveAccessibleDescription("Enter your current password");
  await expect(profile.currentPassword).toBeFocused();
  // A refused attempt keeps what was typed: only the current password needs giving.
  await expect(profile.newPassword).toHaveValue("Another-good-1");
  await profile.currentPassword.fill("not-my-password");
  await profile.changePassword.click();
  await expect(profile.currentPassword).toHaveAccessibleDescription("Your current password is not right");
  await profile.currentPassword.fill(password);
  await profile.newPassword.fill("Another-good-1");
  await profile.changePassword.click();
  await expect(profile.status).toHaveText("Your password has been changed.");

  await signOut(page);
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(email, "Another-good-1");
  await expect(page).toHaveURL(/\/account$/);

  // Signed out, the route answers the spec's message.
  const anonymous = await request.post("/api/auth/update-password", { data: { newPassword: "Whatever-1" } });
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.json()).toEqual({ statusCode: 401, statusMessage: "User not authenticated" });
});

test("another site cannot change a signed-in player's password", async ({ approvedPlayer: { page } }) => {
  // The player's own cookies ride along (page.request shares the browser context), as they would
  // on a form or fetch from a page on another origin of the same site.
  const attempts: { headers: Record<string, string>; status: number }[] = [
    { headers: { Origin: "http://evil.127.0.0.1.nip.io", "Content-Type": "application/json" }, status: 403 },
    { headers: { "Sec-Fetch-Site": "same-site", "Content-Type": "application/json" }, status: 403 },
    { headers: { "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json" }, status: 403 },
    { headers: { "Content-Type": "text/plain" }, status: 415 },
  ];
  for (const { headers, status } of attempts) {
    const response = await page.request.post("/api/auth/update-password", {
      headers,
      data: JSON.stringify({ newPassword: "Stolen-pass-1" }),
    });
    expect(response.status(), JSON.stringify(headers)).toBe(status);
  }
  // A same-origin JSON request without the current password changes nothing either.
  const withoutCurrent = await page.request.post("/api/auth/update-password", {
    data: { newPassword: "Stolen-pass-1" },
  });
  expect(withoutCurrent.status()).toBe(400);
  expect((await withoutCurrent.json()).statusMessage).toBe("Enter your current password");
});

test("an e-mailed link never sends the visitor to another host, whatever its next says", async ({
  approvedAccount: user,
  playwright,
  baseURL,
}) => {
  // A fresh request context per link: each link signs in, and the next must start signed out.
  for (const next of [
    "/.//evil.example",
    "/x/..//evil.example",
    "/%2e//evil.example",
    "/\t/evil.example",
    "//evil.example",
  ]) {
    const link = await recoveryLink(user.email);
    link.searchParams.set("next", next);
    const visitor = await playwright.request.newContext({ baseURL });
    const response = await visitor.get(link.pathname + link.search, { maxRedirects: 0 });
    expect(response.status(), next).toBe(303);
    expect(response.headers().location, next).toBe("/auth/reset-password");
    await visitor.dispose();
  }
});
