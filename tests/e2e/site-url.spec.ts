import { expect, test } from "./support/fixtures";

// The e2e server runs with SITE_URL set to its own address, http://127.0.0.1:<port>
// (playwright.config.ts). Without SITE_URL the site would fall back to http://localhost:<port>,
// so these URLs only match when the public addresses really come from SITE_URL.
test.describe("public URLs come from SITE_URL", () => {
  test("every sitemap.xml entry and robots.txt's sitemap address", async ({ request, baseURL }) => {
    if (!baseURL) throw new Error("playwright.config.ts sets baseURL");
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.ok()).toBe(true);
    const locations = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(
      expect.arrayContaining([`${baseURL}/`, `${baseURL}/competitions`, `${baseURL}/docs/getting-started`]),
    );
    expect(locations.filter((location) => !location.startsWith(`${baseURL}/`))).toEqual([]);

    const robots = await request.get("/robots.txt");
    expect(robots.ok()).toBe(true);
    expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });

  test("the Open Graph and Twitter images of a page", async ({ page, request, baseURL }) => {
    if (!baseURL) throw new Error("playwright.config.ts sets baseURL");
    await page.goto("/");
    const openGraphImage = await page.locator('meta[property="og:image"]').getAttribute("content");
    const twitterImage = await page.locator('meta[name="twitter:image"]').getAttribute("content");
    expect(openGraphImage?.startsWith(`${baseURL}/opengraph-image`)).toBe(true);
    expect(twitterImage).toBe(openGraphImage);

    // The card itself is served where the tag says.
    const image = await request.get(openGraphImage ?? "");
    expect(image.ok()).toBe(true);
    expect(image.headers()["content-type"]).toBe("image/png");

    // Pages with Open Graph fields of their own keep the site's card as their picture; prerendered pages name the
    // site's address too, and their canonical address is theirs.
    for (const path of ["/docs/getting-started", "/blog/welcome-to-labcash", "/pricing"]) {
      await page.goto(path);
      const content = await page.locator('meta[property="og:image"]').getAttribute("content");
      expect([path, content?.split("?")[0]]).toEqual([path, `${baseURL}/opengraph-image`]);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}${path}`);
    }
  });
});
