import { expect, test } from "./support/fixtures";
import { Header } from "./support/pages/header";

test("an unknown route shows the 404 error page", async ({ page }) => {
  const response = await page.goto("/no-such-prize");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle("Page not found · LabCash – Win Big, Spend Small");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    "content",
    "We are sorry but this page could not be found.",
  );
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! No prize here!");
  await expect(page.getByRole("heading", { level: 2, name: "Page Not Found" })).toBeVisible();
  await expect(
    page.getByText("The page you're looking for doesn't exist. Maybe it's competing in another dimension?"),
  ).toBeVisible();
  await expect(page.getByText("Page not found: /no-such-prize")).toBeVisible();
  const main = page.getByRole("main");
  await expect(main.getByRole("link", { name: "Back to Competitions" })).toHaveAttribute("href", "/");
  await expect(main.getByRole("link", { name: "Browse Prizes" })).toHaveAttribute("href", "/competitions");
  await expect(main.getByRole("link", { name: "Docs", exact: true })).toHaveAttribute("href", "/docs/getting-started");
  await expect(main.getByRole("link", { name: "Back to home" })).toHaveAttribute("href", "/");
  await main.getByRole("link", { name: "Browse Prizes" }).click();
  await expect(page).toHaveURL(/\/competitions$/);
});

test("a docs page that does not exist fails route validation", async ({ page }) => {
  const response = await page.goto("/docs/no-such-guide");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! No prize here!");
  await expect(page.getByText("Page Not Found: /docs/no-such-guide")).toBeVisible();
  // Still inside the docs layout.
  await expect(page.getByRole("navigation", { name: "Docs sections" })).toBeVisible();
});

test("a blog post that does not exist fails route validation", async ({ page }) => {
  const response = await page.goto("/blog/no-such-post");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Page Not Found: /blog/no-such-post")).toBeVisible();
});

test("after a client navigation to an unknown doc, blog post or competition the tab is titled as the 404", async ({
  page,
}) => {
  await page.goto("/docs");
  await expect(new Header(page).themeToggle()).toBeEnabled();
  const push = (href: string) =>
    page.evaluate(
      (to) => (window as unknown as { next: { router: { push(href: string): void } } }).next.router.push(to),
      href,
    );
  for (const path of ["/docs/no-such-guide", "/blog/no-such-post", "/competitions/no-such-prize"]) {
    await push(path);
    await expect(page.getByText(new RegExp(`^Page not found: ${path}$`, "i"))).toBeVisible();
    await expect(page, path).toHaveTitle("Page not found · LabCash – Win Big, Spend Small");
  }
});

test("a page that fails on the server shows the error page with 'Something went wrong' and a reference", async ({
  page,
}) => {
  const response = await page.goto("/error-test");
  expect(response?.status()).toBe(500);
  expect(await response?.text()).not.toBe("Internal Server Error");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! No prize here!");
  await expect(page.getByRole("heading", { level: 2, name: "Something went wrong" })).toBeVisible();
  // The server's message never reaches the browser: the generic line and the digest instead.
  await expect(page.getByText("An unexpected error occurred")).toBeVisible();
  await expect(page.getByText("this page always fails")).toHaveCount(0);
  // The reference is the request's id, the one the server's log line for the error carries.
  const requestId = response!.headers()["x-request-id"];
  expect(requestId).toMatch(/^[\w.:-]{8,}$/);
  await expect(page.getByText(`Reference: ${requestId}`, { exact: true })).toBeVisible();
  const main = page.getByRole("main");
  await expect(main.getByRole("button", { name: "Try again" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Browse Prizes" })).toHaveAttribute("href", "/competitions");
  await main.getByRole("link", { name: "Back to Competitions" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Oops! No prize here!");
});

test("a server error reached by a link inside the site shows the same page", async ({ page }) => {
  await page.goto("/docs");
  // Hydrated first: a link added to the server's HTML before React takes the page over can be dropped by it.
  await expect(new Header(page).themeToggle()).toBeEnabled();
  await page.evaluate(() => {
    const a = document.createElement("a");
    a.href = "/error-test";
    a.textContent = "Broken page";
    document.querySelector("main")?.prepend(a);
  });
  await page.getByRole("link", { name: "Broken page" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Something went wrong" })).toBeVisible();
  await expect(page.getByText("Internal Server Error")).toHaveCount(0);
});

test("a server error met in a client-side navigation shows the failed request's id as its reference", async ({
  page,
}) => {
  await page.goto("/docs");
  await expect(new Header(page).themeToggle()).toBeEnabled();
  // The router's own navigation (what a <Link> does): the page's content comes in a fetch, not a new document.
  const failed = page.waitForResponse(
    (r) => new URL(r.url()).pathname === "/error-test" && r.request().isNavigationRequest() === false,
  );
  await page.evaluate(() =>
    (window as unknown as { next: { router: { push(href: string): void } } }).next.router.push("/error-test"),
  );
  const requestId = (await failed).headers()["x-request-id"];
  expect(requestId).toMatch(/^[\w.:-]{8,}$/);
  await expect(page.getByRole("heading", { level: 2, name: "Something went wrong" })).toBeVisible();
  await expect(page.getByText(`Reference: ${requestId}`, { exact: true })).toBeVisible();
});

test.describe("bots", () => {
  test.use({ userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });

  test("a crawler gets a plain 404, not the error page, for an unknown route, doc, blog post or competition", async ({
    page,
  }) => {
    for (const path of ["/no-such-prize", "/docs/no-such-guide", "/blog/no-such-post", "/competitions/no-such-prize"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1 }), path).toHaveText("404 Not Found");
      await expect(page.getByText("Oops! No prize here!")).toHaveCount(0);
      await expect(page.getByRole("banner")).toHaveCount(0);
    }
    // What exists is crawled as it is.
    expect((await page.goto("/docs/getting-started"))?.status()).toBe(200);
  });
});
