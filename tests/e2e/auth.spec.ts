import { expectAccessibleInBothSchemes } from "./support/axe";
import { approveSignUp, caughtAppMail } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { CompetitionPage } from "./support/pages/competition";
import { DashboardPage, ProfilePage } from "./support/pages/account";
import { ApprovalsPage } from "./support/pages/admin";
import { Header } from "./support/pages/header";
import { SignInPage } from "./support/pages/sign-in";
import { SignUpPage } from "./support/pages/sign-up";
import { demoUsers, storageStatePath, uniqueEmail } from "./support/users";

test.describe("signing up", () => {
  test("a new account lands on the pending-approval page", async ({ page }) => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    await signUp.signUp({
      name: "Nina New",
      email: uniqueEmail("nina"),
      password: "Brand-new-1",
      dateOfBirth: "1999-04-04",
    });
    await expect(page).toHaveURL(/\/pending-approval$/);
    await expect(page.getByRole("heading", { name: "Your account is waiting for approval" })).toBeVisible();
    await expect(page.getByText("Thanks for joining, Nina New.")).toBeVisible();
  });

  test("an under-18 date of birth is refused", async ({ page }) => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    const dob = new Date();
    dob.setUTCFullYear(dob.getUTCFullYear() - 16);
    await signUp.signUp({
      name: "Young Person",
      email: uniqueEmail("young"),
      password: "Brand-new-1",
      dateOfBirth: dob.toISOString().slice(0, 10),
    });
    await expect(page.getByLabel("Date of birth")).toHaveAccessibleDescription(
      /You must be 18 or over to join LabCash$/,
    );
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("/register leads to the sign-up form", async ({ page }) => {
    await page.goto("/register");
    await expect(page).toHaveURL(/\/signup$/);
    await expect(new SignUpPage(page).heading).toBeVisible();
  });

  test("a weak password is refused with the list of reasons", async ({ page }) => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    await signUp.signUp({
      name: "Weak Pass",
      email: uniqueEmail("weak"),
      password: "short",
      dateOfBirth: "1990-01-01",
    });
    const password = page.getByLabel("Password", { exact: true });
    await expect(password).toHaveAccessibleDescription(/Use at least 8 characters.*Include a digit/);
  });
});

