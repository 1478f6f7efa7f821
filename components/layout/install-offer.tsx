"use client";

import { useEffect, useState } from "react";
import { X } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { INSTALL_PROMPT_GLOBAL } from "@/lib/document-script";

// Chromium's install prompt event; not in TypeScript's DOM types.
type BeforeInstallPromptEvent = Event & { prompt: () => Promise<void>; userChoice: Promise<{ outcome: string }> };
type WindowWithPrompt = Window & { [INSTALL_PROMPT_GLOBAL]?: BeforeInstallPromptEvent };

const DISMISSED_KEY = "labcash-install-dismissed";

/**
 * Registers the service worker (app/sw.js) and offers "Install LabCash" where the browser supports
 * installing (it fires `beforeinstallprompt`; elsewhere nothing shows). Dismissing it is remembered on
 * this device. Its own chunk, loaded once the page is idle (./install-app.tsx); a prompt the browser gave before then
 * was kept by the document script.
 */
export function InstallOffer() {
  const [offer, setOffer] = useState<BeforeInstallPromptEvent | null>(null);

  useEffect(() => {
    if ("serviceWorker" in navigator) {
      // A failed registration only means no offline page; the site works the same.
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
    }
    // The document script prevents the browser's own banner and keeps the prompt, here or in the window.
    const onOffer = (event: Event) => {
      if (localStorage.getItem(DISMISSED_KEY) !== "1") setOffer(event as BeforeInstallPromptEvent);
    };
    const onInstalled = () => setOffer(null);
    const kept = (window as WindowWithPrompt)[INSTALL_PROMPT_GLOBAL];
    if (kept) onOffer(kept);
    window.addEventListener("beforeinstallprompt", onOffer);
    window.addEventListener("appinstalled", onInstalled);
    return () => {
      window.removeEventListener("beforeinstallprompt", onOffer);
      window.removeEventListener("appinstalled", onInstalled);
    };
  }, []);

  if (!offer) return null;
  return (
    <div
      role="region"
      aria-label="Install the app"
      className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-sm items-center gap-2 rounded-lg border border-border bg-background p-3 shadow-lg"
    >
      <button
        type="button"
        className={buttonClasses("primary", "md", "flex-1")}
        onClick={async () => {
          await offer.prompt();
          await offer.userChoice;
          setOffer(null);
        }}
      >
        Install LabCash
      </button>
      <button
        type="button"
        aria-label="Not now"
        className={buttonClasses("ghost", "md")}
        onClick={() => {
          localStorage.setItem(DISMISSED_KEY, "1");
          setOffer(null);
        }}
      >
        <X aria-hidden className="size-4" />
      </button>
    </div>
  );
}
