import { expect, test } from "./support/fixtures";
import { Header } from "./support/pages/header";
import { demoUsers, storageStatePath, type DemoUser } from "./support/users";

const TITLE_SUFFIX = " · LabCash – Win Big, Spend Small";

test.describe("signed out", () => {
  test("header links, Beta label, sign-in links and the page title", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle("LabCash – Win Big, Spend Small");
    const header = new Header(page);
    await expect(header.banner.getByRole("link", { name: "LabCash home" })).toHaveAttribute("href", "/");
    await expect(header.banner.getByText("Beta", { exact: true })).toBeVisible();
    for (const [name, href] of [
      ["How it works", "/docs"],
      ["Competitions", "/competitions"],
      ["LabSpinner", "/labspinner"],
      ["Winners", "/winners"],
    ]) {
      await expect(header.mainNav.getByRole("link", { name })).toHaveAttribute("href", href);
    }
    await expect(header.signInLink).toHaveAttribute("href", "/login");
    await expect(header.signUpLink).toHaveAttribute("href", "/signup");
    await expect(header.accountMenuButton()).toHaveCount(0);

    await page.goto("/pricing");
    await expect(page).toHaveTitle(`Pricing${TITLE_SUFFIX}`);
  });

  test("the stylesheet comes in the document; links fetch a page when pointed at, not in view, and open it without a reload", async ({
    page,
  }) => {
    // The first paint needs the document alone (scripts/site-css.mjs): no stylesheet is requested or linked.
    const stylesheets: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "stylesheet") stylesheets.push(request.url());
    });
    const fetched: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.searchParams.has("_rsc")) fetched.push(url.pathname);
    });
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname);
    });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    // Every link of the header, footer and cards is in view or in the page: none was fetched ahead.
    expect(fetched).toEqual([]);
    await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
    // The site's sheet (other <style> elements come and go: the toasts bring their own).
    const siteSheets = () =>
      page.evaluate(
        () => [...document.head.querySelectorAll("style")].filter((s) => s.textContent?.includes("tailwindcss")).length,
      );
    expect(await siteSheets()).toBe(1);
    const pageBackground = () => page.locator("body").evaluate((body) => getComputedStyle(body).backgroundColor);
    expect(await pageBackground()).not.toBe("rgba(0, 0, 0, 0)");

    const competitions = new Header(page).mainNav.getByRole("link", { name: "Competitions" });
    await competitions.hover();
    await expect.poll(() => fetched).toContain("/competitions");
    await competitions.click();
    await expect(page).toHaveURL(/\/competitions$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(documents).toEqual(["/"]);
    // The root layout, and so the sheet, stays through a client navigation.
    expect(await siteSheets()).toBe(1);
    expect(await pageBackground()).not.toBe("rgba(0, 0, 0, 0)");
    expect(stylesheets).toEqual([]);
  });

  test("footer links, copyright year and trading-name notice", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    for (const href of [
      "/docs",
      "/docs/getting-started",
      "/docs/legal/privacy-policy",
      "/docs/legal/terms-and-conditions",
      "/account",
    ]) {
      await expect(footer.locator(`a[href="${href}"]`)).toHaveCount(1);
    }
    await expect(footer.getByRole("link", { name: /LabCash on X/ })).toHaveAttribute("href", /^https:\/\//);
    await expect(footer).toContainText(`© ${new Date().getFullYear()} LabCash`);
    await expect(footer).toContainText("LabCash is a trading name of LabCash Trading Ltd (company number withheld)");
  });
});

const expectedMenus: Record<Exclude<DemoUser, "superAdmin">, string[]> = {
  pending: ["Pending approval", "Dashboard", "My Entries", "Credit Balance", "Profile Settings", "Sign out"],
  player: ["Dashboard", "My Entries", "Credit Balance", "Profile Settings", "Sign out"],
  admin: ["Dashboard", "My Entries", "Credit Balance", "Profile Settings", "Admin Dashboard", "Sign out"],
};

for (const [user, entries] of Object.entries(expectedMenus) as [keyof typeof expectedMenus, string[]][]) {
  test.describe(`signed in as ${user}`, () => {
    test.use({ storageState: storageStatePath(user) });

    test("the avatar menu lists the spec's entries in order", async ({ page }) => {
      const { name, email } = demoUsers[user];
      await page.goto("/docs/getting-started");
      const header = new Header(page);
      await expect(header.signInLink).toHaveCount(0);
      const initials = name
        .split(" ")
        .map((w) => w[0])
        .join("");
      // The initials are what is seen; the name is what is announced.
      await expect(header.accountMenuButton(name).locator("[aria-hidden]")).toHaveText(initials);
      const menu = await header.openAccountMenu(name);
      await expect(menu).toContainText(email);
      await expect(menu.getByRole("menuitem")).toHaveText(entries);
      // A button that posts the sign-out form, not a link to /logout (which only asks).
      await expect(menu.getByRole("menuitem", { name: "Sign out" })).not.toHaveAttribute("href");
      await expect(menu.getByRole("menuitem", { name: "My Entries" })).toHaveAttribute("href", "/account/entries");
      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden();
    });
  });
}

test.describe("signed in as super admin", () => {
  test.use({ storageState: storageStatePath("superAdmin") });

  test("super admins see Admin Dashboard, which opens the admin area", async ({ page }) => {
    await page.goto("/");
    const menu = await new Header(page).openAccountMenu(demoUsers.superAdmin.name);
    await menu.getByRole("menuitem", { name: "Admin Dashboard" }).click();
    await expect(page).toHaveURL(/\/admin$/);
  });
});
