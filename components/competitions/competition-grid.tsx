import type { Competition } from "@/lib/data/competitions";
import { CompetitionCard } from "./competition-card";

export function CompetitionGrid({
  competitions,
  now,
  headingLevel,
}: {
  competitions: Competition[];
  now: number;
  headingLevel?: 2 | 3;
}) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {competitions.map((c) => (
        <li key={c.id} className="flex">
          <CompetitionCard competition={c} now={now} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}
