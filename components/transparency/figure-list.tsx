import { Link } from "@/components/ui/link";

/** One figure of the trust page: its value, what it counts, and where the list behind it is (null: none public). */
export type Figure = { label: string; value: string; detail: string | null; href: string | null };

/** A period's figures as a definition list, each linking to the list behind it where there is one. */
export function FigureList({ figures }: { figures: Figure[] }) {
  return (
    <dl className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      {figures.map((f) => (
        <div key={f.label} className="flex flex-col rounded-xl border border-border bg-card p-4">
          <dt className="text-sm text-muted-foreground">{f.label}</dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums">
            {f.href ? (
              <Link href={f.href} aria-label={`${f.label}: ${f.value}`} className="underline-offset-4 hover:underline">
                {f.value}
              </Link>
            ) : (
              f.value
            )}
          </dd>
          {f.detail ? <dd className="mt-1 text-sm text-muted-foreground">{f.detail}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
