import { axeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";

// A route handler that fails on the server answers like the rest of the site, never
// Next's empty 500: JSON for an API route, the error page for a route a browser opens. The two test routes
// always fail, like /error-test, and are not found in a deployment.

test("an API route that fails answers a JSON internal_error", async ({ request }) => {
  const response = await request.get("/api/error-test");
  expect(response.status()).toBe(500);
  expect(response.headers()["content-type"]).toContain("application/json");
  expect(response.headers()["cache-control"]).toContain("no-store");
  const body = await response.json();
  expect(body).toMatchObject({ error: "internal_error", message: "Something went wrong" });
  expect(body.reference).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.stringify(body)).not.toContain("always fails");
});

test("a route a browser opens that fails shows the error page with 'Something went wrong'", async ({ page }) => {
  const response = await page.goto("/error-test/download");
  expect(response?.status()).toBe(500);
  await expect(page).toHaveTitle(/Something went wrong/);
  await expect(page.getByRole("heading", { level: 1, name: "Oops! No prize here!" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Something went wrong" })).toBeVisible();
  await expect(page.getByText("An unexpected error occurred")).toBeVisible();
  await expect(page.getByText(/^Reference: [0-9a-f-]{36}$/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Competitions" })).toHaveAttribute("href", "/");
  await expect(page.getByRole("link", { name: "Browse Prizes" })).toHaveAttribute("href", "/competitions");
  await expect(page.getByRole("link", { name: "Docs" })).toHaveAttribute("href", "/docs/getting-started");
  await expect(page.locator("body")).not.toContainText("always fails");
});

for (const colorScheme of ["light", "dark"] as const) {
  for (const viewport of [
    { name: "phone", width: 390, height: 844 },
    { name: "desktop", width: 1280, height: 900 },
  ]) {
    test(`a failed route's error page has no axe violations in ${colorScheme} mode on a ${viewport.name}`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
      await page.goto("/error-test/download");
      await expect(page.getByRole("heading", { level: 2, name: "Something went wrong" })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    });
  }
}
