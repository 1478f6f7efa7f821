import { expectAccessibleInBothSchemes } from "./support/axe";
import { launchAt, publicCompetitions, setLaunchAt } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { Header } from "./support/pages/header";

// The home page's launch space: the launch countdown only before the first competition
// opens, then the next draw. The e2e database always has open competitions (the demo seed), so here the
// countdown never shows, whatever launch_at says; the countdown itself, before any opening, is covered by
// tests/unit/launch-space.test.ts. Other tests share the database, so launch_at is put back as found.
test.describe.configure({ mode: "serial" });

/** Not drawn yet and not closed for good (a close with no tickets at the draw time has no draw). */
const drawAhead = (c: {
  status: string;
  draw: unknown;
  draw_at: string;
  tickets_sold: number;
  postal_tickets: number;
}) =>
  ["live", "sold_out", "closed"].includes(c.status) &&
  c.draw === null &&
  (Date.parse(c.draw_at) > Date.now() || c.tickets_sold + c.postal_tickets > 0);

test("with competitions open, a launch moment still ahead shows the next draw instead of 'launch soon'", async ({
  page,
  liveCompetition,
}) => {
  const before = await launchAt();
  try {
    await setLaunchAt(new Date(Date.now() + 3 * 86_400_000).toISOString());
    // Every competition whose draw is still to come, read before the page: the one shown draws no later.
    const ahead = (await publicCompetitions()).filter(drawAhead);
    expect(ahead.map((c) => c.slug)).toContain(liveCompetition.slug);
    const soonest = Math.min(...ahead.map((c) => Date.parse(c.draw_at)));

    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("region", { name: "The first competitions launch soon" })).toHaveCount(0);
    await expect(page.getByText(/launch soon/i)).toHaveCount(0);

    const next = page.getByRole("region", { name: "Next draw" });
    await expect(next).toBeVisible();
    const drawAt = await next.locator("p time").first().getAttribute("datetime");
    expect(Date.parse(drawAt ?? "")).toBeLessThanOrEqual(soonest);
    await expect(next.getByText(/Draw in|Drawing now/)).toBeVisible();

    const link = next.getByRole("link", { name: "See the competition" });
    const href = await link.getAttribute("href");
    const shown = (await publicCompetitions()).find((c) => `/competitions/${c.slug}` === href);
    expect(shown?.draw_at).toBeDefined();
    expect(Date.parse(shown!.draw_at)).toBe(Date.parse(drawAt!));
    await expect(next.getByRole("link", { name: shown!.title, exact: true })).toHaveAttribute("href", href!);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByRole("heading", { level: 1, name: shown!.title })).toBeVisible();
  } finally {
    await setLaunchAt(before);
  }
});

for (const device of [
  { name: "phone", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
]) {
  test.describe(`on a ${device.name}`, () => {
    test.use(device.use);

    test(`the home page's first screen is a live prize, its picture loaded first, and the page has no axe violations in light and dark mode`, async ({
      page,
    }) => {
      await page.goto("/");
      await expect(new Header(page).themeToggle()).toBeEnabled();

      // The featured prize, whole, above the fold: picture, title, price, odds, time left and Enter.
      const featured = page.getByRole("region", { name: "Featured prize" });
      await expect(featured).toBeInViewport({ ratio: 1 });
      const title = featured.getByRole("heading", { level: 2 }).getByRole("link");
      const path = await title.getAttribute("href");
      expect(path).toMatch(/^\/competitions\/[^/]+$/);
      await expect(featured).toContainText(/£\d+\.\d{2} per ticket/);
      await expect(featured).toContainText(/Odds 1 in [\d,]+ per ticket, plus free postal entries/);
      await expect(featured).toContainText(/(Closes|Draw) in (\d+[dhm] )*\d{2}s|Drawing now/);
      const enter = featured.getByRole("link", { name: /^Enter / });
      await expect(enter).toBeInViewport({ ratio: 1 });
      await expect(enter).toHaveAttribute("href", path!);

      // Its picture is fetched first: sized, not lazy, high priority and preloaded from the head.
      const picture = featured.locator("img");
      await expect(picture).toHaveAttribute("fetchpriority", "high");
      await expect(picture).not.toHaveAttribute("loading", "lazy");
      await expect(picture).toHaveAttribute("width", /^\d+$/);
      await expect(picture).toHaveAttribute("height", /^\d+$/);
      const src = await picture.getAttribute("src");
      await expect(page.locator(`head link[rel="preload"][as="image"][href="${src}"]`)).toHaveCount(1);
      if (device.name === "phone") {
        // The largest paint. (On a wide screen the demo's pictures are SVGs of a kilobyte or two, which Chrome
        // leaves out of the largest paint as too plain, under 0.05 bits a pixel; a photo counts.)
        const largest = await page.evaluate(
          () =>
            new Promise<string | null>((resolve) =>
              new PerformanceObserver((list) => {
                const entry = list.getEntries().at(-1) as (PerformanceEntry & { element: Element | null }) | undefined;
                resolve(entry?.element?.getAttribute("src") ?? null);
              }).observe({ type: "largest-contentful-paint", buffered: true }),
            ),
        );
        expect(largest).toBe(src);
      }

      // The rest follows: the other live prizes, then the next draw.
      await expect(page.getByRole("region", { name: "More live competitions" })).toBeVisible();
      await expect(page.getByRole("region", { name: "Next draw" })).toBeVisible();
      await expectAccessibleInBothSchemes(page);
    });
  });
}
