"use client";

import { ChevronDown } from "lucide-react";
import { useOpenUntilNavigation } from "@/lib/hooks/use-open-until-navigation";
import type { NavNode } from "@/lib/content/docs";
import { DocsSidebar } from "./docs-sidebar";

/** The docs tree on small screens: a disclosure that closes itself after navigation. */
export function DocsMobileNav({ tree }: { tree: NavNode[] }) {
  const [open, setOpen] = useOpenUntilNavigation();
  return (
    <div className="rounded-lg border border-border">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="docs-mobile-tree"
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center justify-between px-4 py-3 text-sm font-medium"
      >
        Documentation menu
        <ChevronDown aria-hidden className={`size-4 transition-transform ${open ? "rotate-180" : ""}`} />
      </button>
      <div id="docs-mobile-tree" hidden={!open} className="border-t border-border p-2">
        <DocsSidebar tree={tree} />
      </div>
    </div>
  );
}
