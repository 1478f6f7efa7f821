import { describe, expect, it } from "vitest";
import { THEME_CHOICES, themeButtonLabel, themeChoice, themeChoiceLabel } from "@/lib/theme/theme-choice";

describe("colour-mode choice (spec §2)", () => {
  it("offers light, dark and system", () => {
    expect(THEME_CHOICES).toEqual(["light", "dark", "system"]);
  });

  it("words the light and dark choices as the specification does, and system with what the device gives", () => {
    expect(themeChoiceLabel("light", "dark")).toBe("Switch to light mode");
    expect(themeChoiceLabel("dark", "light")).toBe("Switch to dark mode");
    expect(themeChoiceLabel("system", "dark")).toBe("System (dark)");
    expect(themeChoiceLabel("system", "light")).toBe("System (light)");
    expect(themeChoiceLabel("system", undefined)).toBe("System");
  });

  it("reads anything but light or dark as system", () => {
    expect(themeChoice("light")).toBe("light");
    expect(themeChoice("dark")).toBe("dark");
    for (const stored of ["system", undefined, null, "", "sepia"]) expect(themeChoice(stored)).toBe("system");
  });

  it("names the button for the choice, and for system what the device gives", () => {
    expect(themeButtonLabel(null, undefined)).toBe("Colour mode");
    expect(themeButtonLabel("dark", "dark")).toBe("Colour mode: dark");
    expect(themeButtonLabel("light", "light")).toBe("Colour mode: light");
    expect(themeButtonLabel("system", "dark")).toBe("Colour mode: system (dark)");
    expect(themeButtonLabel("system", undefined)).toBe("Colour mode: system (light)");
  });
});
