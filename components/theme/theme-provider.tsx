"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import { ThemeProvider as NextThemesProvider } from "next-themes";

export type ForcedTheme = "light" | "dark" | undefined;

const ForceThemeContext = createContext<(theme: ForcedTheme) => void>(() => {});
export const useForceTheme = () => useContext(ForceThemeContext);

// next-themes renders an inline <script> that sets the theme class before first paint. Its text is
// next-themes' bundled source, which the strict Content-Security-Policy of the per-request pages
// cannot know the hash of, and the root layout cannot give it a nonce without rendering every cached
// page per request. So it is always a JSON data block (inert, never checked against the policy), and
// lib/document-script.ts does its job with a constant script the policy lists by hash. As a data
// block it also never makes React 19 warn about a script tag rendered on the client
// (pacocoursey/next-themes#385).
const inertScriptProps = { type: "application/json" } as const;

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [forcedTheme, setForcedTheme] = useState<ForcedTheme>(undefined);
  return (
    <NextThemesProvider
      attribute="class"
      defaultTheme="system"
      enableSystem
      disableTransitionOnChange
      forcedTheme={forcedTheme}
      scriptProps={inertScriptProps}
    >
      <ForceThemeContext.Provider value={setForcedTheme}>{children}</ForceThemeContext.Provider>
    </NextThemesProvider>
  );
}
