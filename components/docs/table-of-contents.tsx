"use client";

import { useEffect, useState } from "react";
import type { TocEntry } from "@/lib/content/markdown-outline";
import { cn } from "@/lib/utils";

/** "On this page": the page's h2/h3 headings; the one in view is marked. */
export function TableOfContents({ entries }: { entries: TocEntry[] }) {
  const [active, setActive] = useState<string | null>(null);
  useEffect(() => {
    const targets = entries.map((e) => document.getElementById(e.id)).filter((el): el is HTMLElement => Boolean(el));
    const observer = new IntersectionObserver(
      (observed) => {
        const visible = observed
          .filter((o) => o.isIntersecting)
          .sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top)[0];
        if (visible) setActive(visible.target.id);
      },
      { rootMargin: "-80px 0px -65% 0px" },
    );
    targets.forEach((t) => observer.observe(t));
    return () => observer.disconnect();
  }, [entries]);

  if (!entries.length) return null;
  return (
    <nav aria-labelledby="on-this-page">
      <h2 id="on-this-page" className="text-sm font-semibold">
        On this page
      </h2>
      <ul className="mt-3 space-y-1.5 text-sm">
        {entries.map((e) => (
          <li key={e.id} className={e.depth === 3 ? "pl-3" : undefined}>
            <a
              href={`#${e.id}`}
              aria-current={active === e.id ? "location" : undefined}
              className={cn(
                "block",
                active === e.id ? "font-medium text-primary-text" : "text-muted-foreground hover:text-foreground",
              )}
            >
              {e.text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
