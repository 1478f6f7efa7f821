import { Badge } from "@/components/ui/badge";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { requestTime } from "@/lib/competitions/status";
import { SearchButton } from "@/components/search/search-button";
import { HeaderAccount } from "./header-account";
import { Logo } from "./logo";
import { MainNav } from "./main-nav";

export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only z-[60] rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to content
    </a>
  );
}

/**
 * The same for every visitor (no session read here), so the pages around it can be static; the
 * account menu is the HeaderAccount island, which asks again whenever the server renders the header
 * again (an action's refresh after taking a break, saving the profile…).
 */
export function SiteHeader({ wide = false }: { wide?: boolean }) {
  return (
    // Opaque, with no backdrop blur: a blurred see-through header is filtered again on every scrolled frame, work
    // a phone's processor does for a look.
    <header className="sticky top-0 z-40 border-b border-border bg-background">
      <div className={`mx-auto flex h-16 items-center gap-2 px-4 sm:px-6 ${wide ? "max-w-screen-2xl" : "max-w-7xl"}`}>
        <div className="flex items-center gap-2">
          <Logo />
          {/* Left out on the narrowest phones, with the name (components/layout/logo.tsx): the buttons need the room. */}
          <Badge title="LabCash is in beta: features may change" className="max-[359px]:hidden">
            Beta
          </Badge>
        </div>
        <div className="ml-2 flex-1 sm:ml-4">
          <MainNav />
        </div>
        <SearchButton />
        <ThemeToggle />
        <HeaderAccount renderedAt={requestTime()} />
      </div>
    </header>
  );
}
