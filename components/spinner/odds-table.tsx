import { DataTable } from "@/components/ui/data-table";
import type { SpinnerWheel } from "@/lib/data/spinner";
import { formatGBP } from "@/lib/format";

// Chances to as many places as they need (1%, 0.5%, 12.5%); SQL gives weight / total to 6 decimals.
const percent = new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 4 });

/** The published odds: every segment's weight and chance (from the database, never worked out here). */
export function OddsTable({ wheel }: { wheel: SpinnerWheel }) {
  return (
    <section aria-labelledby="odds-heading" className="flex flex-col gap-4">
      <h2 id="odds-heading" className="text-2xl font-bold">
        The odds
      </h2>
      <p className="max-w-3xl text-muted-foreground">
        Every spin, paid or free, has these odds. A segment&apos;s chance is its weight divided by the total weight (
        {wheel.total_weight.toLocaleString("en-GB")}), and each segment is drawn on the wheel as wide as its chance.
      </p>
      <DataTable
        caption={`On average a spin pays ${formatGBP(wheel.expected_prize)} in credit (the expected prize per spin).`}
        rows={wheel.segments}
        rowKey={(segment) => segment.position}
        columns={[
          {
            header: "Segment",
            cell: (segment) => (
              <span className="flex items-center gap-2">
                <span aria-hidden className="size-3 shrink-0 rounded-full" style={{ background: segment.colour }} />
                {segment.label}
              </span>
            ),
          },
          {
            header: "Prize",
            cell: (segment) => (segment.prize_credits > 0 ? `${formatGBP(segment.prize_credits)} credit` : "Nothing"),
          },
          { header: "Weight", numeric: true, cell: (segment) => segment.weight.toLocaleString("en-GB") },
          { header: "Chance", numeric: true, cell: (segment) => percent.format(segment.probability) },
        ]}
      />
    </section>
  );
}
