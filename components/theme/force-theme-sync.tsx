"use client";

import { useEffect } from "react";
import { useForceTheme } from "./theme-provider";

export function ForceThemeSync({ theme }: { theme: "light" | "dark" }) {
  const force = useForceTheme();
  useEffect(() => {
    force(theme);
    return () => force(undefined);
  }, [force, theme]);
  return null;
}
