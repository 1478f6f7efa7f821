import { expectAccessibleInBothSchemes } from "./support/axe";
import { createCompetition, createUser } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { AdminDashboardPage } from "./support/pages/admin";
import { storageStatePath } from "./support/users";

// What an operator tripped over: "Live" counted an opening-soon competition, the admin tables overflowed a
// phone, Reject looked like Approve (now tested in admin-approvals.spec.ts), and the activity log showed raw kinds.

test.use({ storageState: storageStatePath("admin") });

test("the console and the public site agree on what is live: an opening-soon competition is not", async ({ page }) => {
  const soon = await createCompetition({
    label: "soon",
    opensAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  });

  await page.goto("/admin/competitions?state=upcoming");
  await expect(page.getByRole("link", { name: soon.title })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(soon.title) })).toContainText("Opening soon");
  await page.goto("/admin/competitions?state=live");
  await expect(page.getByRole("heading", { level: 1, name: "Competitions" })).toBeVisible();
  await expect(page.getByRole("link", { name: soon.title })).toHaveCount(0);

  // Other tests open competitions meanwhile: read both until they agree.
  const dashboard = new AdminDashboardPage(page);
  const visitor = await page
    .context()
    .browser()!
    .newContext({ storageState: { cookies: [], origins: [] } });
  const site = await visitor.newPage();
  await expect(async () => {
    await site.goto("/competitions");
    const heading = await site.getByRole("heading", { level: 2, name: /^Live now/ }).textContent();
    const publicLive = Number(/\((\d+)\)/.exec(heading ?? "")?.[1]);
    await dashboard.goto();
    const consoleLive = Number((await dashboard.figure("Live competitions").textContent())?.replace(/,/g, ""));
    expect(consoleLive).toBe(publicLive);
  }).toPass({ intervals: [1_000, 2_000, 3_000] });
  await expect(page.getByText(/\d+ opening soon · \d+ awaiting the draw/)).toBeVisible();
  await visitor.close();
  await expectAccessibleInBothSchemes(page);
});

const PHONE = { width: 358, height: 800 };
const TABLE_PAGES = [
  "/admin/competitions",
  "/admin/competitions/history",
  "/admin/users",
  "/admin/activity",
  "/admin/complaints",
  "/admin/protection",
  "/admin/mail",
  "/admin/labspinner",
];

test.describe("on a phone (358 px)", () => {
  test.use({ viewport: PHONE });

  test("every admin table is a list of cards: nothing is wider than the screen", async ({ page }) => {
    test.slow();
    await createCompetition({ label: "cards" });
    for (const path of TABLE_PAGES) {
      await page.goto(path);
      await expect(page.getByRole("main")).toBeVisible();
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        tables: [...document.querySelectorAll("main table")].map((t) => ({
          width: t.getBoundingClientRect().width,
          scroll: (t.parentElement as HTMLElement).scrollWidth,
        })),
      }));
      expect(widths.page, `${path}: page width`).toBeLessThanOrEqual(PHONE.width);
      for (const table of widths.tables) {
        expect(table.scroll, `${path}: a table`).toBeLessThanOrEqual(PHONE.width);
      }
    }
    // A card names each value: the column's label is beside it.
    await page.goto("/admin/competitions");
    const cell = page.locator("main td[data-label='Opens']").first();
    expect(await cell.evaluate((el) => getComputedStyle(el, "::before").content)).toBe('"Opens"');
    await expectAccessibleInBothSchemes(page);
  });
});

test("the activity log names every kind in words", async ({ page }) => {
  await createUser({ name: "Lou Label", label: "labels" });
  await page.goto("/admin/activity");
  const table = page.getByRole("table", { name: "Activity, newest first" });
  await expect(table).toContainText("User signed up");
  // The third column: the first two are when and the sentence.
  const kinds = await table.locator("tbody tr td:nth-child(3) a").allTextContents();
  expect(kinds.length).toBeGreaterThan(0);
  for (const kind of kinds) expect(kind, "a raw kind").not.toMatch(/[._]|^[a-z]/);
  const options = await page.getByLabel("Kind", { exact: true }).locator("option").allTextContents();
  for (const option of options) expect(option, "a raw kind in the filter").not.toMatch(/[._]/);
  await expectAccessibleInBothSchemes(page);
});
