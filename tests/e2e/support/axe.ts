import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** Axe's findings on the page as it is now (WCAG 2.2 A and AA, and best practice), one line per rule. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
