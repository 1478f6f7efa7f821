import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { redirect } from "next/navigation";
import { LimitInvitation } from "@/components/account/limit-invitation";
import { requireUser } from "@/lib/auth/session";
import { getTopUpOptions } from "@/lib/data/payments";
import { formatDateTime } from "@/lib/format";

export const metadata: Metadata = { title: "Waiting for approval", robots: { index: false } };

export default async function PendingApprovalPage() {
  const account = await requireUser("/pending-approval");
  if (account.approved) redirect("/account");
  const rejected = Boolean(account.rejected_at);
  // Sign-up is the first moment to invite a monthly limit; a rejected account will never top up.
  const inviteLimit = !rejected && (await getTopUpOptions()).needs_limit_prompt;
  return (
    <section className="mx-auto flex max-w-xl flex-col gap-4 py-12">
      <h1 className="text-3xl font-bold">
        {rejected ? "Your account was not approved" : "Your account is waiting for approval"}
      </h1>
      {rejected ? (
        <>
          <p>
            Our team could not approve your account
            {account.rejected_at ? ` (${formatDateTime(account.rejected_at)})` : ""}.
          </p>
          {account.rejection_reason && (
            <p className="rounded-md border border-border p-3">
              <span className="font-semibold">Reason: </span>
              {account.rejection_reason}
            </p>
          )}
          <p>If you think this is a mistake, reply to the e-mail we sent you or contact support.</p>
        </>
      ) : (
        <>
          <p>
            Thanks for joining, {account.name}. Every new LabCash account is checked by a person before it can add
            credit, enter competitions or spin the wheel. We will e-mail <strong>{account.email}</strong> as soon as you
            are approved.
          </p>
          <p>Once approved, just reload any page: there is no need to sign out and in again.</p>
          {inviteLimit ? <LimitInvitation /> : null}
        </>
      )}
      <h2 className="mt-4 text-xl font-semibold">While you wait</h2>
      <ul className="list-disc pl-5">
        <li>
          <Link href="/competitions" className="underline">
            Browse the competitions
          </Link>
        </li>
        <li>
          <Link href="/docs" className="underline">
            Read how LabCash works
          </Link>
        </li>
        <li>
          <Link href="/account/profile" className="underline">
            Check your profile settings
          </Link>
        </li>
      </ul>
    </section>
  );
}
