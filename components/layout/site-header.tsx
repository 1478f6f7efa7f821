import Link from "next/link";
import { getAccount, isAdmin } from "@/lib/auth/session";
import { signedOutNav } from "@/config/nav";
import { buttonClasses } from "@/components/ui/button";
import { Badge, badgeClasses } from "@/components/ui/badge";
import { restrictionLabel } from "@/components/account/restriction";
import { DbError } from "@/lib/data/errors";
import { getMyProtections } from "@/lib/data/protections";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { SearchButton } from "@/components/search/search-button";
import { Logo } from "./logo";
import { MainNav } from "./main-nav";
import { MobileMenu } from "./mobile-menu";
import { UserMenu } from "./user-menu";
import type { HeaderUser } from "./header-user";

export async function getHeaderUser(): Promise<HeaderUser | null> {
  const account = await getAccount();
  if (!account) return null;
  return { name: account.name, email: account.email, approved: account.approved, admin: isAdmin(account) };
}

/**
 * "On a break until …", "Self-excluded until …" or "Account closed" for a signed-in player, else null.
 * Only signed-in visitors cost the extra call, cached per request (the responsible-play page reuses it).
 */
async function getRestriction(): Promise<string | null> {
  if (!(await getAccount())) return null;
  try {
    return restrictionLabel(await getMyProtections());
  } catch (e) {
    // The header must not fail a page: without the state it shows none, and the SQL still enforces it.
    if (!(e instanceof DbError)) throw e;
    console.error("get_my_protections failed", e);
    return null;
  }
}

/** The restriction as a link to the responsible-play page (server-rendered text; no client code). */
function RestrictionBadge({ label, className }: { label: string; className?: string }) {
  return (
    <Link href="/account/responsible-play" className={badgeClasses("warning", "sm", className)}>
      {label}
    </Link>
  );
}

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

export async function SiteHeader({ wide = false }: { wide?: boolean }) {
  const [user, restriction] = await Promise.all([getHeaderUser(), getRestriction()]);
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-header backdrop-blur supports-[backdrop-filter]:bg-header">
      <div className={`mx-auto flex h-16 items-center gap-2 px-4 sm:px-6 ${wide ? "max-w-screen-2xl" : "max-w-7xl"}`}>
        <div className="flex items-center gap-2">
          <Logo />
          <Badge title="LabCash is in beta: features may change">Beta</Badge>
        </div>
        <div className="ml-4 flex-1">
          <MainNav />
        </div>
        <SearchButton />
        <ThemeToggle />
        <div className="hidden items-center gap-2 md:flex">
          {restriction ? <RestrictionBadge label={restriction} /> : null}
          {user ? (
            <UserMenu user={user} />
          ) : (
            <>
              <Link href={signedOutNav[0].href} className={buttonClasses("ghost", "md")}>
                {signedOutNav[0].label}
              </Link>
              <Link href={signedOutNav[1].href} className={buttonClasses("primary", "md")}>
                {signedOutNav[1].label}
              </Link>
            </>
          )}
        </div>
        <MobileMenu
          user={user}
          status={restriction ? <RestrictionBadge label={restriction} className="mt-1" /> : null}
        />
      </div>
    </header>
  );
}
