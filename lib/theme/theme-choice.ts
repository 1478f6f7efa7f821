// The colour-mode choice (spec §2: light and dark, and a system option). Pure, shared by the menu and the tests.

export type ThemeChoice = "light" | "dark" | "system";

export const THEME_CHOICES: readonly { value: ThemeChoice; label: string }[] = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "system", label: "System" },
];

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