test.describe("signing in", () => {
  test("the approved demo player signs in and sees the balance", async ({ page }) => {
    await new SignInPage(page).signInToDashboard(demoUsers.player.email);
    const dashboard = new DashboardPage(page);
    await expect(dashboard.greeting(demoUsers.player.name)).toBeVisible();
    await expect(dashboard.creditBalance).toHaveText("£76.25");
  });

  test("wrong credentials are refused with a clear message", async ({ page }) => {
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(demoUsers.player.email, "Not-the-password-1");
    await expect(signIn.alert).toHaveText("That e-mail and password do not match an account.");
  });

  test("missing credentials get the spec's message", async ({ page }) => {
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.submit.click();
    await expect(signIn.alert).toHaveText("You must provide either an email or phone number and a password");
  });

  test("a visitor to /account/profile signs in and comes back there", async ({ page }) => {
    await page.goto("/account/profile");
    await expect(page).toHaveURL(/\/login\?next=%2Faccount%2Fprofile$/);
    await new SignInPage(page).signIn(demoUsers.player.email);
    await expect(page).toHaveURL(/\/account\/profile$/);
    await expect(new ProfilePage(page).heading).toBeVisible();
  });

  test("the session cookie has the attributes of spec §9", async ({ approvedPlayer: { page } }) => {
    const cookies = (await page.context().cookies()).filter((c) => /^sb-.+-auth-token(\.\d+)?$/.test(c.name));
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

  test("signing out from the account menu ends the session in one click", async ({
    approvedPlayer: { page, name },
  }) => {
    await page.goto("/account/entries");
    const menu = await new Header(page).openAccountMenu(name);
    await menu.getByRole("menuitem", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login\?next=%2Faccount$/);
  });
});

test.describe("approval and admin guards", () => {
  test.describe("as the unapproved user", () => {
    test.use({ storageState: storageStatePath("pending") });

    test("a non-exempt page sends them to /pending-approval, a cached one too, carrying the page", async ({ page }) => {
      // /pricing is a cached page the proxy sees only when a session cookie comes with it (proxy.ts's matcher).
      for (const path of ["/labspinner", "/pricing"]) {
        await page.goto(path);
        await expect(page).toHaveURL(`/pending-approval?next=${encodeURIComponent(path)}`);
        await expect(page.getByRole("heading", { name: "Your account is waiting for approval" })).toBeVisible();
      }
    });

    test("they can still read the competitions and the docs", async ({ page }) => {
      for (const path of ["/competitions", "/docs/getting-started"]) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        await expect(page).toHaveURL(new RegExp(`${path}$`));
      }
    });

    test("/register still opens the sign-up form (an exempt path)", async ({ page }) => {
      const response = await page.goto("/register");
      expect(response?.status()).toBe(200);
      await expect(page).toHaveURL(/\/signup$/);
      await expect(new SignUpPage(page).heading).toBeVisible();
    });

    test("their dashboard says the account is awaiting approval", async ({ page }) => {
      const dashboard = new DashboardPage(page);
      await dashboard.goto();
      await expect(dashboard.status).toContainText("Your account is waiting for approval");
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

test("an admin approves a new account: the waiting page notices when the player comes back to it and takes them on", async ({
  page,
  admin,
}) => {
  const email = uniqueEmail("approve-me");
  await page.clock.install();
  await page.goto("/signup?next=%2Fwinners");
  const signUp = new SignUpPage(page);
  await signUp.signUp({ name: "Olive Approve", email, password: "Brand-new-1", dateOfBirth: "1988-08-08" });
  await expect(page).toHaveURL("/pending-approval?next=%2Fwinners");
  await expect(
    page.getByText(/it notices the approval by itself and takes you on to the page you came from/),
  ).toBeVisible();
  // The player switches to another tab (the page stops asking while hidden), and the page keeps every status it
  // shows: the approval's lasts only until the next page replaces it.
  await page.evaluate(() => {
    const statuses: string[] = [];
    Object.assign(window, { waitedHere: true, statuses });
    new MutationObserver(() => {
      for (const status of document.querySelectorAll('[role="status"]'))
        if (status.textContent) statuses.push(status.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  });

  const approvals = new ApprovalsPage(admin);
  await approvals.goto();
  await expect(approvals.pending(email)).toBeVisible();
  await approvals.approve("Olive Approve");
  await expect(approvals.status).toHaveText("Approved Olive Approve. We have e-mailed them.");
  await expect(approvals.pending(email)).toHaveCount(0);

  // Back to the tab a while after the page last asked: it asks at once, without a reload, and moves on.
  await page.clock.fastForward(5_000);
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "visible" });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await expect(page).toHaveURL("/winners");
  const { waitedHere, statuses } = await page.evaluate(() => {
    const seen = window as unknown as { waitedHere: boolean; statuses: string[] };
    return { waitedHere: seen.waitedHere, statuses: seen.statuses };
  });
  expect(waitedHere).toBe(true);
  expect(statuses).toContain("You're approved: taking you on…");
  await page.goto("/account");
  await expect(page.getByText("Approved", { exact: true })).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("a player who signs up from a competition waits with margins, and the approval brings them back to it", async ({
    page,
    liveCompetition: competition,
  }) => {
    const email = uniqueEmail("phone-wait");
    await page.clock.install();
    await new CompetitionPage(page).goto(competition);
    await page.getByRole("link", { name: "Create an account" }).click();
    await new SignUpPage(page).signUp({
      name: "Piper Phone",
      email,
      password: "Brand-new-1",
      dateOfBirth: "1995-05-05",
    });
    await expect(page).toHaveURL(`/pending-approval?next=${encodeURIComponent(competition.path)}`);
    const heading = page.getByRole("heading", { name: "Your account is waiting for approval" });
    await expect(heading).toBeVisible();
    // Side margins: the text keeps clear of both edges of the screen.
    for (const text of [heading, page.getByText(/^Thanks for joining, Piper Phone\./)]) {
      const box = (await text.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(16);
      expect(box.x + box.width).toBeLessThanOrEqual(390 - 16);
    }
    await expectAccessibleInBothSchemes(page, "waiting for approval on a phone");

    await approveSignUp(email, "Piper Phone", "Brand-new-1");
    // The page asks again by itself while it is on screen.
    await expect(async () => {
      await page.clock.fastForward(15_000);
      await expect(page).toHaveURL(competition.path, { timeout: 2_000 });
    }).toPass();
    await expect(page.getByRole("heading", { level: 1, name: competition.title })).toBeVisible();

    // The e-mail and the notification lead back to the same page.
    const [approved] = (await caughtAppMail(email)).filter((m) => m.kind === "account_approved");
    const link = new URL(approved.body_text.split("Carry on where you left off: ")[1]);
    expect(link.pathname).toBe(competition.path);
    await page.goto("/account/notifications");
    await expect(page.getByRole("link", { name: "You're approved" })).toHaveAttribute("href", competition.path);
  });
});

test("an admin must give a reason to reject, and the waiting player sees it without reloading", async ({
  page,
  admin,
}) => {
  const email = uniqueEmail("reject-me");
  await page.clock.install();
  const signUp = new SignUpPage(page);
  await signUp.goto();
  await signUp.signUp({ name: "Rex Reject", email, password: "Brand-new-1", dateOfBirth: "1977-07-07" });
  await expect(page).toHaveURL(/\/pending-approval$/);
  await expect(page.getByRole("heading", { name: "Your account is waiting for approval" })).toBeVisible();
  await page.evaluate(() => Object.assign(window, { waitedHere: true }));

  const approvals = new ApprovalsPage(admin);
  await approvals.goto();
  await approvals.reject("Rex Reject");
  await expect(approvals.reasonRequired).toBeVisible();
  await approvals.reject("Rex Reject", "We could not verify your address.");
  await expect(approvals.status).toHaveText("Rejected Rex Reject. They will see your reason.");
  await expect(approvals.pending(email)).toHaveCount(0);

  // The waiting page asks again by itself while it is on screen, and shows the decision and its reason in place.
  await expect(async () => {
    await page.clock.fastForward(15_000);
    await expect(page.getByRole("heading", { name: "Your account was not approved" })).toBeVisible({
      timeout: 2_000,
    });
  }).toPass();
  await expect(page.getByText("We could not verify your address.")).toBeVisible();
  expect(await page.evaluate(() => (window as { waitedHere?: boolean }).waitedHere)).toBe(true);
});
