"use client";

import dynamic from "next/dynamic";

// The avatar menu (Radix dropdown) is its own chunk, so signed-out visitors never download it.
export const UserMenu = dynamic(() => import("./user-menu-dropdown").then((m) => m.UserMenuDropdown));
