import { readFile } from "node:fs/promises";
import { test, expect } from "./support/fixtures";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { createUser } from "./support/backend";
import { Header } from "./support/pages/header";
import { ActivityPage, AdminDashboardPage, AdminShell } from "./support/pages/admin";
import { storageStatePath } from "./support/users";

// The admin console's frame (sidebar, breadcrumbs, phone menu), the dashboard and the activity log
// and the guard on every admin route.

/** Every admin section in the sidebar, in order, with where it goes. */
const SECTIONS: [string, string][] = [
  ["Dashboard", "/admin"],
  ["Users", "/admin/users"],
  ["Approvals", "/admin/approvals"],
  ["Competitions", "/admin/competitions"],
  ["Competition history", "/admin/competitions/history"],
  ["Winners", "/admin/competitions/winners"],
  ["Activity", "/admin/activity"],
  ["Mail", "/admin/mail"],
  ["Settings", "/admin/settings"],
  ["Player protection", "/admin/protection"],
  ["Complaints", "/admin/complaints"],
  ["LabSpinner", "/admin/labspinner"],
];

/** The pages this part adds or frames (approvals had its own checks already). */
const ADMIN_PAGES = SECTIONS.map(([, path]) => path).filter((path) => path !== "/admin/approvals");

/** Today in the UK, as the dashboard's table writes a day. */
const todayLabel = () =>
  new Intl.DateTimeFormat("en-GB", {
    weekday: "short",
    day: "numeric",
    month: "long",
    timeZone: "Europe/London",
  }).format(new Date());

