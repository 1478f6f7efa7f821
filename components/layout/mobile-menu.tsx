"use client";

import { Link } from "@/components/ui/link";
import { useEffect, useRef } from "react";
import { Menu, X } from "lucide-react";
import { SignOutForm } from "@/components/auth/sign-out-form";
import { mainNav, mobileAccountNav, signOutLink, signedOutNav } from "@/config/nav";
import { buttonClasses } from "@/components/ui/button";
import { useOpenUntilNavigation } from "@/lib/hooks/use-open-until-navigation";
import { cn, displayName, initials } from "@/lib/utils";
import type { HeaderUser } from "@/lib/auth/header-user";
import { isActive } from "./main-nav";

const itemClass = "block rounded-md px-3 py-2.5 text-base font-medium hover:bg-accent hover:text-accent-foreground";

/** `status`: server-rendered text about the account (a break, an exclusion) shown under the user's name. */
export function MobileMenu({ user, status }: { user: HeaderUser | null; status?: React.ReactNode }) {
  const [open, setOpen, pathname] = useOpenUntilNavigation();

  // A native modal <dialog>: the browser traps focus, makes the page behind inert, closes on
  // Escape and gives focus back to the button, with no dialog library on every page.
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (open && !element?.open) element?.showModal();
    if (!open && element?.open) element.close();
  }, [open]);

  return (
    <>
      <button
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        className={buttonClasses("ghost", "icon", "md:hidden")}
      >
        <Menu aria-hidden className="size-5" />
      </button>
      {/* Its content only while open: closed, every page would carry and hydrate a second copy of the navigation. */}
      <dialog
        ref={dialog}
        aria-labelledby={open ? "mobile-menu-title" : undefined}
        onClose={() => setOpen(false)}
        // A click on the backdrop lands on the <dialog> itself; clicks inside land on its panel.
        onClick={(event) => event.target === event.currentTarget && setOpen(false)}
        className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-none w-[min(20rem,88vw)] max-w-none border-l border-border bg-background p-0 text-foreground shadow-xl backdrop:bg-overlay md:hidden"
      >
        {open ? (
          <div className="flex min-h-full flex-col gap-4 p-4">
            <div className="flex items-center justify-between">
              <h2 id="mobile-menu-title" className="text-lg font-semibold">
                Menu
              </h2>
              <button
                type="button"
                aria-label="Close menu"
                onClick={() => setOpen(false)}
                className={buttonClasses("ghost", "icon")}
              >
                <X aria-hidden className="size-5" />
              </button>
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
                  {status}
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
                    <SignOutForm>
                      <button type="submit" className={cn(itemClass, "w-full text-left")}>
                        {signOutLink.label}
                      </button>
                    </SignOutForm>
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
          </div>
        ) : null}
      </dialog>
    </>
  );
}
