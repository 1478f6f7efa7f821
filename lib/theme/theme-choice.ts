// The colour-mode choice (spec §2: light and dark, and a system option). Pure, shared by the menu and the tests.
// The light and dark choices carry the specification's own words ("Switch to light mode", "Switch to dark mode").

export type ThemeChoice = "light" | "dark" | "system";

export const THEME_CHOICES: readonly ThemeChoice[] = ["light", "dark", "system"];

/** What next-themes stored (anything, even a hand-edited localStorage value), as one of the three choices. */
export function themeChoice(stored: string | null | undefined): ThemeChoice {
  return stored === "light" || stored === "dark" ? stored : "system";
}

/**
 * The menu button's accessible name: the choice and, for "system", what the device gives. Before hydration
 * (choice null) it names the control only.
 */
export function themeButtonLabel(choice: ThemeChoice | null, resolved: string | undefined): string {
  if (choice === null) return "Colour mode";
  if (choice === "system") return `Colour mode: system (${resolved === "dark" ? "dark" : "light"})`;
  return `Colour mode: ${choice}`;
}

/**
 * A menu choice's words. "System" says what the device gives now (unknown before hydration), so the visitor sees
 * what choosing it would show, and the words change when the device switches.
 */
export function themeChoiceLabel(choice: ThemeChoice, device: string | undefined): string {
  if (choice === "light") return "Switch to light mode";
  if (choice === "dark") return "Switch to dark mode";
  return device === "light" || device === "dark" ? `System (${device})` : "System";
}
