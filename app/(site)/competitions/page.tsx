import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Trophy } from "lucide-react";
import { CompetitionCard } from "@/components/competitions/competition-card";
import { CompetitionFinder, type FinderSection } from "@/components/competitions/competition-finder";
import type { StateFilter } from "@/lib/competitions/search";
import { phaseOf, requestTime, type Phase } from "@/lib/competitions/status";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { listPublicCompetitions, type Competition } from "@/lib/data/competitions";

export const metadata: Metadata = {
  title: "Competitions",
  description: "Prize draws for phones, laptops, consoles and more. Tickets from £0.25, every draw verifiable.",
  alternates: { canonical: "/competitions" },
};

// The order of the sections on the page; list_competitions already puts live ones first, closing soonest.
// The ids are the state filter's values (lib/competitions/search.ts STATE_FILTERS), so a section is a state.
const sections: { id: StateFilter; title: string; description: string; phases: readonly Phase[] }[] = [
  { id: "live", title: "Live now", description: "Open for entries, closing soonest first.", phases: ["live"] },
  {
    id: "opening-soon",
    title: "Opening soon",
    description: "Published with their draw commitment; entries open at the time shown.",
    phases: ["upcoming"],
  },
  {
    id: "awaiting-draw",
    title: "Waiting for the draw",
    description:
      "Online sales have ended (sold out or closed); free postal entries count until the postal deadline, then the draw happens at the time shown.",
    phases: ["postal_window", "awaiting_draw"],
  },
  {
    id: "drawn",
    title: "Drawn",
    description: "Finished competitions with their winners. Every draw can be checked in your browser.",
    phases: ["drawn"],
  },
  {
    id: "closed",
    title: "Closed and cancelled",
    description: "Closed with no tickets at the draw time, or cancelled with every entry refunded.",
    phases: ["closed", "cancelled"],
  },
];

// Static, regenerated at most every few seconds and at once when the app changes a competition
// (lib/cache/public-pages.ts; next.config's expireTime caps how stale it can be served).
export const revalidate = 2;

export default async function CompetitionsPage() {
  const competitions = await listPublicCompetitions();
  const now = requestTime();
  const byPhase = new Map<Phase, Competition[]>();
  for (const c of competitions) {
    const phase = phaseOf(c, now);
    byPhase.set(phase, [...(byPhase.get(phase) ?? []), c]);
  }
  const drawnNewestFirst = (a: Competition, b: Competition) =>
    Date.parse(b.draw?.drawn_at ?? b.closed_at ?? b.draw_at) - Date.parse(a.draw?.drawn_at ?? a.closed_at ?? a.draw_at);
  const drawSoonestFirst = (a: Competition, b: Competition) => Date.parse(a.draw_at) - Date.parse(b.draw_at);

  // Only the first section shown has a card above the fold.
  const firstSectionShown = sections.find((s) => s.phases.some((p) => byPhase.has(p)))?.id;
  const finderSections: FinderSection[] = sections.map((section) => {
    const items = section.phases.flatMap((p) => byPhase.get(p) ?? []);
    if (section.id === "awaiting-draw") items.sort(drawSoonestFirst);
    else if (section.id !== "live" && section.id !== "opening-soon") items.sort(drawnNewestFirst);
    return {
      id: section.id,
      title: section.title,
      description: section.description,
      entries: items.map((c, i) => ({
        key: c.id,
        text: `${c.title} ${c.prize_description}`,
        card: <CompetitionCard competition={c} now={now} preloadImage={section.id === firstSectionShown && i === 0} />,
      })),
    };
  });
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
      <header className="max-w-3xl">
        <h1 className="text-4xl font-extrabold tracking-tight">Competitions</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Enter with credit from £0.25 a ticket, or for free by post with exactly the same chance per ticket. Every
          competition has fixed dates and is drawn at its draw time, whatever the sales; each draw is published with a
          commitment before the first sale and can be checked in your browser afterwards.
        </p>
        <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm">
          <Link
            href="/docs/competitions#free-entry-by-post"
            className="font-medium text-primary-text underline underline-offset-4"
          >
            Free postal entry
          </Link>
          <Link href="/docs/fair-draws" className="font-medium text-primary-text underline underline-offset-4">
            How draws are verified
          </Link>
          <Link href="/competitions-demo" className="font-medium text-primary-text underline underline-offset-4">
            See how it works (demo)
          </Link>
        </p>
      </header>

      {competitions.length === 0 ? (
        <EmptyState
          icon={<Trophy />}
          title="No competitions yet"
          description="The first prizes are being lined up."
          className="mt-12"
        >
          <Link href="/competitions-demo" className={buttonClasses("outline", "md")}>
            Try the demo
          </Link>
        </EmptyState>
      ) : null}

      {competitions.length > 0 ? <CompetitionFinder sections={finderSections} /> : null}
    </div>
  );
}
