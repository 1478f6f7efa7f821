"use client";

import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { signedOutNav } from "@/config/nav";
import { buttonClasses } from "@/components/ui/button";
import { badgeClasses } from "@/components/ui/badge";
import { usePersonal } from "@/lib/hooks/use-personal";
import { MobileMenu } from "./mobile-menu";
import { NotificationBell } from "./notification-bell";
import { UserMenu } from "./user-menu";
import type { HeaderSession } from "@/lib/auth/header-user";

// While <html data-session> says a session cookie is present (set before the first paint), the
// sign-in links give way to a placeholder the size of the avatar, so nothing flashes.
const signedOutOnly = "[[data-session]_&]:hidden";

/** The restriction as a link to the responsible-play page. */
function RestrictionBadge({ label, className }: { label: string; className?: string }) {
  return (
    <Link href="/account/responsible-play" className={badgeClasses("warning", "sm", className)}>
      {label}
    </Link>
  );
}

/** How often an open, visible tab asks again, so the bell's count changes without a reload (docs/decisions/054). */
const HEADER_REFRESH_MS = 60_000;

/**
 * The header's personal part, a client island: the page around it is the same static document for
 * everyone. Signed out it is the sign-in links at once; with a session cookie it asks
 * /api/session/header, again after each navigation and each new server render of the header
 * (`renderedAt`), every minute while the tab is visible and when it comes back to it, and shows the bell,
 * the avatar menu and any restriction.
 */
export function HeaderAccount({ renderedAt }: { renderedAt: number }) {
  const pathname = usePathname();
  const data = usePersonal<HeaderSession>("/api/session/header", `${pathname} ${renderedAt}`, HEADER_REFRESH_MS);
  const user = data?.user ?? null;
  const restriction = data?.restriction ?? null;
  return (
    <>
      {user ? <NotificationBell unread={data?.unread ?? 0} /> : null}
      <div className="hidden items-center gap-2 md:flex">
        {restriction ? <RestrictionBadge label={restriction} /> : null}
        {user ? (
          <UserMenu user={user} />
        ) : (
          <>
            <span aria-hidden className="hidden size-10 rounded-full bg-muted [[data-session]_&]:block" />
            <Link href={signedOutNav[0].href} className={buttonClasses("ghost", "md", signedOutOnly)}>
              {signedOutNav[0].label}
            </Link>
            <Link href={signedOutNav[1].href} className={buttonClasses("primary", "md", signedOutOnly)}>
              {signedOutNav[1].label}
            </Link>
          </>
        )}
      </div>
      <MobileMenu user={user} status={restriction ? <RestrictionBadge label={restriction} className="mt-1" /> : null} />
    </>
  );
}
