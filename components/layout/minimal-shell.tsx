import { siteConfig } from "@/config/site";
import { Badge } from "@/components/ui/badge";
import { Logo } from "./logo";

// A frame that needs nothing from the server: used by the error boundaries.
export function MinimalShell({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-border">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6">
          <Logo />
          <Badge>Beta</Badge>
        </div>
      </header>
      <main id="main" className="flex-1">
        {children}
      </main>
      <footer className="border-t border-border px-4 py-5 text-center text-xs text-muted-foreground">
        {siteConfig.operator.notice}
      </footer>
    </div>
  );
}
