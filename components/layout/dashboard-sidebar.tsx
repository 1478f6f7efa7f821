"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { PanelLeftClose, PanelLeftOpen } from "lucide-react";
import type { NavLink } from "@/config/nav";
import { cn } from "@/lib/utils";

function isCurrent(pathname: string, href: string, links: NavLink[]) {
  // The deepest matching link wins, so /admin does not stay highlighted on /admin/users.
  const matches = links.filter((l) => pathname === l.href || pathname.startsWith(`${l.href}/`));
  const best = matches.sort((a, b) => b.href.length - a.href.length)[0];
  return best?.href === href;
}

export function DashboardSidebar({ title, links }: { title: string; links: NavLink[] }) {
  const pathname = usePathname();
  const [collapsed, setCollapsed] = useState(false);
  return (
    <aside
      className={cn(
        "border-b border-border md:sticky md:top-16 md:h-[calc(100dvh-4rem)] md:shrink-0 md:border-r md:border-b-0",
        collapsed ? "md:w-16" : "md:w-60",
      )}
    >
      <div className="flex items-center justify-between px-4 pt-4 md:px-3">
        <h2 className={cn("text-sm font-semibold text-muted-foreground", collapsed && "md:sr-only")}>{title}</h2>
        <button
          type="button"
          onClick={() => setCollapsed((c) => !c)}
          aria-label={collapsed ? "Expand sidebar" : "Collapse sidebar"}
          aria-expanded={!collapsed}
          className="hidden size-9 items-center justify-center rounded-md text-muted-foreground hover:bg-accent md:inline-flex"
        >
          {collapsed ? (
            <PanelLeftOpen aria-hidden className="size-4" />
          ) : (
            <PanelLeftClose aria-hidden className="size-4" />
          )}
        </button>
      </div>
      <nav aria-label={title} className={cn("overflow-x-auto px-2 py-3", collapsed && "md:hidden")}>
        <ul className="flex gap-1 md:flex-col">
          {links.map((link) => {
            const current = isCurrent(pathname, link.href, links);
            return (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={current ? "page" : undefined}
                  className={cn(
                    "block rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap",
                    current
                      ? "bg-primary-soft text-primary-text"
                      : "text-muted-foreground hover:bg-accent hover:text-accent-foreground",
                  )}
                >
                  {link.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </aside>
  );
}
