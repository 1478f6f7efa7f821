import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { redirect } from "next/navigation";
import { z } from "zod";
import { RefreshWhilePending } from "@/components/payments/refresh-while-pending";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { requireUser } from "@/lib/auth/session";
import { getTopUp } from "@/lib/data/payments";
import type { TopUp } from "@/lib/data/payments-schema";
import { formatGBP } from "@/lib/format";

export const metadata: Metadata = { title: "Your payment", robots: { index: false } };

type Props = { searchParams: Promise<{ top_up?: string | string[] }> };

/**
 * Where the checkout returns. It says what the database says, never more: "Confirming…" until the
 * top-up is credited (the page refreshes itself meanwhile), then the new balance, or what went
 * wrong and the way back. A top-up that paid for an entry goes on to the competition's page.
 */
export default async function PurchaseSuccessPage({ searchParams }: Props) {
  const param = (await searchParams).top_up;
  await requireUser(`/purchase-success${typeof param === "string" ? `?top_up=${param}` : ""}`);
  const id = z.string().uuid().safeParse(param);
  const topUp = id.success ? await getTopUp(id.data) : null;

  if (topUp?.status === "credited" && topUp.entry)
    redirect(`/competitions/${topUp.entry.competition_slug}?entry=${topUp.entry.entry_id}`);

  return (
    <section className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold">Your payment</h1>
      {topUp ? <Outcome topUp={topUp} /> : <Alert variant="warning">We cannot find that payment.</Alert>}
      <div className="flex flex-wrap gap-3">
        <Link href="/account/credits" className={buttonClasses("outline", "md")}>
          Credit balance
        </Link>
        <Link href="/competitions" className={buttonClasses("outline", "md")}>
          Competitions
        </Link>
      </div>
    </section>
  );
}

function Outcome({ topUp }: { topUp: TopUp }) {
  const tryAgain = (
    <Link href="/credit" className={buttonClasses("primary", "md", "mt-3")}>
      Back to Buy credit
    </Link>
  );
  switch (topUp.status) {
    case "pending":
      return (
        <Alert variant="info">
          <AlertTitle>Confirming your payment…</AlertTitle>
          <p className="mt-1">
            We add your credit as soon as the card payment is confirmed, usually within seconds. This page updates by
            itself.
          </p>
          <RefreshWhilePending />
        </Alert>
      );
    case "credited":
      return (
        <Alert variant="success">
          <AlertTitle>Payment received: {formatGBP(topUp.credit)} credit added</AlertTitle>
          <p className="mt-1">
            You paid {formatGBP(topUp.amount)}
            {topUp.bonus > 0 ? ` and got ${formatGBP(topUp.bonus)} bonus credit` : ""}. A receipt is on its way by
            e-mail.
          </p>
          <p className="mt-2 text-base font-semibold" data-testid="balance-after-top-up">
            Your balance is now {formatGBP(topUp.balance)}
          </p>
          {topUp.entry_error ? (
            <p className="mt-2 font-medium" data-testid="entry-error">
              Your entry could not be made: {topUp.entry_error.message}. The credit stayed in your balance, so you can
              choose again.
            </p>
          ) : null}
        </Alert>
      );
    case "failed":
      return (
        <Alert variant="destructive">
          <AlertTitle>Your payment was declined</AlertTitle>
          <p className="mt-1">Nothing was taken and your balance is unchanged.</p>
          {tryAgain}
        </Alert>
      );
    case "expired":
      return (
        <Alert variant="warning">
          <AlertTitle>This checkout was not completed</AlertTitle>
          <p className="mt-1">Nothing was taken and your balance is unchanged.</p>
          {tryAgain}
        </Alert>
      );
    case "refused_card_cap":
    case "refunded":
    case "partially_refunded":
      return (
        <Alert variant="warning">
          <AlertTitle>Your payment has been refunded</AlertTitle>
          <p className="mt-1" data-testid="refund-reason">
            {topUp.refusal_reason ?? "The payment was refunded to your card."}
          </p>
          <p className="mt-2">Your balance: {formatGBP(topUp.balance)}.</p>
          {tryAgain}
        </Alert>
      );
  }
}
