"use client";

import { useState, useSyncExternalStore, type ReactNode } from "react";
import { Search } from "lucide-react";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import {
  STATE_FILTERS,
  competitionFilterSearch,
  matchesQuery,
  readCompetitionFilter,
  type StateFilter,
} from "@/lib/competitions/search";

export type FinderSection = {
  id: StateFilter;
  title: string;
  description: string;
  /** Each competition's card (rendered on the server) and the words it is found by (title and prize). */
  entries: { key: string; text: string; card: ReactNode }[];
};

type Filter = { q: string; state: StateFilter | null };

const subscribe = () => () => {};
const currentSearch = () => window.location.search;

/**
 * /competitions' search box and state filter. The page stays static and cached (reading searchParams on the
 * server would render it per request), so it is filtered here: every card is in the HTML, this island
 * hides what does not match. The filter lives in the address (?q=…&state=…) and is read once hydrated, so a
 * shared link opens filtered; without JavaScript, the page lists everything.
 */
export function CompetitionFinder({ sections }: { sections: FinderSection[] }) {
  // Nothing on the server; the address's filter once hydrated; then what the visitor sets.
  const search = useSyncExternalStore(subscribe, currentSearch, () => "");
  const [chosen, setChosen] = useState<Filter | null>(null);
  const filter = chosen ?? readCompetitionFilter(search);
  const filtering = filter.q.trim() !== "" || filter.state !== null;

  const update = (next: Filter) => {
    setChosen(next);
    window.history.replaceState(
      window.history.state,
      "",
      `${window.location.pathname}${competitionFilterSearch(next)}`,
    );
  };

  const shown = sections
    .filter((section) => filter.state === null || section.id === filter.state)
    .map((section) => ({ ...section, entries: section.entries.filter((e) => matchesQuery(e.text, filter.q)) }))
    .filter((section) => section.entries.length > 0);
  const count = shown.reduce((n, section) => n + section.entries.length, 0);

  return (
    <>
      <form
        role="search"
        aria-label="Find a competition"
        action="/competitions"
        onSubmit={(event) => event.preventDefault()}
        className="mt-10 flex flex-col gap-3 sm:flex-row sm:items-end"
      >
        <div className="flex-1">
          <label htmlFor="competition-search" className="mb-1 block text-sm font-medium">
            Search prizes
          </label>
          <div className="relative">
            <Search
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              id="competition-search"
              type="search"
              name="q"
              value={filter.q}
              onChange={(e) => update({ ...filter, q: e.target.value })}
              placeholder="iPhone, PS5, cash…"
              maxLength={100}
              autoComplete="off"
              className="pl-9"
            />
          </div>
        </div>
        <div className="sm:w-64">
          <label htmlFor="competition-state" className="mb-1 block text-sm font-medium">
            State
          </label>
          <Select
            id="competition-state"
            name="state"
            value={filter.state ?? ""}
            onChange={(e) => update({ ...filter, state: readCompetitionFilter(`?state=${e.target.value}`).state })}
          >
            <option value="">All competitions</option>
            {STATE_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </Select>
        </div>
      </form>
      <p role="status" className="mt-3 text-sm text-muted-foreground">
        {filtering ? `${count} ${count === 1 ? "competition matches" : "competitions match"}.` : ""}
      </p>

      {filtering && count === 0 ? (
        <div className="mt-8 rounded-2xl border border-dashed border-border px-6 py-12 text-center">
          <p className="text-lg font-semibold">No competitions match</p>
          <p className="mx-auto mt-2 max-w-md text-muted-foreground">
            Try another word, or{" "}
            <button
              type="button"
              onClick={() => update({ q: "", state: null })}
              className="font-medium text-primary-text underline underline-offset-4"
            >
              show every competition
            </button>
            .
          </p>
        </div>
      ) : null}

      {shown.map((section) => (
        <section key={section.id} aria-labelledby={`${section.id}-title`} className="mt-14">
          <h2 id={`${section.id}-title`} className="text-2xl font-bold tracking-tight">
            {section.title}{" "}
            <span className="text-base font-normal text-muted-foreground">({section.entries.length})</span>
          </h2>
          <p className="mt-1 mb-6 text-muted-foreground">{section.description}</p>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {section.entries.map((entry) => (
              <li key={entry.key} className="flex">
                {entry.card}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
