import { expect, type Page } from "@playwright/test";
import axe, { type AxeResults, type RunOptions } from "axe-core";

const OPTIONS: RunOptions = {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
};

/**
 * Axe's findings on the page as it is now (WCAG 2.2 A and AA, and best practice), one line per rule.
 * axe-core runs in the page itself (`axe.run`), injected once per document: @axe-core/playwright injected it
 * twice a run and opened a blank page for every result, tripling the cost of each check. The site has no
 * iframes, which is all that wrapper adds.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const ready = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === "object");
  if (!ready) await page.evaluate(axe.source);
  const results = await page.evaluate(
    (options) => (window as unknown as { axe: typeof axe }).axe.run(document, options),
    OPTIONS,
  );
  return (results as AxeResults).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * Axe on the page as it is, in the light and then the dark scheme, with no pointer over it. The site
 * follows the device's scheme (next-themes' "system"), so switching the emulated scheme re-themes the
 * page in place: one load checks both. Pages that force a scheme are checked in that one.
 */
export async function expectAccessibleInBothSchemes(page: Page, label?: string): Promise<void> {
  await page.mouse.move(0, 0);
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: "reduce" });
    await expect(page.locator("html"), label).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
    expect(await axeViolations(page), `${label ?? page.url()} (${colorScheme})`).toEqual([]);
  }
}
