"use client";

import { useSyncExternalStore } from "react";
import { useTheme } from "next-themes";
import { Monitor, Moon, Sun } from "lucide-react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { cn } from "@/lib/utils";
import { THEME_CHOICES, themeButtonLabel, themeChoice } from "@/lib/theme/theme-choice";

const subscribe = () => () => {};
const icons = { light: Sun, dark: Moon, system: Monitor } as const;

/**
 * Light, dark or system (spec §2): a menu of three, the choice ticked. "System" follows the device again
 * after a light or dark choice. The chosen and resolved themes are unknown on the server, so the button is
 * neutral and disabled until hydrated (no mismatch), and disabled on a page that forces a mode.
 */
export function ThemeMenu({ className }: { className?: string }) {
  const { theme, resolvedTheme, setTheme, forcedTheme } = useTheme();
  const mounted = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const choice = mounted ? themeChoice(theme) : null;
  const shown = mounted ? (forcedTheme ?? resolvedTheme) : undefined;
  const label = themeButtonLabel(choice, shown);
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        aria-label={label}
        title={forcedTheme ? `This page is shown in ${forcedTheme} mode` : label}
        disabled={!mounted || Boolean(forcedTheme)}
        className={cn(
          "inline-flex size-10 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground disabled:opacity-60",
          className,
        )}
      >
        {shown === "dark" ? <Moon aria-hidden className="size-5" /> : <Sun aria-hidden className="size-5" />}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-40">
        <DropdownMenuLabel className="text-muted-foreground">Colour mode</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={choice ?? "system"} onValueChange={(value) => setTheme(themeChoice(value))}>
          {THEME_CHOICES.map(({ value, label: name }) => {
            const Icon = icons[value];
            return (
              <DropdownMenuRadioItem key={value} value={value}>
                <Icon aria-hidden />
                {name}
              </DropdownMenuRadioItem>
            );
          })}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
