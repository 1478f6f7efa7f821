// WCAG 2 contrast between two #rrggbb colours, for the wheel editor's live preview only: the rule that
// decides is SQL's private.contrast_ratio (admin_update_spinner_wheel refuses a segment under 4.5:1). Same
// formula, unrounded as WCAG compares it (4.4976 fails), so the preview and the refusal agree.

/** The contrast a segment's label needs on its colour (WCAG AA for normal text). */
export const MIN_CONTRAST = 4.5;

const HEX = /^#[0-9a-f]{6}$/i;

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio (1 to 21, unrounded) of two #rrggbb colours, or null when either is not one. */
export function contrastRatio(a: string, b: string): number | null {
  if (!HEX.test(a) || !HEX.test(b)) return null;
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** A ratio for display, cut (not rounded) to 2 places so a failing 4.4976 never reads as 4.50. */
export function formatContrast(ratio: number): string {
  return (Math.floor(ratio * 100) / 100).toFixed(2);
}
