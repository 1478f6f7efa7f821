"use client";

import { useEffect } from "react";
import dynamic from "next/dynamic";

// The screen loads when an error happens, not with every page (components/errors/error-screen.tsx).
const ErrorScreen = dynamic(() => import("@/components/errors/error-screen").then((m) => m.ErrorScreen));

// Fatal and unhandled errors below the root layout. The site header needs the server (session),
// which may be what failed, so this frame is static.
export default function Error({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return <ErrorScreen error={error} reset={reset} />;
}
