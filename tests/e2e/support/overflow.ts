import type { Page } from "@playwright/test";

/**
 * Every box in the page's main content whose content is wider than the box, and every element anywhere whose right
 * edge is past the viewport's, as "tag.class… : what" lines (none when the page fits). The header's badges sit over
 * their buttons' corners on purpose, so its boxes are measured against the viewport only. Elements inside a box
 * that scrolls sideways on purpose (a wide table in its scroller) and visually hidden text (clipped to a pixel) are
 * left out; inline elements have no box of their own, so only their right edge is measured.
 */
export function overflowingBoxes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const found: string[] = [];
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}.${String(element.className).trim().split(/\s+/).slice(0, 4).join(".")} "${(element.textContent ?? "").trim().slice(0, 40)}"`;
    const leftOut = (element: Element) => {
      for (let at: Element | null = element.parentElement; at; at = at.parentElement) {
        const style = getComputedStyle(at);
        if (["auto", "scroll"].includes(style.overflowX) && at !== document.documentElement && at !== document.body) {
          return true;
        }
      }
      for (let at: Element | null = element; at; at = at.parentElement) {
        const style = getComputedStyle(at);
        const clipped = (style.clip !== "auto" && style.clip !== "") || style.clipPath !== "none";
        if (style.position === "absolute" && clipped) return true;
      }
      return false;
    };
    if (document.documentElement.scrollWidth > viewport) {
      found.push(`the page: ${document.documentElement.scrollWidth}px wide in a ${viewport}px viewport`);
    }
    for (const element of document.body.querySelectorAll("*")) {
      const style = getComputedStyle(element);
      if (style.display === "none" || style.display === "contents" || style.visibility === "hidden") continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || leftOut(element)) continue;
      const scroller = ["auto", "scroll"].includes(style.overflowX);
      if (
        !scroller &&
        style.display !== "inline" &&
        element.closest("main") &&
        element.scrollWidth > element.clientWidth + 1 &&
        element.clientWidth > 0
      ) {
        found.push(`${name(element)}: content ${element.scrollWidth}px in a ${element.clientWidth}px box`);
      }
      if (box.right > viewport + 0.5) found.push(`${name(element)}: right edge at ${Math.round(box.right)}px`);
    }
    return found;
  });
}
