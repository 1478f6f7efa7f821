"use client";

import { useRef, useState, type ComponentType } from "react";
import { useThemeButton } from "./theme-button";
import type { ThemeMenuProps } from "./theme-menu";

type Menu = ComponentType<ThemeMenuProps>;

/**
 * Light, dark or system (spec §2). Every page hydrates with a plain button; the menu (a Radix dropdown, about
 * 30 kB compressed) is fetched when the visitor points at, focuses or presses the button, never as part of the
 * page's first load. A press before it has arrived opens it on arrival, and focus moves to its trigger.
 */
export function ThemeToggle() {
  const { button } = useThemeButton();
  const [menu, setMenu] = useState<{ Menu: Menu; open: boolean; focus: boolean } | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wantsOpen = useRef(false);
  const loading = useRef(false);

  const load = (open: boolean) => {
    wantsOpen.current ||= open;
    if (loading.current) return;
    loading.current = true;
    import("./theme-menu").then(
      ({ ThemeMenu }) =>
        setMenu({
          Menu: ThemeMenu,
          open: wantsOpen.current,
          focus: buttonRef.current !== null && document.activeElement === buttonRef.current,
        }),
      // Offline or a new deployment: the next intent tries again.
      () => {
        loading.current = false;
      },
    );
  };

  if (menu) return <menu.Menu defaultOpen={menu.open} focusTrigger={menu.focus} />;
  return (
    <button
      ref={buttonRef}
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      {...button}
      onPointerEnter={() => load(false)}
      onFocus={() => load(false)}
      onClick={() => load(true)}
    />
  );
}
