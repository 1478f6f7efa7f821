import type { LedgerRow } from "@/lib/data/account";
import { formatDateTime, formatGBP } from "@/lib/format";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ledgerKindLabel } from "@/lib/account/ledger-filters";

/** A signed amount: "+£10.00" in, "−£2.50" out (the sign is the amount's own; nothing is worked out). */
export const formatSignedGBP = (amount: number) =>
  `${amount > 0 ? "+" : amount < 0 ? "−" : ""}${formatGBP(Math.abs(amount))}`;

/** One page of ledger rows, newest first. */
export function LedgerTable({ rows }: { rows: LedgerRow[] }) {
  return (
    <Table>
      <TableCaption visuallyHidden>Changes to your credit balance, newest first</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>Date</TableHead>
          <TableHead>Kind</TableHead>
          <TableHead className="text-right">Amount</TableHead>
          <TableHead className="text-right">Balance after</TableHead>
          <TableHead>Reference</TableHead>
          <TableHead>Details</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id}>
            <TableCell className="whitespace-nowrap">{formatDateTime(row.created_at)}</TableCell>
            <TableCell className="whitespace-nowrap">{ledgerKindLabel(row.kind)}</TableCell>
            <TableCell className="text-right whitespace-nowrap tabular-nums">{formatSignedGBP(row.amount)}</TableCell>
            <TableCell className="text-right whitespace-nowrap tabular-nums">{formatGBP(row.balance_after)}</TableCell>
            <TableCell className="font-mono text-xs break-all">{row.reference ?? ""}</TableCell>
            <TableCell>{row.reason ?? ""}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
