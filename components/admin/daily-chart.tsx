import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { DashboardDay } from "@/lib/data/admin-console";
import { cn } from "@/lib/utils";

const dayLabel = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const dayLong = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "long", timeZone: "UTC" });
/** A YYYY-MM-DD day (a calendar date, so read as UTC midnight to stay on that date). */
const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

type Series = "signups" | "tickets" | "credit_sold";

/**
 * One series of the dashboard as a bar chart drawn with CSS (no chart library, no script), a
 * one-line summary that screen readers get instead of the bars, and the same figures as a table
 * behind "Show as a table". Values are SQL's; bar heights are the only thing worked out here.
 */
export function DailyChart({
  id,
  title,
  days,
  series,
  total,
  format = (value) => value.toLocaleString("en-GB"),
}: {
  id: string;
  title: string;
  days: DashboardDay[];
  series: Series;
  total: number;
  format?: (value: number) => string;
}) {
  const values = days.map((d) => d[series]);
  const max = Math.max(0, ...values);
  const peakIndex = values.indexOf(max);
  const first = days[0]?.day;
  const last = days.at(-1)?.day;
  const range = first && last ? `${dayLabel.format(asDate(first))} to ${dayLabel.format(asDate(last))}` : "";
  const summary =
    max > 0
      ? `${title}, ${range}: ${format(total)} in total; the busiest day was ${dayLong.format(asDate(days[peakIndex].day))} with ${format(max)}.`
      : `${title}, ${range}: none.`;
  return (
    <figure aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-xl border border-border bg-card p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="font-semibold">
          {title}
        </h2>
        <p className="text-sm text-muted-foreground">
          Last 30 days: <span className="font-semibold text-foreground tabular-nums">{format(total)}</span>
        </p>
      </div>
      <div role="img" aria-label={summary} className="flex flex-col gap-1">
        <div className="flex h-32 items-end gap-px border-b border-border sm:gap-0.5" data-testid={`${id}-bars`}>
          {days.map((d) => {
            const value = d[series];
            return (
              <div
                key={d.day}
                title={`${dayLong.format(asDate(d.day))}: ${format(value)}`}
                className="flex h-full flex-1 items-end"
              >
                <div
                  className={cn("w-full rounded-t-sm", value > 0 ? "bg-primary" : null)}
                  style={{ height: max > 0 && value > 0 ? `${Math.max(2, (value / max) * 100)}%` : "0" }}
                />
              </div>
            );
          })}
        </div>
        <div aria-hidden className="flex justify-between text-xs text-muted-foreground">
          <span>{first ? dayLabel.format(asDate(first)) : null}</span>
          <span>Highest: {format(max)}</span>
          <span>{last ? dayLabel.format(asDate(last)) : null}</span>
        </div>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-primary-text">
          Show {title.toLowerCase()} as a table
        </summary>
        <Table className="mt-2">
          <TableCaption visuallyHidden>{`${title} per day`}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Day</TableHead>
              <TableHead className="text-right">{title}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {days.map((d) => (
              <TableRow key={d.day}>
                <TableHead scope="row" className="font-normal text-foreground">
                  <time dateTime={d.day}>{dayLong.format(asDate(d.day))}</time>
                </TableHead>
                <TableCell className="text-right tabular-nums">{format(d[series])}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </details>
    </figure>
  );
}
