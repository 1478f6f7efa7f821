import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { redirect } from "next/navigation";
import { LimitInvitation } from "@/components/account/limit-invitation";
import { ApprovalWatch } from "@/components/account/approval-watch";
import { approvalReturnPath, PENDING_APPROVAL_PATH } from "@/lib/auth/paths";
import { requireUser } from "@/lib/auth/session";
import { myReturnPath } from "@/lib/data/account";
import { getTopUpOptions } from "@/lib/data/payments";
import { formatDateTime } from "@/lib/format";

export const metadata: Metadata = { title: "Waiting for approval", robots: { index: false } };

export default async function PendingApprovalPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[] }>;
}) {
  const account = await requireUser(PENDING_APPROVAL_PATH);
  const { next } = await searchParams;
  // ?next= is the page the player was on when sent here (lib/auth/paths pendingApprovalPath).
  const cameFrom = approvalReturnPath(typeof next === "string" ? next : null);
  if (account.approved) redirect(cameFrom ?? "/account");
  const rejected = Boolean(account.rejected_at);
  // Kept in SQL while the account waits, so the approval's e-mail and notification lead back there too.
  const [returnPath, inviteLimit] = await Promise.all([
    rejected ? null : myReturnPath(cameFrom),
    // Sign-up is the first moment to invite a monthly limit; a rejected account will never top up.
    rejected ? false : getTopUpOptions().then((options) => options.needs_limit_prompt),
  ]);
  return (
    <section className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-12 sm:px-6">
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
          <p>
            Keep this page open if you like: it notices the approval by itself and takes you on
            {returnPath ? " to the page you came from" : " to your account"}. There is no need to reload or to sign out
            and in again.
          </p>
          <ApprovalWatch goTo={returnPath ?? "/account"} />
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
