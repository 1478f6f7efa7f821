import type { Competition } from "@/lib/data/competitions";
import { CompetitionCard } from "./competition-card";

export function CompetitionGrid({
  competitions,
  now,
  headingLevel,
  preloadFirstImage = false,
}: {
  competitions: Competition[];
  now: number;
  headingLevel?: 2 | 3;
  /** The page's first grid: its first card's image is the page's first image, at or near the fold on a phone. */
  preloadFirstImage?: boolean;
}) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {competitions.map((c, i) => (
        <li key={c.id} className="flex">
          <CompetitionCard
            competition={c}
            now={now}
            headingLevel={headingLevel}
            preloadImage={preloadFirstImage && i === 0}
          />
        </li>
      ))}
    </ul>
  );
}
