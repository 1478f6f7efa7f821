"use client";

import { ErrorPage } from "@/components/errors/error-page";
import { MinimalShell } from "@/components/layout/minimal-shell";
import "./globals.css";

// Errors in the root layout itself: replaces the whole document, so it brings its own <html>.
export default function GlobalError({ error }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en-GB">
      <body className="min-h-dvh bg-background text-foreground antialiased">
        <title>Something went wrong · LabCash – Win Big, Spend Small</title>
        <MinimalShell>
          <ErrorPage kind="error" message={error.digest ? null : error.message} reference={error.digest} />
        </MinimalShell>
      </body>
    </html>
  );
}
