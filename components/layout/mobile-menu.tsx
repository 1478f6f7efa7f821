"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { Dialog } from "radix-ui";
import { Menu, X } from "lucide-react";
import { mainNav, mobileAccountNav, signOutLink, signedOutNav } from "@/config/nav";
import { buttonClasses } from "@/components/ui/button";
import { cn, displayName, initials } from "@/lib/utils";
import type { HeaderUser } from "./header-user";
import { isActive } from "./main-nav";

const itemClass = "block rounded-md px-3 py-2.5 text-base font-medium hover:bg-accent hover:text-accent-foreground";

export function MobileMenu({ user }: { user: HeaderUser | null }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  // Close on every route change (spec §2), back/forward included: adjust state while rendering.
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={setOpen}
    >
      <Dialog.Trigger aria-label="Open menu" className={buttonClasses("ghost", "icon", "md:hidden")}>
        <Menu aria-hidden className="size-5" />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 md:hidden" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 flex w-[min(20rem,88vw)] flex-col gap-4 overflow-y-auto border-l border-border bg-background p-4 shadow-xl md:hidden"
        >
          <div className="flex items-center justify-between">
            <Dialog.Title className="text-lg font-semibold">Menu</Dialog.Title>
            <Dialog.Close aria-label="Close menu" className={buttonClasses("ghost", "icon")}>
              <X aria-hidden className="size-5" />
            </Dialog.Close>
          </div>
          {user ? (
            <div className="flex items-center gap-3 rounded-lg bg-muted p-3">
              <span
                aria-hidden
                className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
              >
                {initials(user.name, user.email)}
              </span>
              <div className="min-w-0">
                <p className="truncate font-semibold">{displayName(user.name, user.email)}</p>
                {user.email ? <p className="truncate text-sm text-muted-foreground">{user.email}</p> : null}
              </div>
            </div>
          ) : null}
          <nav aria-label="Mobile">
            <ul className="space-y-1">
              {mainNav.map((link) => (
                <li key={link.href}>
                  <Link
                    href={link.href}
                    aria-current={isActive(pathname, link.href) ? "page" : undefined}
                    className={cn(itemClass, isActive(pathname, link.href) && "bg-accent")}
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
            <hr className="my-3 border-border" />
            {user ? (
              <ul className="space-y-1">
                {mobileAccountNav.map((link) => (
                  <li key={link.href}>
                    <Link href={link.href} className={itemClass}>
                      {link.label}
                    </Link>
                  </li>
                ))}
                <li>
                  <a href={signOutLink.href} className={itemClass}>
                    {signOutLink.label}
                  </a>
                </li>
              </ul>
            ) : (
              <div className="grid gap-2">
                <Link href={signedOutNav[0].href} className={buttonClasses("outline", "lg")}>
                  {signedOutNav[0].label}
                </Link>
                <Link href={signedOutNav[1].href} className={buttonClasses("primary", "lg")}>
                  {signedOutNav[1].label}
                </Link>
              </div>
            )}
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
