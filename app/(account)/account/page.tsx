import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { ApprovalWelcome } from "@/components/account/approval-welcome";
import { LimitInvitation } from "@/components/account/limit-invitation";
import { InviteFriends } from "@/components/referrals/invite-friends";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireUserAnd } from "@/lib/auth/session";
import { getMyDashboard } from "@/lib/data/account";
import { getMyReferrals } from "@/lib/data/referrals";
import { formatGBP } from "@/lib/format";
import { siteUrl } from "@/lib/site-url";

export const metadata: Metadata = { title: "Dashboard" };

export default async function AccountPage() {
  const [account, [dashboard, referrals, site]] = await requireUserAnd("/account", () =>
    Promise.all([getMyDashboard(), getMyReferrals(), siteUrl()]),
  );
  const rejected = Boolean(account.rejected_at);
  // Until a limit is set, a first top-up made or the invitation declined (decided in SQL).
  const inviteLimit = !rejected && dashboard.needs_limit_prompt;
  const unclaimed = dashboard.unclaimed_prizes;
  return (
    <section className="flex flex-col gap-6">
      <PageHeader title={`Hello, ${account.name}`} />
      {account.welcome_due ? <ApprovalWelcome /> : null}
      {!account.approved && (
        <Alert variant="warning">
          Your account is waiting for approval. You can look around, but adding credit and entering competitions open up
          once our team has approved you.{" "}
          <Link href="/pending-approval" className="underline">
            What happens next
          </Link>
        </Alert>
      )}
      {unclaimed.length > 0 ? (
        <Alert variant="success" announce={false}>
          <AlertTitle>You won!</AlertTitle>
          {unclaimed.length === 1
            ? `Your ticket won ${unclaimed[0]}. `
            : `Your tickets won ${unclaimed.length} prizes. `}
          <Link href="/account/prizes" className="font-semibold underline">
            Claim your prize
          </Link>
        </Alert>
      ) : null}
      {inviteLimit ? <LimitInvitation /> : null}
      <dl className="grid gap-4 sm:grid-cols-3">
        <Card className="p-4">
          <dt className="text-sm text-muted-foreground">Credit balance</dt>
          <dd className="text-2xl font-bold" data-testid="credit-balance">
            {formatGBP(account.credits)}
          </dd>
        </Card>
        <Card className="p-4">
          <dt className="text-sm text-muted-foreground">Tickets bought</dt>
          <dd className="text-2xl font-bold">{account.total_entries}</dd>
        </Card>
        <Card className="p-4">
          <dt className="text-sm text-muted-foreground">Account status</dt>
          <dd className="text-2xl font-bold">{account.approved ? "Approved" : "Awaiting approval"}</dd>
        </Card>
      </dl>
      <nav aria-label="Account shortcuts" className="flex flex-wrap gap-4">
        <Link href="/account/credits" className="underline">
          Credit balance and history
        </Link>
        <Link href="/account/entries" className="underline">
          My entries
        </Link>
        <Link href="/account/prizes" className="underline">
          My prizes
        </Link>
        <Link href="/account/profile" className="underline">
          Profile settings
        </Link>
      </nav>
      {rejected ? null : <InviteFriends referrals={referrals} link={`${site}/signup?ref=${referrals.code}`} />}
    </section>
  );
}
