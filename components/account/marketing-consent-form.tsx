"use client";

import { Link } from "@/components/ui/link";
import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { setMarketingConsentAction, unsubscribeAction } from "@/lib/actions/marketing";

/** The profile's marketing choice: one button gives or withdraws it (PECR: as easy to withdraw as to give). */
export function MarketingConsentForm({ given }: { given: boolean }) {
  const [result, action] = useActionState(setMarketingConsentAction, null);
  return (
    <form action={action} className="flex flex-col gap-3" noValidate>
      <input type="hidden" name="choice" value={given ? "withdraw" : "give"} />
      <FormStatus result={result} />
      <div className="self-start">
        <SubmitButton pendingLabel="Saving…">
          {given ? "Stop marketing e-mails" : "E-mail me about new competitions and results"}
        </SubmitButton>
      </div>
    </form>
  );
}

/** The signed-out unsubscribe page's one button: posts the link's token, so opening the link changes nothing. */
export function UnsubscribeForm({ token }: { token: string }) {
  const [result, action] = useActionState(unsubscribeAction, null);
  if (result?.ok) return <FormStatus result={result} />;
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <input type="hidden" name="token" value={token} />
      <FormStatus result={result} />
      {result &&
      !result.ok &&
      (result.code === "unsubscribe_link_used" || result.code === "unsubscribe_link_invalid") ? (
        <p className="text-sm">
          You can see and change your choice on your{" "}
          <Link href="/account/profile" className="underline">
            profile
          </Link>{" "}
          after signing in.
        </p>
      ) : (
        <div className="self-start">
          <SubmitButton pendingLabel="Unsubscribing…">Unsubscribe</SubmitButton>
        </div>
      )}
    </form>
  );
}
