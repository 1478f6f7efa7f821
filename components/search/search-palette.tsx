"use client";

import { Command } from "cmdk";
import { Dialog, VisuallyHidden } from "radix-ui";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { FileText, Hash } from "lucide-react";
import type MiniSearch from "minisearch";
import type { SearchRecord } from "@/lib/search-record";

export const SEARCH_LIMIT = 42;

type Index = { search: (q: string) => SearchRecord[] };

let indexPromise: Promise<Index> | null = null;

// One fetch and one index per page load, shared by every opening of the palette.
function loadIndex(): Promise<Index> {
  indexPromise ??= Promise.all([
    import("minisearch"),
    fetch("/search.json").then((r) => r.json() as Promise<SearchRecord[]>),
  ]).then(([{ default: MiniSearchCtor }, records]) => {
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
      search(q: string) {
        let hits = mini.search(q);
        // Typos in several words can make AND too strict; fall back to OR before giving up.
        if (hits.length === 0) hits = mini.search(q, { combineWith: "OR" });
        return hits.slice(0, SEARCH_LIMIT).map((h) => byId.get(h.id)!);
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

  const results = useMemo(() => (index && query.trim() ? index.search(query.trim()) : []), [index, query]);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-overlay" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-[10vh] left-1/2 z-50 w-[min(40rem,calc(100vw-1.5rem))] -translate-x-1/2 overflow-hidden rounded-xl border border-border bg-card text-card-foreground shadow-2xl"
        >
          <VisuallyHidden.Root asChild>
            <Dialog.Title>Search documentation</Dialog.Title>
          </VisuallyHidden.Root>
          <Command label="Search documentation" shouldFilter={false} loop>
            <Command.Input
              value={query}
              onValueChange={setQuery}
              placeholder="Search..."
              aria-label="Search documentation"
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
                  Type to search the documentation. Use ↑ ↓ to move and Enter to open.
                </p>
              ) : null}
              {results.map((r) => (
                <Command.Item
                  key={r.id}
                  value={r.id}
                  onSelect={() => {
                    onOpenChange(false);
                    router.push(r.id);
                  }}
                  className="flex cursor-pointer items-start gap-3 rounded-md px-3 py-2.5 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground"
                >
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
            </Command.List>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
