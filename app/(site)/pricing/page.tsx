import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { pricing } from "content-collections";
import { Check } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { cn } from "@/lib/utils";

export const metadata: Metadata = {
  title: pricing.title,
  description: pricing.description,
  alternates: { canonical: "/pricing" },
};

const gbp = (n: number) =>
  new Intl.NumberFormat("en-GB", {
    style: "currency",
    currency: "GBP",
    minimumFractionDigits: Number.isInteger(n) ? 0 : 2,
  }).format(n);
// Display only: the authoritative bonus is computed in SQL when a top-up is credited.
const bonusFor = (amount: number, percent: number) => Math.floor(amount * percent) / 100;

export default function PricingPage() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6">
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="text-4xl font-extrabold tracking-tight">{pricing.title}</h1>
        <p className="mt-3 text-lg text-muted-foreground">{pricing.description}</p>
      </header>

      <section aria-labelledby="plans-title" className="mt-14">
        <h2 id="plans-title" className="sr-only">
          Popular top-ups
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {pricing.plans.map((plan) => {
            const bonus = bonusFor(plan.amount, plan.bonusPercent);
            return (
              <li
                key={plan.title}
                className={cn(
                  "flex flex-col rounded-2xl border p-6",
                  plan.highlight ? "border-primary ring-2 ring-primary" : "border-border",
                )}
              >
                <h3 className="font-semibold">{plan.title}</h3>
                {plan.highlight ? (
                  <p className="mt-1 text-xs font-semibold text-primary-text uppercase">Most popular</p>
                ) : null}
                <p className="mt-4 text-4xl font-extrabold">{gbp(plan.amount)}</p>
                <p className="mt-1 text-sm text-muted-foreground">
                  {bonus > 0
                    ? `${(plan.amount + bonus).toFixed(2)} credits including ${gbp(bonus)} bonus`
                    : `${plan.amount} credits`}
                </p>
                <p className="mt-4 flex-1 text-sm text-muted-foreground">{plan.description}</p>
                <Link
                  href="/account/credits"
                  className={buttonClasses(plan.highlight ? "primary" : "outline", "md", "mt-6")}
                >
                  Top up {gbp(plan.amount)}
                </Link>
              </li>
            );
          })}
        </ul>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Or choose any amount from {gbp(pricing.limits.min)} to {gbp(pricing.limits.max)}. 1 credit = £1. Credit never
          expires and cannot be withdrawn as cash.
        </p>
      </section>

      <section aria-labelledby="compare-title" className="mx-auto mt-16 max-w-3xl">
        <h2 id="compare-title" className="text-2xl font-bold tracking-tight">
          Bonus tiers
        </h2>
        <div className="mt-6 overflow-x-auto rounded-2xl border border-border">
          <table aria-label="Pricing plan comparison" className="w-full text-left text-sm">
            <caption className="sr-only">Pricing plan comparison</caption>
            <thead className="bg-muted">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Tier
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Top-up amount
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Bonus credit
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Example
                </th>
              </tr>
            </thead>
            <tbody>
              {pricing.tiers.map((tier) => {
                const example = tier.to === null ? 250 : tier.from === 5 ? 20 : 100;
                return (
                  <tr key={tier.label} className="border-t border-border">
                    <th scope="row" className="px-4 py-3 font-medium">
                      {tier.label}
                    </th>
                    <td className="px-4 py-3">
                      {tier.to === null
                        ? `${gbp(tier.from)} – ${gbp(pricing.limits.max)}`
                        : `${gbp(tier.from)} – ${gbp(tier.to)}`}
                    </td>
                    <td className="px-4 py-3">{tier.bonusPercent ? `${tier.bonusPercent}%` : "None"}</td>
                    <td className="px-4 py-3">
                      {gbp(example)} → {(example + bonusFor(example, tier.bonusPercent)).toFixed(2)} credits
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <ul className="mt-6 space-y-2 text-sm">
          {[
            "Tickets from £0.25",
            "Bonus credit added as its own ledger line",
            "Free postal entry on every competition",
          ].map((t) => (
            <li key={t} className="flex items-center gap-2">
              <Check aria-hidden className="size-4 text-primary-text" />
              {t}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="faq-title" className="mx-auto mt-16 max-w-3xl">
        <h2 id="faq-title" className="text-2xl font-bold tracking-tight">
          Frequently asked questions
        </h2>
        <div className="mt-6 divide-y divide-border rounded-2xl border border-border">
          {pricing.faq.map((item) => (
            <details key={item.question} className="group p-5">
              <summary className="cursor-pointer font-medium">{item.question}</summary>
              <p className="mt-3 text-muted-foreground">{item.answer}</p>
            </details>
          ))}
        </div>
      </section>
    </div>
  );
}
