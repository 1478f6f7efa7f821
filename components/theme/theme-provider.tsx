"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import { ThemeProvider as NextThemesProvider } from "next-themes";

export type ForcedTheme = "light" | "dark" | undefined;

const ForceThemeContext = createContext<(theme: ForcedTheme) => void>(() => {});
export const useForceTheme = () => useContext(ForceThemeContext);

// next-themes renders an inline <script> that sets the theme class before first paint. It only does
// its job in the server-rendered HTML; when React 19 creates that element on the client (a re-mount,
// a not-found render) it logs "Encountered a script tag while rendering React component", which Next 16
// shows in its dev overlay (pacocoursey/next-themes#385, unfixed in 0.4.6). React does not warn for
// data blocks, so on the client we give the script a JSON type: it is inert there anyway, and the
// script element carries suppressHydrationWarning, so the differing attribute does not warn either.
const clientScriptProps = typeof window === "undefined" ? undefined : ({ type: "application/json" } as const);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [forcedTheme, setForcedTheme] = useState<ForcedTheme>(undefined);
  return (
    <NextThemesProvider
      attribute="class"
      defaultTheme="system"
      enableSystem
      disableTransitionOnChange
      forcedTheme={forcedTheme}
      scriptProps={clientScriptProps}
    >
      <ForceThemeContext.Provider value={setForcedTheme}>{children}</ForceThemeContext.Provider>
    </NextThemesProvider>
  );
}
