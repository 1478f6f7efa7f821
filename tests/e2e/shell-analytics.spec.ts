import { expect, test } from "./support/fixtures";

type Queue = [string, { route?: string; path?: string }?][];

test("page views carry the route with placeholders, and a failed script load only logs", async ({ page }) => {
  const logs: string[] = [];
  page.on("console", (m) => logs.push(m.text()));
  await page.route("**/_vercel/insights/script.js", (r) => r.fulfill({ status: 404, body: "" }));
  await page.goto("/blog");
  await page.getByRole("link", { name: "Welcome to LabCash" }).click();
  await expect(page).toHaveURL(/\/blog\/welcome-to-labcash$/);
  await expect
    .poll(async () =>
      page.evaluate(() =>
        ((window as unknown as { vaq?: Queue }).vaq ?? []).filter((e) => e[0] === "pageview").map((e) => e[1]),
      ),
    )
    .toContainEqual({ route: "/blog/[slug]", path: "/blog/welcome-to-labcash" });
  await expect
    .poll(() => logs.some((l) => l.startsWith("[Vercel Web Analytics] Failed to load script from")))
    .toBe(true);
  // The page still works.
  await page.getByRole("link", { name: "All posts" }).click();
  await expect(page).toHaveURL(/\/blog$/);
});
