import type { Competition } from "@/lib/data/competitions";
import { phaseLabel, phaseOf, type Phase } from "./status";

// Finding prizes: the search palette's competition index and the /competitions filter share
// these. Pure; a handful of competitions, so plain matching beats a search library here.

/** One competition in the public search index (/competitions/search.json): public fields only. */
export type CompetitionSearchRecord = {
  /** The page: /competitions/{slug}. */
  id: string;
  title: string;
  prize: string;
  /** Where it stands, as the badge says ("Live", "Opening soon", "Drawn" …). */
  state: string;
};

export function competitionSearchRecord(c: Competition, now: number): CompetitionSearchRecord {
  return {
    id: `/competitions/${c.slug}`,
    title: c.title,
    prize: c.prize_description,
    state: phaseLabel[phaseOf(c, now)],
  };
}

/** Lower case, accents dropped, so "Cafe" finds "Café". */
export function normalise(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/** Every word of the query appears in the text (anywhere, in any order); an empty query matches everything. */
export function matchesQuery(text: string, query: string): boolean {
  const haystack = normalise(text);
  return normalise(query)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** Competitions whose title, prize or state match, titles that match first, in the index's order otherwise. */
export function searchCompetitions(
  records: readonly CompetitionSearchRecord[],
  query: string,
  limit: number,
): CompetitionSearchRecord[] {
  if (!query.trim()) return [];
  const hits = records.filter((r) => matchesQuery(`${r.title} ${r.prize} ${r.state}`, query));
  const inTitle = hits.filter((r) => matchesQuery(r.title, query));
  const rest = hits.filter((r) => !inTitle.includes(r));
  return [...inTitle, ...rest].slice(0, limit);
}

/** The state filter on /competitions: one per section of the page. */
export const STATE_FILTERS = [
  { value: "live", label: "Live now", phases: ["live"] },
  { value: "opening-soon", label: "Opening soon", phases: ["upcoming"] },
  { value: "awaiting-draw", label: "Waiting for the draw", phases: ["postal_window", "awaiting_draw"] },
  { value: "drawn", label: "Drawn", phases: ["drawn"] },
  { value: "closed", label: "Closed and cancelled", phases: ["closed", "cancelled"] },
] as const satisfies readonly { value: string; label: string; phases: readonly Phase[] }[];

export type StateFilter = (typeof STATE_FILTERS)[number]["value"];

/** The filter in a /competitions address (?q=…&state=…); an unknown state is no filter. */
export function readCompetitionFilter(search: string): { q: string; state: StateFilter | null } {
  const params = new URLSearchParams(search);
  const state = params.get("state");
  return {
    q: (params.get("q") ?? "").slice(0, 100),
    state: STATE_FILTERS.some((f) => f.value === state) ? (state as StateFilter) : null,
  };
}

/** The address for a filter: only what is set, so a cleared filter is the plain page. */
export function competitionFilterSearch(filter: { q: string; state: StateFilter | null }): string {
  const params = new URLSearchParams();
  if (filter.q.trim()) params.set("q", filter.q);
  if (filter.state) params.set("state", filter.state);
  const search = params.toString();
  return search ? `?${search}` : "";
}
