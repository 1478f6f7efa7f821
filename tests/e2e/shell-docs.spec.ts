import { expect, test } from "./support/fixtures";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { overflowingBoxes } from "./support/overflow";

test("sidebar, breadcrumbs, previous and next", async ({ page }) => {
  await page.goto("/docs/getting-started");
  await expect(page).toHaveTitle("Getting started · LabCash – Win Big, Spend Small");
  const sidebar = page.getByRole("navigation", { name: "Documentation" });
  await expect(sidebar.getByRole("link", { name: "Getting started" })).toHaveAttribute("aria-current", "page");
  await expect(sidebar.getByText("Legal", { exact: true })).toBeVisible();

  const sections = page.getByRole("navigation", { name: "Docs sections" });
  await expect(sections.getByRole("link", { name: "Docs" })).toHaveAttribute("href", "/docs/getting-started");
  await expect(sections.getByRole("link", { name: "Pricing" })).toHaveAttribute("href", "/pricing");
  await expect(sections.getByRole("link", { name: "Blog" })).toHaveAttribute("href", "/blog");

  await sidebar.getByRole("link", { name: "Privacy policy" }).click();
  await expect(page).toHaveURL(/\/docs\/legal\/privacy-policy$/);
  const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
  await expect(crumbs.getByRole("listitem")).toHaveText(["Docs", "Legal", "Privacy policy"]);
  await expect(page.getByText("Draft for legal review.")).toBeVisible();

  const pager = page.getByRole("navigation", { name: "Previous and next pages" });
  await expect(pager.getByRole("link", { name: /Previous\s*Responsible play/ })).toBeVisible();
  await pager.getByRole("link", { name: /Next\s*Terms and conditions/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Terms and conditions" })).toBeVisible();
});

test("'On this page' links to the page's sections", async ({ page }) => {
  await page.goto("/docs/credits");
  const toc = page.getByRole("navigation", { name: "On this page" });
  await expect(toc.getByRole("link")).toHaveText([
    "The basics",
    "Topping up",
    "Paying by credit card",
    "Bonus credit",
    "Inviting a friend",
    "Your credit ledger",
    "Refunds",
  ]);
  await toc.getByRole("link", { name: "Bonus credit" }).click();
  await expect(page).toHaveURL(/\/docs\/credits#bonus-credit$/);
  await expect(page.getByRole("heading", { level: 2, name: "Bonus credit" })).toBeInViewport();
});

test("code blocks have a copy button", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/docs/fair-draws");
  await page.getByRole("button", { name: "Copy code to clipboard" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toHaveCount(1);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("sha256sum");
});

test("the docs cover credits, free entry, fair draws, LabSpinner and responsible play", async ({ page }) => {
  await page.goto("/docs/credits");
  await expect(page.getByRole("main")).toContainText("1 credit = £1");
  await expect(page.getByRole("main")).toContainText("£5 to £5,000");
  await page.goto("/docs/competitions#free-entry-by-post");
  await expect(page.getByRole("heading", { name: "Free entry by post" })).toBeVisible();
  await page.goto("/docs/responsible-play");
  await expect(page.getByRole("link", { name: "GamCare" })).toHaveAttribute("href", "https://www.gamcare.org.uk");
  await expect(page.getByRole("link", { name: "BeGambleAware" })).toHaveAttribute(
    "href",
    "https://www.begambleaware.org",
  );
});

test("tables in the docs render as tables (GFM)", async ({ page }) => {
  await page.goto("/docs/getting-started");
  const tiers = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Bonus credit" }) });
  await expect(tiers.getByRole("row")).toHaveCount(4);
  await expect(tiers.getByRole("cell", { name: "5%", exact: true })).toBeVisible();
  await expect(page.getByText("| --- |")).toHaveCount(0);
});

test("the help assistant answers from the docs, refuses an empty prompt and is accessible", async ({ page }) => {
  await page.goto("/docs");
  const prompt = page.getByLabel("Ask about LabCash");
  const send = page.getByRole("button", { name: "Send prompt" });
  await send.click();
  await expect(prompt).toHaveAccessibleDescription(/Type a question first/);

  await prompt.fill("How do I enter for free?");
  await send.click();
  const passages = page.getByRole("list", { name: "Passages used" });
  await expect(passages.getByRole("link").first()).toHaveAttribute(
    "href",
    /^\/docs\/competitions#(free-entry-by-post|how-to-enter-by-post)$/,
  );

  // The passage that answers comes first, whole: a refund question learns that credit is not cash.
  await prompt.fill("can I get a refund");
  await send.click();
  await expect(passages.getByRole("link").first()).toHaveAttribute("href", "/docs/credits#refunds");
  await expect(passages.getByRole("listitem").first()).toContainText("Credit is not cash and cannot be withdrawn");
  await expectAccessibleInBothSchemes(page, "/docs with an answer");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the help assistant's answer comes into view, as plain text that fits the screen", async ({ page }) => {
    await page.goto("/docs");
    const prompt = page.getByLabel("Ask about LabCash");
    await prompt.tap();
    await prompt.fill("where do I send my postal entry");
    await page.getByRole("button", { name: "Send prompt" }).tap();
    const answer = page.getByRole("list", { name: "Passages used" }).getByRole("listitem").first();
    await expect(answer.getByRole("link")).toHaveAttribute("href", "/docs/competitions#how-to-enter-by-post");
    // The address as the letter needs it: no Markdown line-break backslashes.
    await expect(answer).toContainText("LabCash Free Entry PO Box 4021 Manchester M60 1LC");
    await expect(answer).toBeInViewport();
    expect(await overflowingBoxes(page)).toEqual([]);
    await expectAccessibleInBothSchemes(page, "/docs with an answer, on a phone");
  });
});
