import type { Key, ReactNode } from "react";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";

/** One column of a `DataTable`. */
export interface DataColumn<Row> {
  /** The column's name: its header cell, and the name beside each value when the table is a card on a phone. */
  header: string;
  /** The cell's content for a row (and the row's place in `rows`, for figures kept beside them). */
  cell: (row: Row, index: number) => ReactNode;
  /** Classes for the column's body cells; a function when they depend on the row. */
  className?: string | ((row: Row) => string | undefined);
  /** Classes for the column's header cell (a column hidden on narrow screens hides its header too). */
  headerClassName?: string;
  /** Right-aligned with even-width figures, header and cells alike. */
  numeric?: boolean;
  /** On a phone card the value takes the whole line without the column's name (a row's sentence or title). */
  unlabelled?: boolean;
}

/**
 * A `Table` written as data: each column's name is given once and serves both its header cell and, with `cards`,
 * the label of each of its cells on a phone. `empty` stands instead of the table when there are no rows.
 * Columns may be left out with `false` (a column only some readers see).
 */
export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  caption,
  captionHidden = false,
  cards = false,
  empty,
  rowClassName,
  className,
}: {
  rows: readonly Row[];
  columns: readonly (DataColumn<Row> | false)[];
  rowKey: (row: Row) => Key;
  caption?: ReactNode;
  /** The caption for screen readers only (when the heading above says it already). */
  captionHidden?: boolean;
  cards?: boolean;
  empty?: ReactNode;
  rowClassName?: (row: Row) => string | undefined;
  className?: string;
}) {
  if (rows.length === 0 && empty !== undefined) return empty;
  const shown = columns.filter((column): column is DataColumn<Row> => column !== false);
  return (
    <Table cards={cards} className={className}>
      {caption === undefined ? null : <TableCaption visuallyHidden={captionHidden}>{caption}</TableCaption>}
      <TableHeader>
        <TableRow>
          {shown.map((column) => (
            <TableHead key={column.header} className={cn(column.numeric && "text-right", column.headerClassName)}>
              {column.header}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row, index) => (
          <TableRow key={rowKey(row)} className={rowClassName?.(row)}>
            {shown.map((column) => (
              <TableCell
                key={column.header}
                label={cards && !column.unlabelled ? column.header : undefined}
                className={cn(
                  column.numeric && "text-right tabular-nums",
                  typeof column.className === "function" ? column.className(row) : column.className,
                )}
              >
                {column.cell(row, index)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
