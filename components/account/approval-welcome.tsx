"use client";

import { Link } from "@/components/ui/link";
import { useActionState, useId } from "react";
import { PartyPopper } from "lucide-react";
import { FormStatus } from "@/components/forms/form-status";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { dismissWelcomeAction } from "@/lib/actions/welcome";

/**
 * The "you're in" moment: shown on the dashboard from the first visit after an admin approves the account
 * until the player dismisses it, which SQL records for good (get_my_account's welcome_due).
 */
export function ApprovalWelcome() {
  const [result, dismiss, pending] = useActionState(dismissWelcomeAction, null);
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId} className="border-success/40 bg-success-soft/40">
      <CardHeader>
        <CardTitle id={titleId} className="flex items-center gap-2">
          <PartyPopper aria-hidden className="size-5 text-success" />
          You&apos;re approved
        </CardTitle>
        <CardDescription>
          Our team has checked your account: you can now add credit and enter competitions. Every competition also has a
          free way to enter by post.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <form action={dismiss} className="flex flex-wrap gap-3">
          <Link href="/credit" className={buttonClasses("primary", "sm")}>
            Top up your credit
          </Link>
          <Link href="/competitions" className={buttonClasses("outline", "sm")}>
            Browse competitions
          </Link>
          <Button type="submit" variant="ghost" size="sm" disabled={pending}>
            Dismiss welcome
          </Button>
        </form>
        {result && !result.ok ? <FormStatus result={result} /> : null}
      </CardContent>
    </Card>
  );
}
