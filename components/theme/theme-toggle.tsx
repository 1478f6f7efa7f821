"use client";

import { useSyncExternalStore } from "react";
import { useTheme } from "next-themes";
import { Moon, Sun } from "lucide-react";
import { cn } from "@/lib/utils";

const subscribe = () => () => {};

/**
 * One button: it switches to the other mode of what is showing now (spec §9 labels). A choice
 * overrides "system"; with no choice made the site follows the operating system.
 */
export function ThemeToggle({ className }: { className?: string }) {
  const { resolvedTheme, setTheme, forcedTheme } = useTheme();
  // The resolved theme is unknown on the server; render a neutral button until hydrated.
  const mounted = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const isDark = mounted && (forcedTheme ?? resolvedTheme) === "dark";
  const label = isDark ? "Switch to light mode" : "Switch to dark mode";
  return (
    <button
      type="button"
      aria-label={label}
      title={forcedTheme ? `This page is shown in ${forcedTheme} mode` : label}
      disabled={!mounted || Boolean(forcedTheme)}
      onClick={() => setTheme(isDark ? "light" : "dark")}
      className={cn(
        "inline-flex size-10 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground disabled:opacity-60",
        className,
      )}
    >
      {isDark ? <Sun aria-hidden className="size-5" /> : <Moon aria-hidden className="size-5" />}
    </button>
  );
}
