import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { EntryListRow } from "@/lib/data/entry-list";

/** One page of the entry list: ticket number, who entered (as on the winners page), town and route. */
export function EntryListTable({ rows, caption }: { rows: EntryListRow[]; caption: string }) {
  return (
    <Table>
      <TableCaption visuallyHidden>{caption}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead className="text-right">Ticket</TableHead>
          <TableHead>Entrant</TableHead>
          <TableHead>Town</TableHead>
          <TableHead>Route</TableHead>
          <TableHead className="hidden md:table-cell">Ticket id</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.number}>
            <TableCell className="text-right font-mono tabular-nums">#{row.number}</TableCell>
            <TableCell>{row.entrant}</TableCell>
            <TableCell>{row.town ?? <span className="text-muted-foreground">Not given</span>}</TableCell>
            <TableCell>{row.route === "postal" ? "Postal entry" : "Online"}</TableCell>
            <TableCell className="hidden font-mono text-xs break-all text-muted-foreground md:table-cell">
              {row.ticket_id}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
