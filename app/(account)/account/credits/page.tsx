import type { Metadata } from "next";
import Link from "next/link";
import { History } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
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
      <PageHeader title="Credit balance" />
      <p className="text-4xl font-bold" data-testid="credit-balance">
        {formatGBP(account.credits)}
      </p>
      <p className="text-sm text-muted-foreground">
        1 credit = £1. Credit never expires and cannot be withdrawn as cash.{" "}
        {account.approved ? (
          <Link href="/credit" className="underline">
            Add credit
          </Link>
        ) : (
          "You can add credit once your account is approved."
        )}
      </p>
      <h2 className="text-xl font-semibold">History</h2>
      {ledger.length === 0 ? (
        <EmptyState icon={<History />} title="No credit movements yet." />
      ) : (
        <Table>
          <TableCaption visuallyHidden>Every change to your credit balance, newest first</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Date</TableHead>
              <TableHead>Kind</TableHead>
              <TableHead className="text-right">Amount</TableHead>
              <TableHead className="text-right">Balance after</TableHead>
              <TableHead>Reference</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {ledger.map((row) => (
              <TableRow key={row.id}>
                <TableCell className="whitespace-nowrap">{formatDateTime(row.created_at)}</TableCell>
                <TableCell>{KIND_LABELS[row.kind] ?? row.kind}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {row.amount > 0 ? "+" : "−"}
                  {formatGBP(Math.abs(row.amount))}
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatGBP(row.balance_after)}</TableCell>
                <TableCell>
                  {row.reason ?? ""}
                  {row.reference ? ` (${row.reference})` : ""}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