test.describe("as an admin", () => {
  test.use({ storageState: storageStatePath("admin") });

  test("the sidebar lists every section, and collapsing it is remembered across reloads", async ({ page }) => {
    const shell = new AdminShell(page);
    await page.goto("/admin");
    for (const [name, path] of SECTIONS) await expect(shell.section(name)).toHaveAttribute("href", path);
    await expect(shell.section("Dashboard")).toHaveAttribute("aria-current", "page");

    await shell.collapseButton.click();
    await expect(shell.expandButton).toBeVisible();
    // Collapsed to icons: the names stay for assistive technology and as tooltips.
    await expect(shell.section("Activity")).toHaveAttribute("title", "Activity");
    await expect(shell.sections.getByText("Activity", { exact: true })).toHaveClass(/sr-only/);

    await page.reload();
    await expect(shell.expandButton).toBeVisible();
    await expect(shell.collapseButton).toHaveCount(0);
    // The server renders it collapsed, so there is no expanded first paint.
    const html = await (await page.request.get("/admin/activity")).text();
    expect(html).toContain('aria-label="Expand sidebar"');
    expect(html).not.toContain('aria-label="Collapse sidebar"');

    await shell.expandButton.click();
    await expect(shell.collapseButton).toBeVisible();
    await page.reload();
    await expect(shell.collapseButton).toBeVisible();
    await expect(shell.sections.getByText("Activity", { exact: true })).not.toHaveClass(/sr-only/);
  });

  test("breadcrumbs lead back up through the sections", async ({ page }) => {
    const shell = new AdminShell(page);
    await page.goto("/admin/competitions/history");
    await expect(page.getByRole("heading", { level: 1, name: "Competition history" })).toBeVisible();
    await expect(shell.breadcrumbs.getByRole("link")).toHaveText(["Dashboard", "Competitions"]);
    await expect(shell.currentCrumb()).toHaveText("Competition history");
    await expect(shell.section("Competition history")).toHaveAttribute("aria-current", "page");
    await shell.breadcrumbs.getByRole("link", { name: "Competitions" }).click();
    await expect(page).toHaveURL(/\/admin\/competitions$/);
    await expect(shell.currentCrumb()).toHaveText("Competitions");
    await shell.breadcrumbs.getByRole("link", { name: "Dashboard" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(shell.currentCrumb()).toHaveText("Dashboard");
  });

  test("on a phone the sections are a menu that closes after choosing one", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const shell = new AdminShell(page);
    await page.goto("/admin");
    await expect(shell.sections).toBeHidden();
    await expect(shell.collapseButton).toBeHidden();
    await expect(shell.menuButton).toHaveAttribute("aria-expanded", "false");
    await shell.menuButton.click();
    await expect(shell.sections).toBeVisible();
    await shell.section("Activity").click();
    await expect(page).toHaveURL(/\/admin\/activity$/);
    await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
    await expect(shell.sections).toBeHidden();
    await expect(shell.menuButton).toHaveAttribute("aria-expanded", "false");
  });

  test("the dashboard shows the figures and the last 30 days, each chart with a table", async ({ page }) => {
    // Someone signs up today (the queue itself may be emptied by another test meanwhile).
    await createUser({ name: "Dee Dashboard", approved: false, label: "dashboard" });
    const dashboard = new AdminDashboardPage(page);
    await dashboard.goto();
    await expect(page.getByRole("heading", { level: 1, name: "Admin dashboard" })).toBeVisible();
    for (const label of ["Players", "Pending approvals", "Live competitions", "Open complaints"]) {
      await expect(dashboard.figure(label)).toHaveText(/^\d[\d,]*$/);
    }

    for (const title of ["Sign-ups", "Tickets sold", "Credit sold"]) {
      await expect(dashboard.chart(title).getByRole("img", { name: new RegExp(`^${title}, `) })).toBeVisible();
    }
    const signups = await dashboard.table("Sign-ups");
    await expect(signups.locator("tbody tr")).toHaveCount(30);
    const today = signups.getByRole("row", { name: new RegExp(`^${todayLabel()} `) });
    await expect(today).toBeVisible();
    expect(Number(await today.getByRole("cell").textContent())).toBeGreaterThan(0);
    const credit = await dashboard.table("Credit sold");
    await expect(credit.locator("tbody tr").last().getByRole("cell")).toHaveText(/^£[\d,]+\.\d\d$/);
  });

  test("the activity log filters, pages and downloads as CSV", async ({ page }) => {
    test.slow();
    // 26 accounts signed up and approved: 52 rows about them, more than one page of 50.
    const tag = `Pager${Date.now().toString(36)}`;
    const users = [];
    for (let i = 0; i < 26; i += 1) users.push(await createUser({ name: `${tag} ${i}`, label: "activity" }));

    const activity = new ActivityPage(page);
    await activity.goto();
    await activity.filterBy({ subject: tag });
    await expect(page).toHaveURL(new RegExp(`subject=${tag}`));
    await expect(activity.rows()).toHaveCount(50);
    await expect(activity.newer).toHaveCount(0);
    await activity.older.click();
    await expect(activity.rows()).toHaveCount(2);
    await expect(activity.older).toHaveCount(0);
    // The oldest two: the first account's sign-up (nobody acting: the system) and approval.
    await expect(activity.rows().last()).toContainText("User signed up");
    await expect(activity.rows().last()).toContainText("System");
    await activity.newer.click();
    await expect(activity.rows()).toHaveCount(50);

    // Narrowed to one kind and one account: the approval, by the demo admin.
    await activity.filterBy({ kind: "user.approved", subject: users[3].email });
    await expect(activity.rows()).toHaveCount(1);
    await expect(activity.rows().first()).toContainText("User approved");
    await expect(activity.rows().first()).toContainText("Alex Admin");
    await expect(activity.rows().first()).toContainText(`${tag} 3 (${users[3].email})`);
    // In words, each name linked to its admin page; the time in the UK, on one line.
    const approval = activity.rows().first();
    await expect(approval.getByRole("paragraph")).toHaveText(`Alex Admin approved ${tag} 3.`);
    await expect(approval.getByRole("link", { name: `${tag} 3`, exact: true })).toHaveAttribute(
      "href",
      `/admin/users/${users[3].id}`,
    );
    await expect(approval.locator("time")).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d (GMT|BST)$/);
    // On a phone each row is a card that reads as a sentence, nothing wider than the screen, the time on one
    // line; no axe violations there in either scheme.
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(approval.getByRole("paragraph")).toBeVisible();
    const timeLines = await approval
      .locator("time")
      .evaluate((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight));
    expect(timeLines).toBeLessThan(1.5);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessibleInBothSchemes(page, "/admin/activity on a phone");
    await page.setViewportSize(desktop);
    // Dates: nothing before today is about these accounts.
    await activity.filterBy({ kind: "", subject: tag, from: "2000-01-01", to: "2000-01-31" });
    await expect(page.getByText("No activity matches this filter.")).toBeVisible();

    // The CSV holds the whole filter, not just the page shown.
    await activity.filterBy({ subject: tag, from: "", to: "" });
    await expect(activity.rows()).toHaveCount(50);
    const [download] = await Promise.all([page.waitForEvent("download"), activity.downloadCsv.click()]);
    expect(download.suggestedFilename()).toMatch(/^labcash-activity-\d{4}-\d\d-\d\d\.csv$/);
    const lines = (await readFile((await download.path())!, "utf8")).trimEnd().split("\n");
    expect(lines[0]).toBe(
      "id,created_at,action,actor_id,actor,actor_email,subject_id,subject_kind,subject,details,details_json",
    );
    expect(lines).toHaveLength(53);
    expect(lines.filter((line) => line.includes(",user.approved,"))).toHaveLength(26);
    // The details column is the sentence the screen shows; the recorded JSON is last.
    expect(lines.find((line) => line.includes(`,Alex Admin approved ${tag} 3.,`))).toMatch(/,\{\}$/);
  });

  test("a bad filter value is dropped with a note rather than an error", async ({ page }) => {
    const activity = new ActivityPage(page);
    await activity.goto("?kind=DROP%20TABLE&from=2026-05-02&to=2026-05-01");
    await expect(page.getByText("“DROP TABLE” is not a kind of activity, so every kind is shown.")).toBeVisible();
    await expect(page.getByText("The start date was after the end date, so neither date was used.")).toBeVisible();
    await expect(activity.table).toBeVisible();
  });

  // The sections whose own specs check no page of them as it first opens; each of the others is checked there, in
  // the states it tests (admin-competitions, -mail, -settings, -protection, -labspinner and the dashboard below).
  // One test per page, so they spread over the workers; each page is loaded once for both schemes.
  for (const path of ["/admin/users", "/admin/activity"]) {
    test(`${path} has no axe violations in light and dark mode`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
      await page.goto(path);
      await expect(new Header(page).accountMenuButton()).toBeEnabled();
      await expectAccessibleInBothSchemes(page, path);
    });
  }

  test("the dashboard's open tables, collapsed frame and phone menu have no axe violations in light and dark mode", async ({
    page,
  }) => {
    // Three page states, each two full axe runs (light, then dark, on the same load).
    test.slow();
    await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
    const dashboard = new AdminDashboardPage(page);
    await dashboard.goto();
    for (const title of ["Sign-ups", "Tickets sold", "Credit sold"]) await dashboard.table(title);
    await expectAccessibleInBothSchemes(page, "/admin with tables");
    const shell = new AdminShell(page);
    await shell.collapseButton.click();
    await expect(shell.expandButton).toBeVisible();
    await expectAccessibleInBothSchemes(page, "collapsed sidebar");
    await page.setViewportSize({ width: 390, height: 844 });
    await shell.menuButton.click();
    await expect(shell.sections).toBeVisible();
    await expectAccessibleInBothSchemes(page, "phone menu");
  });
});

test.describe("as an approved player", () => {
  test.use({ storageState: storageStatePath("player") });

  test("every admin route added here answers 403 with the access-denied page", async ({ page }) => {
    for (const path of [...ADMIN_PAGES, "/admin/activity?kind=user", "/admin/activity/export"]) {
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(403);
      if (!path.endsWith("/export")) {
        expect(await response.text(), path).toMatch(/<h1[^>]*>Access denied: Admin privileges required<\/h1>/);
      }
    }
  });
});

test("a signed-out visitor is sent to sign in, and the CSV is not served", async ({ page }) => {
  await page.goto("/admin/activity");
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin%2Factivity$/);
  const response = await page.request.get("/admin/activity/export", { maxRedirects: 0 });
  expect(response.status()).toBe(307);
  expect(response.headers().location).toMatch(/\/login\?next=%2Fadmin%2Factivity%2Fexport$/);
});
