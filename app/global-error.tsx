"use client";

import { ErrorPage } from "@/components/errors/error-page";
import { MinimalShell } from "@/components/layout/minimal-shell";
import { useRequestReference } from "@/lib/hooks/use-request-reference";
import "./globals.css";

// Errors in the root layout itself: replaces the whole document, so it brings its own <html>.
export default function GlobalError({ error }: { error: Error & { digest?: string }; reset: () => void }) {
  const reference = useRequestReference(error.digest);
  return (
    <html lang="en-GB">
      <body className="min-h-dvh bg-background text-foreground antialiased">
        <title>Something went wrong · LabCash – Win Big, Spend Small</title>
        <MinimalShell>
          <ErrorPage kind="error" message={error.digest ? null : error.message} reference={reference} />
        </MinimalShell>
      </body>
    </html>
  );
}
