import { SiteFooter } from "./site-footer";
import { SiteHeader, SkipLink } from "./site-header";

// Default layout frame: header, main, footer.
export function SiteShell({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader />
      <main id="main" className="flex-1">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
