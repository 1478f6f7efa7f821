import { DataTable } from "@/components/ui/data-table";
import type { EntryListRow } from "@/lib/data/entry-list";

/** One page of the entry list: ticket number, who entered (as on the winners page), town and route. */
export function EntryListTable({ rows, caption }: { rows: EntryListRow[]; caption: string }) {
  return (
    <DataTable
      caption={caption}
      captionHidden
      rows={rows}
      rowKey={(row) => row.number}
      columns={[
        { header: "Ticket", numeric: true, className: "font-mono", cell: (row) => `#${row.number}` },
        { header: "Entrant", cell: (row) => row.entrant },
        { header: "Town", cell: (row) => row.town ?? <span className="text-muted-foreground">Not given</span> },
        { header: "Route", cell: (row) => (row.route === "postal" ? "Postal entry" : "Online") },
        {
          header: "Ticket id",
          headerClassName: "hidden md:table-cell",
          className: "hidden font-mono text-xs break-all text-muted-foreground md:table-cell",
          cell: (row) => row.ticket_id,
        },
      ]}
    />
  );
}
