import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { LimitInvitation } from "@/components/account/limit-invitation";
import { TopUpForm } from "@/components/payments/top-up-form";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Card, CardContent } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireUserAnd } from "@/lib/auth/session";
import { getTopUpOptions } from "@/lib/data/payments";
import { formatGBP } from "@/lib/format";

export const metadata: Metadata = { title: "Buy credit", description: "Top up LabCash credit from £5 to £5,000." };

export default async function CreditPage() {
  const [account, options] = await requireUserAnd("/credit", getTopUpOptions);
  return (
    <section className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-12 sm:px-6">
      <PageHeader title="Buy credit" description={`1 credit = £1. Your balance: ${formatGBP(account.credits)}.`} />
      {options.blocked ? (
        <Alert variant="warning">
          <AlertTitle>{options.blocked.message}</AlertTitle>
          <Link href="/account/responsible-play" className="mt-1 inline-block font-medium underline underline-offset-2">
            Responsible play
          </Link>
        </Alert>
      ) : (
        <>
          {options.needs_limit_prompt ? <LimitInvitation /> : null}
          <Card>
            <CardContent>
              <TopUpForm quickPicks={options.quick_picks} />
            </CardContent>
          </Card>
          <ul className="flex list-disc flex-col gap-1 pl-5 text-sm text-muted-foreground">
            <li>
              Any amount from {formatGBP(options.min)} to {formatGBP(options.max)}, paid by card.
            </li>
            {options.bonus_enabled && options.bonus_tiers.length > 0 ? (
              <li>
                Bonus credit:{" "}
                {options.bonus_tiers
                  .map((tier) => `${tier.percent}% on top-ups from ${formatGBP(tier.from)}`)
                  .join(", ")}{" "}
                (rounded down to the penny).
              </li>
            ) : (
              <li>There is no bonus credit on top-ups at the moment.</li>
            )}
            {options.monthly_limit !== null ? (
              <li>
                Your monthly limit: {formatGBP(options.monthly_limit)}
                {options.monthly_remaining !== null
                  ? `, ${formatGBP(options.monthly_remaining)} left to top up this month`
                  : ""}
                .
                {options.pending_limit !== null
                  ? ` A new limit of ${formatGBP(options.pending_limit)} is pending.`
                  : ""}
              </li>
            ) : null}
            <li>
              <Link href="/docs/credits" className="underline underline-offset-2">
                How credits work
              </Link>
            </li>
          </ul>
        </>
      )}
    </section>
  );
}
