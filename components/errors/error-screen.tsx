"use client";

import { RotateCcw } from "lucide-react";
import { MinimalShell } from "@/components/layout/minimal-shell";
import { buttonClasses } from "@/components/ui/button";
import { useRequestReference } from "@/lib/hooks/use-request-reference";
import { ErrorPage } from "./error-page";

/**
 * What app/error.tsx and app/global-error.tsx show. Its own chunk, loaded only when an error happens: both
 * boundaries are part of every page's first load, and this (icons, buttons, the logo) would otherwise be
 * downloaded twice by every visitor (docs/decisions/039).
 */
export function ErrorScreen({ error, reset }: { error: Error & { digest?: string }; reset?: () => void }) {
  const reference = useRequestReference(error.digest);
  return (
    <MinimalShell>
      <ErrorPage
        kind="error"
        // Server errors reach the browser with a generic message and a digest: show the reference instead (the
        // request id the server logged the error with).
        message={error.digest ? null : error.message}
        reference={reference}
        retry={
          reset ? (
            <button type="button" onClick={reset} className={buttonClasses("outline", "lg")}>
              <RotateCcw aria-hidden />
              Try again
            </button>
          ) : undefined
        }
      />
    </MinimalShell>
  );
}
