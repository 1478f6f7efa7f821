"use client";

import { useEffect, useState, type MouseEvent } from "react";
import { buttonClasses } from "@/components/ui/button";
import { Countdown, type CountdownLeg } from "./countdown";

/**
 * A phone's bar at the foot of the screen while a competition is open: the ticket price, the time left and "Enter"
 * ("Sign in to enter" without a session), which brings the entry card (`panelId`) into view and moves focus there
 * (docs/decisions/051). It steps aside while that card is on screen, and sits in the page's flow at its end, so it
 * never covers the footer.
 */
export function StickyEntryBar({
  panelId,
  price,
  closes,
  draw,
}: {
  panelId: string;
  /** The ticket price, formatted. */
  price: string;
  closes: CountdownLeg;
  draw: CountdownLeg;
}) {
  const panelInView = useInView(panelId);

  function openPanel(event: MouseEvent<HTMLAnchorElement>) {
    const panel = document.getElementById(panelId);
    if (!panel) return;
    event.preventDefault();
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    panel.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
    panel.focus({ preventScroll: true });
  }

  return (
    <div
      role="region"
      aria-label="Enter this competition"
      hidden={panelInView}
      className="sticky bottom-0 z-30 -mx-4 mt-10 flex items-center gap-3 border-t border-border bg-background px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] shadow-[0_-4px_12px_rgb(0_0_0/0.08)] sm:-mx-6 sm:px-6 md:hidden"
    >
      <div className="min-w-0 flex-1 text-sm">
        <p>
          <span className="text-lg font-bold">{price}</span> <span className="text-muted-foreground">a ticket</span>
        </p>
        <Countdown {...closes} then={draw} endedLabel="Drawing now" />
      </div>
      <a href={`#${panelId}`} onClick={openPanel} className={buttonClasses("primary", "text", "h-12 shrink-0 px-4")}>
        <span className="[[data-session]_&]:hidden">Sign in to enter</span>
        <span className="hidden [[data-session]_&]:inline">Enter</span>
      </a>
    </div>
  );
}

/** Whether the element with `id` is on screen (false until measured, and where the browser cannot tell). */
function useInView(id: string): boolean {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const element = document.getElementById(id);
    if (!element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(([entry]) => setInView(entry.isIntersecting));
    observer.observe(element);
    return () => observer.disconnect();
  }, [id]);
  return inView;
}
