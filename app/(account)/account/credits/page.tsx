import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { getMyLedger } from "@/lib/data/account";
import { formatDateTime, formatGBP } from "@/lib/format";

export const metadata: Metadata = { title: "Credit balance" };

const KIND_LABELS: Record<string, string> = {
  top_up: "Top-up",
  bonus: "Bonus",
  entry: "Competition entry",
  refund: "Refund",
  admin_adjustment: "Adjustment",
  spinner_prize: "LabSpinner prize",
  debit: "Credit spent",
};

export default async function CreditsPage() {
  const account = await requireUser("/account/credits");
  const ledger = await getMyLedger(100);
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Credit balance</h1>
      <p className="text-4xl font-bold" data-testid="credit-balance">
        {formatGBP(account.credits)}
      </p>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        1 credit = £1. Credit never expires and cannot be withdrawn as cash.{" "}
        {account.approved ? (
          <Link href="/credit" className="underline">Add credit</Link>
        ) : (
          "You can add credit once your account is approved."
        )}
      </p>
      <h2 className="text-xl font-semibold">History</h2>
      {ledger.length === 0 ? (
        <p>No credit movements yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Every change to your credit balance, newest first</caption>
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-700">
                <th scope="col" className="py-2 pr-4">Date</th>
                <th scope="col" className="py-2 pr-4">Kind</th>
                <th scope="col" className="py-2 pr-4 text-right">Amount</th>
                <th scope="col" className="py-2 pr-4 text-right">Balance after</th>
                <th scope="col" className="py-2">Reference</th>
              </tr>
            </thead>
            <tbody>
              {ledger.map((row) => (
                <tr key={row.id} className="border-b border-slate-200 dark:border-slate-800">
                  <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(row.created_at)}</td>
                  <td className="py-2 pr-4">{KIND_LABELS[row.kind] ?? row.kind}</td>
                  <td className="py-2 pr-4 text-right tabular-nums">
                    {row.amount > 0 ? "+" : "−"}
                    {formatGBP(Math.abs(row.amount))}
                  </td>
                  <td className="py-2 pr-4 text-right tabular-nums">{formatGBP(row.balance_after)}</td>
                  <td className="py-2">{row.reason ?? ""}{row.reference ? ` (${row.reference})` : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
