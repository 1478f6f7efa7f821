"use client";

import { useSyncExternalStore, type ComponentProps } from "react";
import { useTheme } from "next-themes";
import { Moon, Sun } from "lucide-react";
import { themeButtonLabel, themeChoice } from "@/lib/theme/theme-choice";

const subscribe = () => () => {};

/**
 * The colour-mode button's state, shared by the plain button every page hydrates with (./theme-toggle.tsx) and
 * the menu's trigger that replaces it (./theme-menu.tsx), so the swap changes nothing the visitor sees. The chosen
 * and resolved themes are unknown on the server, so the button is neutral and disabled until hydrated (no
 * mismatch), and disabled on a page that forces a mode.
 */
export function useThemeButton() {
  const { theme, resolvedTheme, systemTheme, setTheme, forcedTheme } = useTheme();
  const mounted = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const choice = mounted ? themeChoice(theme) : null;
  const shown = mounted ? (forcedTheme ?? resolvedTheme) : undefined;
  const label = themeButtonLabel(choice, shown);
  const button = {
    "aria-label": label,
    title: forcedTheme ? `This page is shown in ${forcedTheme} mode` : label,
    disabled: !mounted || Boolean(forcedTheme),
    className:
      "inline-flex size-10 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground disabled:opacity-60",
    children: shown === "dark" ? <Moon aria-hidden className="size-5" /> : <Sun aria-hidden className="size-5" />,
  } satisfies ComponentProps<"button">;
  const device = mounted ? systemTheme : undefined;
  return { choice, device, setTheme, button };
}
