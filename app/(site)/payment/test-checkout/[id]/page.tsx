import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { TestCheckoutForm } from "@/components/payments/test-checkout-form";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { requireUser } from "@/lib/auth/session";
import { getTopUp } from "@/lib/data/payments";
import { formatGBP } from "@/lib/format";
import { testPayments } from "@/lib/payments/adapter";

export const metadata: Metadata = { title: "Test checkout", robots: { index: false } };

type Props = { params: Promise<{ id: string }> };

/**
 * The built-in stand-in for Stripe Checkout: only when payments are in test mode (no Stripe keys;
 * in production only with PAYMENTS=test, lib/env.ts), only for the top-up's owner. Otherwise 404.
 */
export default async function TestCheckoutPage({ params }: Props) {
  if (!testPayments()) notFound();
  const { id } = await params;
  await requireUser(`/payment/test-checkout/${id}`);
  const topUp = /^[0-9a-f-]{36}$/i.test(id) ? await getTopUp(id) : null;
  if (!topUp || topUp.provider !== "test") notFound();

  return (
    <section className="mx-auto flex max-w-lg flex-col gap-6 px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold">Test checkout</h1>
      <Alert variant="warning" announce={false}>
        <AlertTitle>This is a test checkout: no card is taken.</AlertTitle>
        <p className="mt-1">
          Stripe is not configured on this site, so you choose what the payment does. Paying here adds real LabCash
          credit on this site&apos;s test database, through the same path a Stripe payment takes.
        </p>
      </Alert>
      <Card>
        <CardHeader>
          <CardTitle>LabCash credit</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <dl className="grid grid-cols-2 gap-2 text-sm">
            <dt className="text-muted-foreground">You pay</dt>
            <dd className="text-right font-semibold tabular-nums">{formatGBP(topUp.amount)}</dd>
            <dt className="text-muted-foreground">Bonus credit</dt>
            <dd className="text-right tabular-nums">{formatGBP(topUp.bonus)}</dd>
            <dt className="text-muted-foreground">Credit added</dt>
            <dd className="text-right font-bold tabular-nums">{formatGBP(topUp.credit)}</dd>
          </dl>
          {topUp.status === "pending" ? (
            <TestCheckoutForm topUpId={topUp.id} />
          ) : (
            <>
              <p>This checkout is finished.</p>
              <Link href={`/purchase-success?top_up=${topUp.id}`} className={buttonClasses("primary", "md")}>
                See what happened
              </Link>
            </>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
