import { Link } from "@/components/ui/link";
import { docsTopNav } from "@/config/nav";
import { docsNavigation } from "@/lib/content/docs";
import { SiteFooter } from "@/components/layout/site-footer";
import { SiteHeader, SkipLink } from "@/components/layout/site-header";
import { DocsSidebar } from "./docs-sidebar";
import { DocsMobileNav } from "./docs-mobile-nav";

// Docs layout frame: header, the top-level docs links, a sidebar tree, the page and its outline.
export function DocsShell({ children }: { children: React.ReactNode }) {
  const tree = docsNavigation();
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader wide />
      <div className="border-b border-border">
        <nav aria-label="Docs sections" className="mx-auto flex max-w-screen-2xl gap-1 overflow-x-auto px-4 sm:px-6">
          {docsTopNav.map((link) => (
            <Link
              key={link.href}
              href={link.href}
              className="px-3 py-2.5 text-sm font-medium text-muted-foreground hover:text-foreground"
            >
              {link.label}
            </Link>
          ))}
        </nav>
      </div>
      <div className="mx-auto w-full max-w-screen-2xl flex-1 px-4 sm:px-6 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-10">
        <aside aria-label="Documentation sidebar" className="hidden lg:block">
          <div className="sticky top-16 max-h-[calc(100dvh-4rem)] overflow-y-auto py-8 pr-2">
            <DocsSidebar tree={tree} />
          </div>
        </aside>
        <div className="min-w-0">
          <div className="pt-4 lg:hidden">
            <DocsMobileNav tree={tree} />
          </div>
          <main id="main" className="min-w-0 py-8">
            {children}
          </main>
        </div>
      </div>
      <SiteFooter />
    </div>
  );
}
