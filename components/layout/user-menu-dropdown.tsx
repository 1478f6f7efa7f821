"use client";

import { Link } from "@/components/ui/link";
import { useRef } from "react";
import { Clock, CreditCard, LayoutDashboard, LogOut, Settings, Shield, Ticket } from "lucide-react";
import { SignOutForm } from "@/components/auth/sign-out-form";
import { accountMenu, signOutLink } from "@/config/nav";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { displayName, initials } from "@/lib/utils";
import type { HeaderUser } from "@/lib/auth/header-user";

const icons: Record<string, typeof Clock> = {
  "/pending-approval": Clock,
  "/account": LayoutDashboard,
  "/account/entries": Ticket,
  "/account/credits": CreditCard,
  "/account/profile": Settings,
  "/admin": Shield,
};

export function UserMenuDropdown({ user }: { user: HeaderUser }) {
  const shown = displayName(user.name, user.email);
  const entries = accountMenu.filter((e) => (!e.pendingOnly || !user.approved) && (!e.adminOnly || user.admin));
  const signOut = useRef<HTMLFormElement>(null);
  return (
    <>
      <DropdownMenu>
        {/* The name comes from hidden text, not aria-label, so the visible initials never
          contradict it (WCAG 2.5.3, axe label-content-name-mismatch). */}
        <DropdownMenuTrigger className="inline-flex size-10 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground hover:bg-primary-hover">
          <span aria-hidden>{initials(user.name, user.email)}</span>
          <span className="sr-only">Account menu for {shown}</span>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuLabel>
            <span className="block truncate font-semibold">{shown}</span>
            {user.email && user.email !== shown ? (
              <span className="block truncate text-muted-foreground">{user.email}</span>
            ) : null}
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          {entries.map((entry) => {
            const Icon = icons[entry.href];
            return (
              <DropdownMenuItem key={entry.href} asChild>
                <Link href={entry.href}>
                  {Icon ? <Icon aria-hidden /> : null}
                  {entry.label}
                </Link>
              </DropdownMenuItem>
            );
          })}
          <DropdownMenuSeparator />
          {/* Posts the sign-out form below (outside the menu, which closes as the item is chosen): one
            click, a POST from this site, never a link another site could send a visitor to. */}
          <DropdownMenuItem onSelect={() => signOut.current?.requestSubmit()}>
            <LogOut aria-hidden />
            {signOutLink.label}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <SignOutForm ref={signOut} className="hidden" />
    </>
  );
}
