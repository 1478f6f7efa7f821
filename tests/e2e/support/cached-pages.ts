import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Opens a cached public page until `locator` shows. The change the test made was revalidated, but a
 * regeneration another worker's visit had already started may still store the page without it; the page is
 * never served more than five seconds old (next.config's expireTime).
 */
export async function gotoUntilVisible(page: Page, path: string, locator: Locator): Promise<void> {
  await expect(async () => {
    await page.goto(path);
    await expect(locator).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
}
