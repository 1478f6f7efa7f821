"use client";

import { Link } from "@/components/ui/link";
import { useState } from "react";
import {
  Award,
  Bell,
  Gift,
  ChevronDown,
  FerrisWheel,
  HeartHandshake,
  History,
  LayoutDashboard,
  Mail,
  MessageSquareWarning,
  PanelLeftClose,
  PanelLeftOpen,
  ScrollText,
  Server,
  Settings,
  ShieldAlert,
  Ticket,
  Trophy,
  UserCheck,
  UserCog,
  Users,
  Wallet,
  type LucideIcon,
} from "lucide-react";
import type { NavLink } from "@/config/nav";
import { useOpenUntilNavigation } from "@/lib/hooks/use-open-until-navigation";
import { cn } from "@/lib/utils";
import { SIDEBAR_COOKIE, SIDEBAR_COOKIE_MAX_AGE } from "@/lib/layout/sidebar-cookie";

// Icons live here rather than in config/nav.ts: the links cross from the server shell as plain data.
const ICONS: Record<string, LucideIcon> = {
  "/account": LayoutDashboard,
  "/account/entries": Ticket,
  "/account/prizes": Gift,
  "/account/credits": Wallet,
  "/account/notifications": Bell,
  "/account/profile": UserCog,
  "/account/responsible-play": HeartHandshake,
  "/admin": LayoutDashboard,
  "/admin/users": Users,
  "/admin/approvals": UserCheck,
  "/admin/competitions": Trophy,
  "/admin/competitions/history": History,
  "/admin/competitions/winners": Award,
  "/admin/activity": ScrollText,
  "/admin/mail": Mail,
  "/admin/settings": Settings,
  "/admin/protection": ShieldAlert,
  "/admin/complaints": MessageSquareWarning,
  "/admin/labspinner": FerrisWheel,
  "/admin/system": Server,
};

function isCurrent(pathname: string, href: string, links: NavLink[]) {
  // The deepest matching link wins, so /admin does not stay highlighted on /admin/users.
  const matches = links.filter((l) => pathname === l.href || pathname.startsWith(`${l.href}/`));
  const best = matches.sort((a, b) => b.href.length - a.href.length)[0];
  return best?.href === href;
}

/**
 * The dashboard's section list. From md up it is a sidebar that collapses to icons ("Collapse sidebar" /
 * "Expand sidebar", spec §9); the choice is kept in a cookie the server reads, so the next page is
 * rendered the same way with no flash. Below md it is a menu behind one button that closes on navigation.
 */
export function DashboardSidebar({
  title,
  links,
  initialCollapsed,
}: {
  title: string;
  links: NavLink[];
  initialCollapsed: boolean;
}) {
  const [collapsed, setCollapsed] = useState(initialCollapsed);
  const [menuOpen, setMenuOpen, pathname] = useOpenUntilNavigation();
  const navId = `${title.toLowerCase().replace(/\W+/g, "-")}-sections`;

  const toggle = () => {
    const next = !collapsed;
    setCollapsed(next);
    document.cookie = `${SIDEBAR_COOKIE}=${next ? "collapsed" : "expanded"}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; samesite=lax`;
  };

  return (
    <aside
      className={cn(
        "border-b border-border md:sticky md:top-16 md:h-[calc(100dvh-4rem)] md:shrink-0 md:overflow-y-auto md:border-r md:border-b-0",
        collapsed ? "md:w-16" : "md:w-60",
      )}
    >
      <div className="flex items-center justify-between gap-2 px-4 pt-3 pb-3 md:px-3 md:pb-0">
        <h2 className={cn("text-sm font-semibold text-muted-foreground", collapsed ? "md:sr-only" : null)}>{title}</h2>
        <button
          type="button"
          aria-expanded={menuOpen}
          aria-controls={navId}
          onClick={() => setMenuOpen((open) => !open)}
          className="inline-flex h-9 items-center gap-1 rounded-md border border-border px-3 text-sm font-medium hover:bg-accent md:hidden"
        >
          {title} menu
          <ChevronDown aria-hidden className={cn("size-4 transition-transform", menuOpen ? "rotate-180" : null)} />
        </button>
        <button
          type="button"
          onClick={toggle}
          aria-label={collapsed ? "Expand sidebar" : "Collapse sidebar"}
          aria-controls={navId}
          title={collapsed ? "Expand sidebar" : "Collapse sidebar"}
          className="hidden size-9 shrink-0 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground md:inline-flex"
        >
          {collapsed ? (
            <PanelLeftOpen aria-hidden className="size-4" />
          ) : (
            <PanelLeftClose aria-hidden className="size-4" />
          )}
        </button>
      </div>
      <nav
        id={navId}
        aria-label={title}
        className={cn("px-2 pb-3 md:block md:py-3", menuOpen ? "block" : "hidden")}
        data-collapsed={collapsed ? "" : undefined}
      >
        <ul className="flex flex-col gap-1">
          {links.map((link) => {
            const current = isCurrent(pathname, link.href, links);
            const Icon = ICONS[link.href];
            return (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={current ? "page" : undefined}
                  title={collapsed ? link.label : undefined}
                  className={cn(
                    "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap",
                    collapsed ? "md:justify-center md:px-0" : null,
                    current
                      ? "bg-primary-soft text-primary-text"
                      : "text-muted-foreground hover:bg-accent hover:text-accent-foreground",
                  )}
                >
                  {Icon ? <Icon aria-hidden className="size-4 shrink-0" /> : null}
                  <span className={collapsed ? "md:sr-only" : undefined}>{link.label}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </aside>
  );
}
