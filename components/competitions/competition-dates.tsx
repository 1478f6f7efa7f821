import type { Competition } from "@/lib/data/competitions";
import { formatMoment } from "@/lib/competitions/status";

/** The four dates, fixed at publish and never extended (CAP 8.17.4; code of practice 1.9, 2.4). */
export function CompetitionDates({ competition: c }: { competition: Competition }) {
  const dates: { term: string; at: string; note: string }[] = [
    { term: "Opens", at: c.opens_at, note: "Online and postal entries start." },
    { term: "Closes", at: c.closes_at, note: "Online sales end, or sooner if every ticket sells." },
    { term: "Postal deadline", at: c.postal_deadline, note: "Free postal entries must arrive by then." },
    { term: "Draw", at: c.draw_at, note: "The winner is drawn, whatever the sales." },
  ];
  return (
    <section aria-labelledby="dates-title" className="rounded-xl border border-border p-4">
      <h2 id="dates-title" className="font-semibold">
        Dates <span className="font-normal text-muted-foreground">(UK time, fixed and never extended)</span>
      </h2>
      <dl className="mt-3 grid gap-3 sm:grid-cols-2">
        {dates.map((d) => (
          <div key={d.term}>
            <dt className="text-sm text-muted-foreground">{d.term}</dt>
            <dd>
              <time dateTime={d.at} className="font-semibold">
                {formatMoment(d.at)}
              </time>
              <span className="block text-sm text-muted-foreground">{d.note}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
