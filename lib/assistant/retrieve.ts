// The help assistant's retrieval: BM25 (MiniSearch's BM25+) over the site search's own records, one per
// docs heading (lib/content/markdown-outline.ts searchSections), so the passages it cites are the
// sections the search palette finds and their links are the headings' anchors.
import MiniSearch from "minisearch";
import type { SearchRecord } from "@/lib/search-record";
import { terms } from "./terms";

/** A passage the answer used: its section, where it sits, its link and its text. */
export type Passage = { href: string; title: string; trail: string[]; text: string };

export const PASSAGE_LIMIT = 3;

const LEGAL_PAGES = "/docs/legal/";

// A passage scoring under this share of the best one is about something else: it is left out.
const RELATIVE_CUTOFF = 0.35;

export type Retriever = (question: string) => Passage[];

/** Indexes the records once; the function it returns ranks them for a question, best first. */
export function createRetriever(records: readonly SearchRecord[]): Retriever {
  const index = new MiniSearch<SearchRecord>({
    fields: ["title", "titlesText", "content"],
    extractField: (doc, field) =>
      field === "titlesText" ? doc.titles.join(" ") : String(doc[field as keyof SearchRecord] ?? ""),
    processTerm: terms,
    // A heading says what its section is about; the page title above it, a little less so.
    // The legal pages restate, formally, what the guides explain to players: a guide's section comes first
    // when both answer.
    searchOptions: {
      boost: { title: 3, titlesText: 1.5 },
      combineWith: "OR",
      boostDocument: (id) => (String(id).startsWith(LEGAL_PAGES) ? 0.5 : 1),
    },
  });
  index.addAll(records);
  const byId = new Map(records.map((r) => [r.id, r]));
  return (question) => {
    const hits = index.search(question);
    const best = hits[0]?.score ?? 0;
    return hits
      .filter((hit) => hit.score >= best * RELATIVE_CUTOFF)
      .slice(0, PASSAGE_LIMIT)
      .flatMap((hit) => {
        const record = byId.get(hit.id as string);
        return record ? [{ href: record.id, title: record.title, trail: record.titles, text: record.content }] : [];
      });
  };
}
