import { expect, test } from "./support/fixtures";

// The installable app. Lighthouse 12 has no PWA category any more, so Chromium's own
// installability check stands in for "Lighthouse's PWA checks" (docs/decisions/040).
test.use({ serviceWorkers: "allow" });

test("the manifest is served and Chromium finds the site installable", async ({ page, request }) => {
  const response = await request.get("/manifest.webmanifest");
  expect(response.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
  const manifest = await response.json();
  expect(manifest).toMatchObject({
    name: expect.stringMatching(/^LabCash/),
    short_name: "LabCash",
    display: "standalone",
    start_url: "/",
    scope: "/",
    id: "/",
  });
  expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual([
    "192x192 any",
    "512x512 any",
    "512x512 maskable",
  ]);
  for (const icon of manifest.icons) expect((await request.get(icon.src)).headers()["content-type"]).toBe("image/png");

  await page.goto("/");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  expect(installabilityErrors).toEqual([]);
});

test("the service worker controls the site and shows the offline page when the network is gone", async ({
  page,
  context,
}) => {
  await page.goto("/docs");
  // The worker claims the page once it has cached the offline page.
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null);
  const sw = await page.request.get("/sw.js");
  expect(sw.headers()["content-type"]).toMatch(/^text\/javascript/);

  await context.setOffline(true);
  await page.goto("/pricing");
  await expect(page.getByRole("heading", { level: 1, name: "You're offline" })).toBeVisible();
  await expect(page).toHaveURL(/\/pricing$/);
  await context.setOffline(false);
});

/** Chromium's install prompt as the page sees it: fired once, with prompt() and the visitor's choice. */
function offerInstallEarly() {
  document.addEventListener("DOMContentLoaded", () => {
    const event = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
      prompt: async () => {
        (window as Window & { prompted?: boolean }).prompted = true;
      },
      userChoice: Promise.resolve({ outcome: "accepted" }),
    });
    window.dispatchEvent(event);
    (window as Window & { bannerPrevented?: boolean }).bannerPrevented = event.defaultPrevented;
  });
}

test("a prompt the browser gives before the offer has loaded is kept, and Install LabCash uses it", async ({
  page,
}) => {
  // Fired as the document finishes parsing: before the page is idle, so before the offer's chunk loads.
  await page.addInitScript(offerInstallEarly);
  await page.goto("/");
  const offer = page.getByRole("region", { name: "Install the app" });
  await expect(offer).toBeVisible();
  // The browser's own banner was stopped at once.
  expect(await page.evaluate(() => (window as Window & { bannerPrevented?: boolean }).bannerPrevented)).toBe(true);
  await offer.getByRole("button", { name: "Install LabCash" }).click();
  await expect(offer).toHaveCount(0);
  expect(await page.evaluate(() => (window as Window & { prompted?: boolean }).prompted)).toBe(true);
});

test("Not now is remembered on this device", async ({ page }) => {
  await page.addInitScript(offerInstallEarly);
  await page.goto("/");
  const offer = page.getByRole("region", { name: "Install the app" });
  await offer.getByRole("button", { name: "Not now" }).click();
  await expect(offer).toHaveCount(0);
  // With no service worker left, the next page's offer registers it again when it loads: `ready` then says the
  // offer has run, with the kept prompt in hand.
  await page.evaluate(async () => {
    for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
  });
  await page.reload();
  await page.evaluate(() => navigator.serviceWorker.ready);
  expect(await page.evaluate(() => "labcashInstallPrompt" in window)).toBe(true);
  await expect(offer).toHaveCount(0);
});
