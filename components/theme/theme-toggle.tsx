"use client";

import dynamic from "next/dynamic";

// The colour-mode menu (a Radix dropdown) is its own chunk; until it arrives a disabled button of the same
// size and name holds its place, as the menu itself does until hydrated.
export const ThemeToggle = dynamic(() => import("./theme-menu").then((m) => m.ThemeMenu), {
  loading: () => (
    <button
      type="button"
      aria-label="Colour mode"
      disabled
      className="inline-flex size-10 items-center justify-center rounded-md opacity-60"
    />
  ),
});
