import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { MinimalShell } from "@/components/layout/minimal-shell";

// What the service worker (app/sw.js) shows when a page cannot be reached offline. A frame that needs
// nothing from the server (no personal islands), static, so the worker can keep it and its assets.
export const metadata: Metadata = { title: "You're offline", robots: { index: false } };

export default function OfflinePage() {
  return (
    <MinimalShell>
      <div className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-16 sm:px-6">
        <h1 className="text-3xl font-extrabold tracking-tight">You&apos;re offline</h1>
        <p className="text-muted-foreground">
          This page needs a connection, and your device does not have one right now.
        </p>
        <h2 className="text-lg font-semibold">What still works</h2>
        <ul className="list-disc space-y-1 pl-5 text-muted-foreground">
          <li>Pages you already have open keep what they show until you reload them.</li>
          <li>Nothing is lost: entries, top-ups and changes are only made when we receive them online.</li>
          <li>Draw times are fixed, so going offline never makes you miss a draw you have entered.</li>
        </ul>
        <p>
          Reload this page once you are back online, or go to{" "}
          <Link href="/" className="font-medium text-primary-text underline underline-offset-4">
            the home page
          </Link>
          .
        </p>
      </div>
    </MinimalShell>
  );
}
