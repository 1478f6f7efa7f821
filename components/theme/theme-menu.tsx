"use client";

import { useEffect, useRef } from "react";
import { Monitor, Moon, Sun } from "lucide-react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { THEME_CHOICES, themeChoice, themeChoiceLabel } from "@/lib/theme/theme-choice";
import { useThemeButton } from "./theme-button";

const icons = { light: Sun, dark: Moon, system: Monitor } as const;

export type ThemeMenuProps = {
  /** Open at once: the visitor pressed the plain button while this chunk was on its way. */
  defaultOpen: boolean;
  /** Focus the trigger at once: it replaces the plain button, which had the focus. */
  focusTrigger: boolean;
};

/**
 * A menu of three, the choice ticked ("Switch to light mode", "Switch to dark mode", "System (light)"); "System"
 * follows the device again after a light or dark choice. Loaded on demand by ./theme-toggle.tsx, whose button it
 * replaces with a trigger that looks and is named the same.
 */
export function ThemeMenu({ defaultOpen, focusTrigger }: ThemeMenuProps) {
  const { choice, device, setTheme, button } = useThemeButton();
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusTrigger && !defaultOpen) trigger.current?.focus();
  }, [focusTrigger, defaultOpen]);
  return (
    <DropdownMenu modal={false} defaultOpen={defaultOpen}>
      <DropdownMenuTrigger ref={trigger} {...button} />
      <DropdownMenuContent align="end" className="min-w-40">
        <DropdownMenuLabel className="text-muted-foreground">Colour mode</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={choice ?? "system"} onValueChange={(value) => setTheme(themeChoice(value))}>
          {THEME_CHOICES.map((value) => {
            const Icon = icons[value];
            return (
              <DropdownMenuRadioItem key={value} value={value}>
                <Icon aria-hidden />
                {themeChoiceLabel(value, device)}
              </DropdownMenuRadioItem>
            );
          })}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
