"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { Button } from "@/components/ui/button";
import { testCheckoutAction } from "@/lib/actions/payments";

/** The tester's choice of outcome; each goes through the same confirmation path as a Stripe payment. */
export function TestCheckoutForm({ topUpId }: { topUpId: string }) {
  const [result, choose, pending] = useActionState(testCheckoutAction, null);
  return (
    <form action={choose} className="flex flex-col gap-3">
      <input type="hidden" name="topUpId" value={topUpId} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Button type="submit" name="outcome" value="debit" disabled={pending}>
          Pay by debit card
        </Button>
        <Button type="submit" name="outcome" value="credit" disabled={pending}>
          Pay by credit card
        </Button>
        <Button type="submit" name="outcome" value="decline" variant="outline" disabled={pending}>
          Decline
        </Button>
        <Button type="submit" name="outcome" value="abandon" variant="outline" disabled={pending}>
          Abandon
        </Button>
      </div>
      <FormStatus result={result} />
    </form>
  );
}
