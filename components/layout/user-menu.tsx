"use client";

import dynamic from "next/dynamic";

// The avatar menu (Radix dropdown) is its own chunk, so signed-out visitors never download it; until
// it arrives, a placeholder holds its place.
export const UserMenu = dynamic(() => import("./user-menu-dropdown").then((m) => m.UserMenuDropdown), {
  loading: () => <span aria-hidden className="size-10 rounded-full bg-muted" />,
});
