import type { LedgerRow } from "@/lib/data/account";
import { formatDateTime, formatGBP } from "@/lib/format";
import { DataTable } from "@/components/ui/data-table";
import { ledgerKindLabel } from "@/lib/account/ledger-filters";

/** A signed amount: "+£10.00" in, "−£2.50" out (the sign is the amount's own; nothing is worked out). */
export const formatSignedGBP = (amount: number) =>
  `${amount > 0 ? "+" : amount < 0 ? "−" : ""}${formatGBP(Math.abs(amount))}`;

/** One page of ledger rows, newest first. */
export function LedgerTable({ rows }: { rows: LedgerRow[] }) {
  return (
    <DataTable
      caption="Changes to your credit balance, newest first"
      captionHidden
      rows={rows}
      rowKey={(row) => row.id}
      columns={[
        { header: "Date", className: "whitespace-nowrap", cell: (row) => formatDateTime(row.created_at) },
        { header: "Kind", className: "whitespace-nowrap", cell: (row) => ledgerKindLabel(row.kind) },
        { header: "Amount", numeric: true, className: "whitespace-nowrap", cell: (row) => formatSignedGBP(row.amount) },
        {
          header: "Balance after",
          numeric: true,
          className: "whitespace-nowrap",
          cell: (row) => formatGBP(row.balance_after),
        },
        { header: "Reference", className: "font-mono text-xs break-all", cell: (row) => row.reference ?? "" },
        { header: "Details", cell: (row) => row.reason ?? "" },
      ]}
    />
  );
}
