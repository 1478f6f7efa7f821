import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataTable, type DataColumn } from "@/components/ui/data-table";

interface Row {
  id: number;
  name: string;
  amount: string;
}

const rows: Row[] = [
  { id: 1, name: "Ada", amount: "£1.00" },
  { id: 2, name: "Bo", amount: "£2.50" },
];

const columns: (DataColumn<Row> | false)[] = [
  { header: "Name", cell: (row) => row.name },
  { header: "Amount", numeric: true, cell: (row) => row.amount },
  { header: "Place", unlabelled: true, cell: (_, index) => `#${index + 1}` },
];

const render = (props: Partial<Parameters<typeof DataTable<Row>>[0]>) =>
  renderToStaticMarkup(createElement(DataTable<Row>, { rows, columns, rowKey: (row) => row.id, ...props }));

describe("DataTable", () => {
  it("names each column once, for its header and its cells' phone labels", () => {
    const html = render({ cards: true, caption: "People", captionHidden: true });
    expect(html).toContain('data-cards=""');
    expect(html).toMatch(/<caption class="sr-only">People<\/caption>/);
    expect(html.match(/<th scope="col"[^>]*>([^<]*)<\/th>/g)?.map((th) => th.replace(/<[^>]+>/g, ""))).toEqual([
      "Name",
      "Amount",
      "Place",
    ]);
    expect(html.match(/data-label="[^"]*"/g)).toEqual([
      'data-label="Name"',
      'data-label="Amount"',
      'data-label="Name"',
      'data-label="Amount"',
    ]);
    expect(html).toMatch(/<th scope="col" class="[^"]*text-right[^"]*">Amount<\/th>/);
    expect(html).toMatch(/<td data-label="Amount" class="[^"]*text-right tabular-nums[^"]*">£2.50<\/td>/);
    expect(html).toContain("#2</td>");
  });

  it("labels no cell when the table is not cards, and leaves out a column given as false", () => {
    const html = render({ columns: [columns[0], false] });
    expect(html).not.toContain("data-label");
    expect(html).not.toContain("Amount");
    expect(html).not.toContain("<caption");
  });

  it("shows the empty state instead of a table without rows", () => {
    expect(render({ rows: [], empty: createElement("p", null, "Nobody yet.") })).toBe("<p>Nobody yet.</p>");
    expect(render({ rows: [] })).toContain("<table");
  });
});
