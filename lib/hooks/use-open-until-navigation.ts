"use client";

import { usePathname } from "next/navigation";
import { useState } from "react";

/**
 * Open/closed state for a menu that closes itself on every route change (spec §2), back and
 * forward included. It adjusts state while rendering rather than in an effect, so the menu is
 * never painted open on the new page.
 */
export function useOpenUntilNavigation(): [
  open: boolean,
  setOpen: (open: boolean | ((open: boolean) => boolean)) => void,
  pathname: string,
] {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }
  return [open, setOpen, pathname];
}
