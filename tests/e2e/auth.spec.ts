import { expect, test } from "@playwright/test";
import { LoginPage, SignUpPage, signIn } from "./support/pages";
import { demoUsers, storageStatePath, uniqueEmail } from "./support/users";

test.describe("signing up", () => {
  test("a new account lands on the pending-approval page", async ({ page }) => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    await signUp.fill({ name: "Nina New", email: uniqueEmail("nina"), password: "Brand-new-1", dateOfBirth: "1999-04-04" });
    await signUp.submit();
    await expect(page).toHaveURL(/\/pending-approval$/);
    await expect(page.getByRole("heading", { name: "Your account is waiting for approval" })).toBeVisible();
    await expect(page.getByText("Thanks for joining, Nina New.")).toBeVisible();
  });

  test("an under-18 date of birth is refused", async ({ page }) => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    const dob = new Date();
    dob.setUTCFullYear(dob.getUTCFullYear() - 16);
    await signUp.fill({ name: "Young Person", email: uniqueEmail("young"), password: "Brand-new-1", dateOfBirth: dob.toISOString().slice(0, 10) });
    await signUp.submit();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("You must be 18 or over to join LabCash");
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("/register leads to the sign-up form", async ({ page }) => {
    await page.goto("/register");
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  });

  test("a weak password is refused with the list of reasons", async ({ page }) => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    await signUp.fill({ name: "Weak Pass", email: uniqueEmail("weak"), password: "short", dateOfBirth: "1990-01-01" });
    await signUp.submit();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("Use at least 8 characters");
    await expect(page.getByRole("main").getByRole("alert")).toContainText("Include a digit");
  });
});

test.describe("signing in", () => {
  test("the approved demo player signs in and sees the balance", async ({ page }) => {
    await signIn(page, demoUsers.player.email);
    await expect(page.getByRole("heading", { name: `Hello, ${demoUsers.player.name}` })).toBeVisible();
    await expect(page.getByTestId("credit-balance")).toHaveText("£76.25");
  });

  test("wrong credentials are refused with a clear message", async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(demoUsers.player.email, "Not-the-password-1");
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("That e-mail and password do not match an account.");
  });

  test("missing credentials get the spec's message", async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("You must provide either an email or phone number and a password");
  });

  test("a visitor to /account/profile signs in and comes back there", async ({ page }) => {
    await page.goto("/account/profile");
    await expect(page).toHaveURL(/\/login\?next=%2Faccount%2Fprofile$/);
    await new LoginPage(page).signIn(demoUsers.player.email);
    await expect(page).toHaveURL(/\/account\/profile$/);
    await expect(page.getByRole("heading", { name: "Profile settings" })).toBeVisible();
  });

  test("the session cookie has the attributes of spec §9", async ({ page, context }) => {
    await signIn(page, demoUsers.player.email);
    const cookies = (await context.cookies()).filter((c) => /^sb-.+-auth-token(\.\d+)?$/.test(c.name));
    expect(cookies.length).toBeGreaterThan(0);
    const lifetimeDays = (cookies[0].expires * 1000 - Date.now()) / 86_400_000;
    for (const cookie of cookies) {
      expect(cookie.path).toBe("/");
      expect(cookie.sameSite).toBe("Lax");
      expect(cookie.httpOnly).toBe(false);
      expect(cookie.value.length).toBeLessThanOrEqual(3180);
    }
    expect(lifetimeDays).toBeGreaterThan(399);
    expect(lifetimeDays).toBeLessThan(401);
    const first = cookies.find((c) => !c.name.endsWith(".1")) ?? cookies[0];
    expect(first.value.startsWith("base64-")).toBe(true);
  });

  test("signing out ends the session", async ({ page }) => {
    await signIn(page, demoUsers.player.email);
    await page.goto("/logout");
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login\?next=%2Faccount$/);
  });
});

