"use client";

import { Command } from "cmdk";
import { Dialog, VisuallyHidden } from "radix-ui";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { FileText, Gift, Hash } from "lucide-react";
import type MiniSearch from "minisearch";
import { searchCompetitions, type CompetitionSearchRecord } from "@/lib/competitions/search";
import type { SearchRecord } from "@/lib/search-record";

export const SEARCH_LIMIT = 42;
export const SEARCH_TITLE = "Search prizes and documentation";

type Results = { competitions: CompetitionSearchRecord[]; docs: SearchRecord[] };
type Index = { search: (q: string) => Results };

let indexPromise: Promise<Index> | null = null;

const json = <T,>(path: string) =>
  fetch(path).then((r) => {
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    return r.json() as Promise<T>;
  });

// One fetch of each public index and one docs index per page load, shared by every opening of the palette:
// the competitions (cached for seconds, /competitions/search.json) and the docs (static, /search.json).
function loadIndex(): Promise<Index> {
  indexPromise ??= Promise.all([
    import("minisearch"),
    json<SearchRecord[]>("/search.json"),
    json<CompetitionSearchRecord[]>("/competitions/search.json"),
  ]).then(([{ default: MiniSearchCtor }, records, competitions]) => {
    const mini: MiniSearch<SearchRecord> = new MiniSearchCtor<SearchRecord>({
      fields: ["title", "titlesText", "content"],
      storeFields: ["id"],
      extractField: (doc, field) =>
        field === "titlesText" ? doc.titles.join(" ") : String(doc[field as keyof SearchRecord] ?? ""),
      searchOptions: { boost: { title: 3, titlesText: 1.5 }, fuzzy: 0.2, prefix: true, combineWith: "AND" },
    });
    mini.addAll(records);
    const byId = new Map(records.map((r) => [r.id, r]));
    return {
      // Competitions first, then the documentation, at most SEARCH_LIMIT results in all (spec §2).
      search(q: string) {
        const prizes = searchCompetitions(competitions, q, SEARCH_LIMIT);
        let hits = mini.search(q);
        // Typos in several words can make AND too strict; fall back to OR before giving up.
        if (hits.length === 0) hits = mini.search(q, { combineWith: "OR" });
        return { competitions: prizes, docs: hits.slice(0, SEARCH_LIMIT - prizes.length).map((h) => byId.get(h.id)!) };
      },
    };
  });
  indexPromise.catch(() => {
    indexPromise = null;
  });
  return indexPromise;
}

export function SearchPalette({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const router = useRouter();
  const [query, setQuery] = useState("");
  const [index, setIndex] = useState<Index | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    loadIndex().then(
      (i) => live && setIndex(i),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  const results = useMemo<Results>(
    () => (index && query.trim() ? index.search(query.trim()) : { competitions: [], docs: [] }),
    [index, query],
  );
  const go = (path: string) => {
    onOpenChange(false);
    router.push(path);
  };
  const itemClass =
    "flex cursor-pointer items-start gap-3 rounded-md px-3 py-2.5 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground";
  const groupClass =
    "[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-muted-foreground";

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-overlay" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-[10vh] left-1/2 z-50 w-[min(40rem,calc(100vw-1.5rem))] -translate-x-1/2 overflow-hidden rounded-xl border border-border bg-card text-card-foreground shadow-2xl"
        >
          <VisuallyHidden.Root asChild>
            <Dialog.Title>{SEARCH_TITLE}</Dialog.Title>
          </VisuallyHidden.Root>
          <Command label={SEARCH_TITLE} shouldFilter={false} loop>
            <Command.Input
              value={query}
              onValueChange={setQuery}
              placeholder="Search..."
              aria-label={SEARCH_TITLE}
              className="h-14 w-full border-b border-border bg-transparent px-4 text-base outline-none placeholder:text-muted-foreground"
            />
            <Command.List className="max-h-[60vh] overflow-y-auto p-2">
              {!index && !failed ? <Command.Loading>Loading the index…</Command.Loading> : null}
              {failed ? (
                <p className="p-3 text-sm text-destructive">
                  Search could not load. Check your connection and try again.
                </p>
              ) : null}
              {index && query.trim() ? (
                <Command.Empty className="p-3 text-sm text-muted-foreground">
                  No results for “{query.trim()}”.
                </Command.Empty>
              ) : null}
              {index && !query.trim() ? (
                <p className="p-3 text-sm text-muted-foreground">
                  Type to find a prize or a page of the documentation. Use ↑ ↓ to move and Enter to open.
                </p>
              ) : null}
              {results.competitions.length ? (
                <Command.Group heading="Competitions" className={groupClass}>
                  {results.competitions.map((r) => (
                    <Command.Item key={r.id} value={r.id} onSelect={() => go(r.id)} className={itemClass}>
                      <Gift aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                      <span className="min-w-0">
                        <span className="block truncate font-medium">{r.title}</span>
                        <span className="block truncate text-xs text-muted-foreground">
                          {r.state} · {r.prize}
                        </span>
                      </span>
                    </Command.Item>
                  ))}
                </Command.Group>
              ) : null}
              {results.docs.length ? (
                <Command.Group heading="Documentation" className={groupClass}>
                  {results.docs.map((r) => (
                    <Command.Item key={r.id} value={r.id} onSelect={() => go(r.id)} className={itemClass}>
                      {r.level === 1 ? (
                        <FileText aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                      ) : (
                        <Hash aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                      )}
                      <span className="min-w-0">
                        {r.titles.length ? (
                          <span className="block truncate text-xs text-muted-foreground">{r.titles.join(" › ")}</span>
                        ) : null}
                        <span className="block truncate font-medium">{r.title}</span>
                      </span>
                    </Command.Item>
                  ))}
                </Command.Group>
              ) : null}
            </Command.List>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
