"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { dismissLimitPromptAction } from "@/lib/actions/payments";

/** The invitation to set a monthly limit before a first top-up (code of practice): set one, or "Not now". */
export function LimitPrompt() {
  const [result, dismiss, pending] = useActionState(dismissLimitPromptAction, null);
  return (
    <Alert variant="info" className="flex flex-col gap-3">
      <AlertTitle>Would you like to set a monthly limit first?</AlertTitle>
      <p>
        A limit caps what you can top up and spend each calendar month. Lowering it works at once; raising it takes 24
        hours.
      </p>
      <form action={dismiss} className="flex flex-wrap gap-3">
        <Link href="/account/responsible-play" className={buttonClasses("primary", "sm")}>
          Set a limit
        </Link>
        <Button type="submit" variant="outline" size="sm" disabled={pending}>
          Not now
        </Button>
      </form>
      {result && !result.ok ? <p className="text-destructive">{result.error}</p> : null}
    </Alert>
  );
}
