"use client";

import { Link } from "@/components/ui/link";
import { useActionState, useId } from "react";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { dismissLimitPromptAction } from "@/lib/actions/protections";
import { FormStatus } from "@/components/forms/form-status";

/**
 * The invitation to set a monthly limit (code of practice), shown at sign-up and before a first top-up
 * while SQL says `needs_limit_prompt`: set one, or "Not now", after which SQL stops asking.
 */
export function LimitInvitation() {
  const [result, dismiss, pending] = useActionState(dismissLimitPromptAction, null);
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Set a monthly limit</CardTitle>
        <CardDescription>
          A limit caps both the money you put in and the credit you spend each calendar month, and £0 is allowed.
          Lowering it applies at once; raising it takes 24 hours.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <form action={dismiss} className="flex flex-wrap gap-3">
          <Link href="/account/responsible-play" className={buttonClasses("primary", "sm")}>
            Set a limit
          </Link>
          <Button type="submit" variant="outline" size="sm" disabled={pending}>
            Not now
          </Button>
        </form>
        {result && !result.ok ? <FormStatus result={result} /> : null}
      </CardContent>
    </Card>
  );
}
