"use client";

import { useEffect } from "react";
import { RotateCcw } from "lucide-react";
import { ErrorPage } from "@/components/errors/error-page";
import { MinimalShell } from "@/components/layout/minimal-shell";
import { buttonClasses } from "@/components/ui/button";
import { useRequestReference } from "@/lib/hooks/use-request-reference";

// Fatal and unhandled errors below the root layout. The site header needs the server (session),
// which may be what failed, so this frame is static.
export default function Error({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const reference = useRequestReference(error.digest);
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <MinimalShell>
      <ErrorPage
        kind="error"
        // Server errors reach the browser with a generic message and a digest: show the reference instead (the
        // request id the server logged the error with).
        message={error.digest ? null : error.message}
        reference={reference}
        retry={
          <button type="button" onClick={reset} className={buttonClasses("outline", "lg")}>
            <RotateCcw aria-hidden />
            Try again
          </button>
        }
      />
    </MinimalShell>
  );
}
