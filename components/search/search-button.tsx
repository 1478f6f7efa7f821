"use client";

import dynamic from "next/dynamic";
import { useEffect, useState, useSyncExternalStore } from "react";
import { Search } from "lucide-react";
import { searchShortcut } from "@/lib/search-shortcut";
import { cn } from "@/lib/utils";

// The palette (cmdk, minisearch and the index) loads only when first opened.
const SearchPalette = dynamic(() => import("./search-palette").then((m) => m.SearchPalette), { ssr: false });

const subscribe = () => () => {};
type NavigatorWithHints = Navigator & { userAgentData?: { platform?: string } };
const platform = () => {
  const nav = navigator as NavigatorWithHints;
  return nav.userAgentData?.platform || nav.platform || nav.userAgent;
};

export function SearchButton({ className }: { className?: string }) {
  // The device is known only in the browser: no hint in the server's HTML, then ⌘K or Ctrl K once hydrated.
  const device = useSyncExternalStore(subscribe, platform, () => null);
  const shortcut = device === null ? null : searchShortcut(device);
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // meta+K on Apple keyboards, ctrl+K elsewhere (spec §9).
      if (event.key.toLowerCase() === "k" && (event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey) {
        event.preventDefault();
        setWanted(true);
        setOpen((o) => !o);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <>
      <button
        type="button"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        onPointerEnter={() => setWanted(true)}
        aria-keyshortcuts={shortcut?.keys ?? "Meta+K Control+K"}
        className={cn(
          "inline-flex h-10 items-center gap-2 rounded-md border border-border bg-background px-3 text-sm text-muted-foreground hover:bg-accent hover:text-accent-foreground",
          className,
        )}
      >
        <Search aria-hidden className="size-4" />
        <span className="sr-only lg:not-sr-only">Search...</span>
        {shortcut ? (
          <kbd
            aria-hidden
            data-testid="search-shortcut"
            className="hidden rounded border border-border bg-muted px-1.5 font-mono text-xs lg:inline"
          >
            {shortcut.label}
          </kbd>
        ) : null}
      </button>
      {wanted ? <SearchPalette open={open} onOpenChange={setOpen} /> : null}
    </>
  );
}
