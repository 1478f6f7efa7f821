import { expect, test } from "./support/fixtures";

test("the blog lists dated posts, newest first, and opens one", async ({ page }) => {
  await page.goto("/blog");
  await expect(page).toHaveTitle("Blog · LabCash – Win Big, Spend Small");
  const articles = page.getByRole("main").getByRole("article");
  expect(await articles.count()).toBeGreaterThanOrEqual(4);
  const dates = await page
    .getByRole("main")
    .locator("article time")
    .evaluateAll((els) => els.map((e) => e.getAttribute("datetime")!));
  expect(dates).toEqual([...dates].sort().reverse());

  await page.getByRole("link", { name: "How we make every draw verifiable" }).click();
  await expect(page).toHaveURL(/\/blog\/how-we-make-draws-verifiable$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("How we make every draw verifiable");
  await expect(page.getByRole("list", { name: "Authors" }).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByText("Engineering", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("img", { name: "A padlock made of a hash, with a tick beside it" })).toBeVisible();
  await expect(page.locator("article time")).toHaveText("15 October 2026");
});
