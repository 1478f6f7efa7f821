"use client";

import dynamic from "next/dynamic";
import { SiteStylesheet } from "@/components/layout/site-stylesheet";

// The screen loads when an error happens, not with every page (components/errors/error-screen.tsx).
const ErrorScreen = dynamic(() => import("@/components/errors/error-screen").then((m) => m.ErrorScreen));

// Errors in the root layout itself: replaces the whole document, so it brings its own <html>.
export default function GlobalError({ error }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en-GB">
      <body className="min-h-dvh bg-background text-foreground antialiased">
        <SiteStylesheet />
        <title>Something went wrong · LabCash – Win Big, Spend Small</title>
        <ErrorScreen error={error} />
      </body>
    </html>
  );
}
