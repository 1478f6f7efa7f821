import type { ReactNode } from "react";
import { ForceThemeSync } from "./force-theme-sync";

/**
 * Forces a page into light or dark mode (never "system", spec §2). The wrapper's class scopes the
 * colour tokens from the first byte of HTML, so the page never flashes; once hydrated, the whole
 * document (header, footer) follows and the colour-mode switch is disabled until the page is left.
 */
export function ForcedTheme({ theme, children }: { theme: "light" | "dark"; children: ReactNode }) {
  return (
    <div className={`${theme} bg-background text-foreground`} data-forced-theme={theme}>
      <ForceThemeSync theme={theme} />
      {children}
    </div>
  );
}
