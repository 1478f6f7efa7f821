import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Every x-nextjs-cache value of a page served through Next's page cache: from it (HIT), from it while a new copy is
 * made (STALE), made into it because none was there or the copy had expired (MISS), made afresh for an on-demand
 * revalidation (REVALIDATED), or for a prefetch (PREFETCH). Which one a request meets depends only on when it came
 * (and so on the machine's speed); a page rendered per request sends none.
 */
export const FROM_THE_PAGE_CACHE = /^(HIT|STALE|MISS|REVALIDATED|PREFETCH)$/;

/**
 * Opens a cached public page until `locator` shows. The change the test made was revalidated, but a
 * regeneration another worker's visit had already started may still store the page without it; the page is
 * never served more than five seconds old (next.config's expireTime). No clock of its own: the test's time bounds it.
 */
export async function gotoUntilVisible(page: Page, path: string, locator: Locator): Promise<void> {
  await expect(async () => {
    await page.goto(path);
    await expect(locator).toBeVisible({ timeout: 1_000 });
  }).toPass();
}
