import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
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
      <Table>
        <TableCaption>
          On average a spin pays {formatGBP(wheel.expected_prize)} in credit (the expected prize per spin).
        </TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>Segment</TableHead>
            <TableHead>Prize</TableHead>
            <TableHead className="text-right">Weight</TableHead>
            <TableHead className="text-right">Chance</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {wheel.segments.map((segment) => (
            <TableRow key={segment.position}>
              <TableCell>
                <span className="flex items-center gap-2">
                  <span aria-hidden className="size-3 shrink-0 rounded-full" style={{ background: segment.colour }} />
                  {segment.label}
                </span>
              </TableCell>
              <TableCell>
                {segment.prize_credits > 0 ? `${formatGBP(segment.prize_credits)} credit` : "Nothing"}
              </TableCell>
              <TableCell className="text-right tabular-nums">{segment.weight.toLocaleString("en-GB")}</TableCell>
              <TableCell className="text-right tabular-nums">{percent.format(segment.probability)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}