test.describe("approval and admin guards", () => {
  test.describe("as the unapproved user", () => {
    test.use({ storageState: storageStatePath("pending") });

    test("a non-exempt page sends them to /pending-approval", async ({ page }) => {
      await page.goto("/labspinner");
      await expect(page).toHaveURL(/\/pending-approval$/);
      await expect(page.getByRole("heading", { name: "Your account is waiting for approval" })).toBeVisible();
    });

    test("they can still read the competitions and the docs", async ({ page }) => {
      for (const path of ["/competitions", "/docs/getting-started"]) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        await expect(page).toHaveURL(new RegExp(`${path}$`));
      }
    });

    test("their dashboard says the account is awaiting approval", async ({ page }) => {
      await page.goto("/account");
      await expect(page.getByRole("status")).toContainText("Your account is waiting for approval");
    });
  });

  test.describe("as an approved non-admin", () => {
    test.use({ storageState: storageStatePath("player") });

    test("/admin answers 403 with the spec's message", async ({ page }) => {
      const response = await page.goto("/admin");
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "Access denied: Admin privileges required" })).toBeVisible();
    });

    test("the pending-approval page sends an approved user on to the dashboard", async ({ page }) => {
      await page.goto("/pending-approval");
      await expect(page).toHaveURL(/\/account$/);
    });
  });

  test.describe("as an admin", () => {
    test.use({ storageState: storageStatePath("admin") });

    test("/admin opens", async ({ page }) => {
      const response = await page.goto("/admin");
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { name: "Admin dashboard" })).toBeVisible();
    });
  });
});

test("an admin approves a new account and it takes effect on the user's next page load", async ({ page, browser }) => {
  const email = uniqueEmail("approve-me");
  const signUp = new SignUpPage(page);
  await signUp.goto();
  await signUp.fill({ name: "Olive Approve", email, password: "Brand-new-1", dateOfBirth: "1988-08-08" });
  await signUp.submit();
  await expect(page).toHaveURL(/\/pending-approval$/);

  const adminContext = await browser.newContext({ storageState: storageStatePath("admin") });
  const admin = await adminContext.newPage();
  await admin.goto("/admin/approvals");
  await expect(admin.getByText(email)).toBeVisible();
  await admin.getByRole("button", { name: "Approve Olive Approve" }).click();
  await expect(admin.getByRole("status")).toHaveText("Approved Olive Approve. We have e-mailed them.");
  await expect(admin.getByText(email)).toHaveCount(0);
  await adminContext.close();

  await page.goto("/pending-approval");
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText("Approved", { exact: true })).toBeVisible();
});

test("an admin must give a reason to reject, and the user sees it", async ({ page, browser }) => {
  const email = uniqueEmail("reject-me");
  const signUp = new SignUpPage(page);
  await signUp.goto();
  await signUp.fill({ name: "Rex Reject", email, password: "Brand-new-1", dateOfBirth: "1977-07-07" });
  await signUp.submit();
  await expect(page).toHaveURL(/\/pending-approval$/);

  const adminContext = await browser.newContext({ storageState: storageStatePath("admin") });
  const admin = await adminContext.newPage();
  await admin.goto("/admin/approvals");
  await admin.getByRole("button", { name: "Reject Rex Reject" }).click();
  await expect(admin.getByText("Give a reason of at least 3 characters").first()).toBeVisible();
  await admin.getByLabel("Reason for rejecting Rex Reject").fill("We could not verify your address.");
  await admin.getByRole("button", { name: "Reject Rex Reject" }).click();
  await expect(admin.getByRole("status")).toHaveText("Rejected Rex Reject. They will see your reason.");
  await expect(admin.getByText(email)).toHaveCount(0);
  await adminContext.close();

  await page.reload();
  await expect(page.getByRole("heading", { name: "Your account was not approved" })).toBeVisible();
  await expect(page.getByText("We could not verify your address.")).toBeVisible();
});
