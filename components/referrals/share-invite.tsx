"use client";

import { useState, useSyncExternalStore } from "react";
import { Check, Copy, Share2 } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";

const noSubscription = () => () => undefined;

/**
 * The device's share sheet for the invite link where the browser has one (navigator.share: phones, and some desktops),
 * and copying it everywhere; a share sheet that fails for any reason but the player closing it copies instead. The
 * status line says what happened, for screen readers too.
 */
export function ShareInvite({ link, text }: { link: string; text: string }) {
  // Known only in the browser: the server's render and hydration show copying alone.
  const canShare = useSyncExternalStore(
    noSubscription,
    () => typeof navigator.share === "function",
    () => false,
  );
  const [status, setStatus] = useState<"copied" | "not-copied" | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setStatus("copied");
    } catch {
      setStatus("not-copied");
    }
  }

  async function share() {
    try {
      await navigator.share({ title: "LabCash", text, url: link });
      setStatus(null);
    } catch (e) {
      if (e instanceof DOMException && e.name === "AbortError") return;
      await copy();
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      {canShare ? (
        <button type="button" className={buttonClasses("primary", "md")} onClick={share}>
          <Share2 aria-hidden />
          Share invite
        </button>
      ) : null}
      <button type="button" className={buttonClasses(canShare ? "outline" : "primary", "md")} onClick={copy}>
        {status === "copied" ? <Check aria-hidden /> : <Copy aria-hidden />}
        Copy link
      </button>
      <span role="status" className="text-sm">
        {status === "copied"
          ? "Link copied"
          : status === "not-copied"
            ? "Could not copy: select the link and copy it"
            : ""}
      </span>
    </div>
  );
}
