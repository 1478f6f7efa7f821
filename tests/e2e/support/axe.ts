import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";
import type { AxeResults, RunOptions } from "axe-core";

/**
 * axe-core's minified build, sent to each page it checks: the package's `source` is the unminified build, 1.5 MB to
 * send and compile where this is 0.65 MB (about a third of each first check's cost).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Violations only: axe then keeps one node, not every node, of each passing and inapplicable rule (its documented
 * `resultTypes` option), which took a third of each check's CPU on a page of 1,500 elements. The violations are
 * the same.
 */
const VIOLATIONS_ONLY: RunOptions = { resultTypes: ["violations"] };
const EVERY_RULE: RunOptions = {
  ...VIOLATIONS_ONLY,
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
};
/** The rules of EVERY_RULE whose outcome depends on colours: all a change of scheme can change on the same DOM. */
const COLOUR_RULES: RunOptions = {
  ...VIOLATIONS_ONLY,
  runOnly: { type: "rule", values: ["color-contrast", "link-in-text-block"] },
};

/**
 * Axe's findings on the page as it is now (WCAG 2.2 A and AA, and best practice), one line per rule.
 * axe-core runs in the page itself (`axe.run`), injected once per document: @axe-core/playwright injected it
 * twice a run and opened a blank page for every result, tripling the cost of each check. The site has no
 * iframes, which is all that wrapper adds.
 */
export async function axeViolations(
  page: Page,
  options: RunOptions = EVERY_RULE,
  within: { include: string[] } | "document" = "document",
): Promise<string[]> {
  const ready = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === "object");
  if (!ready) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    ([options, within]) =>
      (window as unknown as { axe: typeof import("axe-core") }).axe.run(
        within === "document" ? document : within,
        options,
      ),
    [options, within] as const,
  );
  return (results as AxeResults).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** The colour-mode button: its name and icon say which scheme is in use, the one markup a scheme changes. */
const SCHEME_BUTTON = '[aria-label^="Colour mode"]';

/** Every rule on the colour-mode button as it is now (its name and icon follow the scheme chosen). */
export async function expectColourModeButtonAccessible(page: Page): Promise<void> {
  await expect(page.locator(SCHEME_BUTTON)).toBeEnabled();
  expect(await axeViolations(page, EVERY_RULE, { include: [SCHEME_BUTTON] })).toEqual([]);
}
/**
 * Axe on the page as it is, in the light and then the dark scheme, with no pointer over it. The site
 * follows the device's scheme (next-themes' "system"), so switching the emulated scheme re-themes the
 * page in place: one load checks both. Pages that force a scheme are checked in that one.
 * Every rule runs in the light scheme. In the dark one, when the markup is unchanged but for the colour-mode button
 * and the digits of a ticking clock (the site has no scheme-only elements, and this checks it each time), only the
 * rules that read colours run: the others would see the same DOM and give the same answer, and they were two thirds
 * of each check's cost. The button itself, the one markup a scheme changes, is checked in each of its states where
 * the scheme is chosen (shell-theme, expectColourModeButtonAccessible). A page whose markup changed with the scheme
 * gets every rule again.
 */
export async function expectAccessibleInBothSchemes(page: Page, label?: string): Promise<void> {
  await page.mouse.move(0, 0);
  // After a client navigation Next streams the page's metadata after its content, so the heading a test waited
  // for can be on screen a moment before the new <title> (axe's document-title, seen once in CI after a form's
  // redirect). A page without a title still fails, here.
  await expect(page, label).toHaveTitle(/\S/);
  // Both schemes check the settled page: loaded, hydrated, and idle, when what waits for idle has started (the install
  // offer; components/layout/when-idle.tsx). Something arriving between the two checks changes the markup, and the
  // dark one then runs every rule.
  await page.waitForLoadState("load");
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 1500 })));
  let lightMarkup: string | undefined;
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: "reduce" });
    await expect(page.locator("html"), label).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
    const markup = await page.evaluate((button) => {
      const body = document.body.cloneNode(true) as HTMLElement;
      for (const element of body.querySelectorAll(button)) element.remove();
      // A countdown's digits move on between the two checks; what a rule reads of a <time> is its element.
      for (const time of body.querySelectorAll("time")) time.textContent = "";
      return body.outerHTML;
    }, SCHEME_BUTTON);
    const violations = markup === lightMarkup ? await axeViolations(page, COLOUR_RULES) : await axeViolations(page);
    lightMarkup ??= markup;
    expect(violations, `${label ?? page.url()} (${colorScheme})`).toEqual([]);
  }
}
