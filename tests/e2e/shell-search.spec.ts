import type { Page } from "@playwright/test";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { gotoUntilVisible } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { Header } from "./support/pages/header";

async function openWithShortcut(page: Page) {
  // Wait for hydration: the button's shortcut hint is drawn in the same commit whose effect listens for the
  // shortcut (the button itself is in the server's HTML, so its being visible proves nothing).
  await expect(page.getByTestId("search-shortcut")).toBeAttached();
  await page.keyboard.press("ControlOrMeta+k");
  const dialog = page.getByRole("dialog", { name: "Search prizes and documentation" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("opens with the keyboard shortcut and finds a section", async ({ page }) => {
  await page.goto("/");
  const dialog = await openWithShortcut(page);
  const input = dialog.getByPlaceholder("Search...");
  await expect(input).toBeFocused();
  await input.fill("rejection sampling");
  await expect(dialog.getByRole("option").first()).toContainText("Choosing the ticket without bias");
  await expect(dialog.locator("[cmdk-group-heading]")).toHaveText(["Documentation"]);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("opens from the button, tolerates typos and navigates to the heading anchor with the keyboard", async ({
  page,
}) => {
  await page.goto("/pricing");
  await page.getByRole("button", { name: "Search..." }).click();
  const dialog = page.getByRole("dialog", { name: "Search prizes and documentation" });
  await dialog.getByPlaceholder("Search...").fill("self-exclsion");
  const first = dialog.getByRole("option").first();
  await expect(first).toContainText("Self-exclusion");
  await expect(first).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/docs\/responsible-play#self-exclusion$/);
  await expect(page.getByRole("heading", { name: "Self-exclusion" })).toBeInViewport();
  await expect(dialog).toBeHidden();
});

test("arrow keys move through the results", async ({ page }) => {
  await page.goto("/docs");
  const dialog = await openWithShortcut(page);
  await dialog.getByPlaceholder("Search...").fill("credit");
  const options = dialog.getByRole("option");
  await expect(options.nth(1)).toBeVisible();
  await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
});

test("returns at most 42 results", async ({ page }) => {
  const index = await (await page.request.get("/search.json")).json();
  expect(index.length).toBeGreaterThan(42);
  for (const record of index) {
    expect(record.id).toMatch(/^\/docs(\/[a-z0-9-]+)*(#[a-z0-9-]+)?$/);
    expect(record.level).toBeGreaterThanOrEqual(1);
    expect(record.level).toBeLessThanOrEqual(6);
    expect(Array.isArray(record.titles)).toBe(true);
  }
  await page.goto("/");
  const dialog = await openWithShortcut(page);
  // Single letters match almost every section by prefix.
  await dialog.getByPlaceholder("Search...").fill("a");
  await expect(dialog.getByRole("option").first()).toBeVisible();
  await expect(dialog.getByRole("option")).toHaveCount(42);
});

test("finds prizes first, by title, prize or state, then the documentation, and opens the competition", async ({
  page,
  liveCompetition,
}) => {
  await page.goto("/");
  const dialog = await openWithShortcut(page);
  const input = dialog.getByPlaceholder("Search...");
  // The case that once found nothing: "iphone". The demo seed's iPhone comes first, then docs.
  await input.fill("iphone");
  const first = dialog.getByRole("option").first();
  await expect(first).toContainText("iPhone 17 Pro Max 256GB");
  await expect(first).toContainText(/Live|Opening soon|Postal entries only|Awaiting draw|Drawn|Closed/);
  await expect(dialog.locator("[cmdk-group-heading]").first()).toHaveText("Competitions");

  // A competition made a moment ago is in the cached index within seconds (the app expires it at once).
  const word = liveCompetition.title.split(" ").at(-1)!;
  await page.keyboard.press("Escape");
  await page.reload();
  const again = await openWithShortcut(page);
  await again.getByPlaceholder("Search...").fill(word);
  const hit = again.getByRole("option", { name: new RegExp(liveCompetition.title) });
  await expect(hit).toBeVisible();
  await expect(hit).toContainText("Live · A test prize");
  await expect(again.getByRole("option")).toHaveCount(1);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${liveCompetition.path}$`));
  await expect(page.getByRole("heading", { level: 1, name: liveCompetition.title })).toBeVisible();
});

test("the competition index is public, cached and holds public fields only", async ({ request, liveCompetition }) => {
  const response = await request.get("/competitions/search.json");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toMatch(/s-maxage=\d+/);
  expect(response.headers()["set-cookie"]).toBeUndefined();
  const records = (await response.json()) as Record<string, string>[];
  const mine = records.find((r) => r.id === liveCompetition.path);
  expect(mine).toEqual({
    id: liveCompetition.path,
    title: liveCompetition.title,
    prize: "A test prize",
    state: "Live",
  });
  for (const record of records) expect(Object.keys(record).sort()).toEqual(["id", "prize", "state", "title"]);
});

test.describe("the shortcut hint", () => {
  test("says Ctrl K off Apple devices, with no hydration warning", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || /hydrat/i.test(m.text())) problems.push(m.text());
    });
    await page.route("**/_vercel/insights/script.js", (r) => r.fulfill({ contentType: "text/javascript", body: "" }));
    await page.goto("/");
    const button = page.getByRole("button", { name: "Search..." });
    await expect(button.getByTestId("search-shortcut")).toHaveText("Ctrl K");
    await expect(button).toHaveAttribute("aria-keyshortcuts", "Control+K");
    await page.keyboard.press("Control+k");
    await expect(page.getByRole("dialog", { name: "Search prizes and documentation" })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("says ⌘K on a Mac", async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "platform", { get: () => "MacIntel" });
      Object.defineProperty(Navigator.prototype, "userAgentData", { get: () => ({ platform: "macOS" }) });
    });
    await page.goto("/docs");
    const button = page.getByRole("button", { name: "Search..." });
    await expect(button.getByTestId("search-shortcut")).toHaveText("⌘K");
    await expect(button).toHaveAttribute("aria-keyshortcuts", "Meta+K");
  });
});

test.describe("/competitions search and state filter", () => {
  test("filters as you type, keeps the filter in the address, and a shared link opens filtered", async ({
    page,
    liveCompetition,
  }) => {
    await page.goto("/competitions");
    await expect(new Header(page).themeToggle()).toBeEnabled();
    const finder = page.getByRole("search", { name: "Find a competition" });
    const box = finder.getByRole("searchbox", { name: "Search prizes" });
    await box.fill("iphone");
    await expect(page).toHaveURL(/\/competitions\?q=iphone$/);
    const cards = page.getByRole("main").getByRole("article");
    await expect(cards.first()).toContainText("iPhone 17 Pro Max 256GB");
    for (const text of await cards.allTextContents()) expect(text.toLowerCase()).toContain("iphone");
    await expect(page.getByRole("status").filter({ hasText: /match/ })).toHaveText(/^\d+ competitions? match(es)?\.$/);

    await finder.getByRole("combobox", { name: "State" }).selectOption({ label: "Drawn" });
    await expect(page).toHaveURL(/\/competitions\?q=iphone&state=drawn$/);
    await expect(page.getByRole("heading", { level: 2, name: /^Live now/ })).toHaveCount(0);

    // Nothing matches: said so, with a way back.
    await box.fill("no such prize anywhere");
    await expect(page.getByText("No competitions match")).toBeVisible();
    await page.getByRole("button", { name: "show every competition" }).click();
    await expect(page).toHaveURL(/\/competitions$/);
    await expect(page.getByRole("heading", { level: 2, name: /^Live now/ })).toBeVisible();

    // A link with the filter opens filtered. Until it hydrates the page lists every card, so wait for this
    // competition's own card: any first card would pass on a cached page made before it existed.
    const word = liveCompetition.title.split(" ").at(-1)!;
    await gotoUntilVisible(
      page,
      `/competitions?q=${word}&state=live`,
      cards.filter({ hasText: liveCompetition.title }),
    );
    await expect(box).toHaveValue(word);
    await expect(finder.getByRole("combobox", { name: "State" })).toHaveValue("live");
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(liveCompetition.title);
  });

  for (const viewport of [
    { name: "phone", width: 390, height: 844 },
    { name: "desktop", width: 1280, height: 900 },
  ]) {
    test(`has no axe violations in light and dark mode on a ${viewport.name}, filtered and with the palette open`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto("/competitions?q=iphone");
      await expect(new Header(page).themeToggle()).toBeEnabled();
      await expect(page.getByRole("searchbox", { name: "Search prizes" })).toHaveValue("iphone");
      await expectAccessibleInBothSchemes(page);
      const dialog = await openWithShortcut(page);
      await dialog.getByPlaceholder("Search...").fill("iphone");
      await expect(dialog.getByRole("option").first()).toBeVisible();
      await expectAccessibleInBothSchemes(page);
    });
  }
});
