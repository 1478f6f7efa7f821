// The help assistant's retrieval: BM25 (MiniSearch's BM25+) over the site search's own records, one per
// docs heading (lib/content/markdown-outline.ts searchSections), so the passages it cites are the
// sections the search palette finds and their links are the headings' anchors.
import MiniSearch from "minisearch";
import type { SearchRecord } from "@/lib/search-record";
import { documentTerm, questionTerms } from "./terms";

/** A passage the answer used: its section, where it sits, its link and its text. */
export type Passage = { href: string; title: string; trail: string[]; text: string };

export const PASSAGE_LIMIT = 3;

const LEGAL_PAGES = "/docs/legal/";

// A page's own record is its description and introduction: a summary of what its sections answer, so a section
// that matches as well comes first.
const PAGE_WEIGHT = 0.6;

// A passage scoring under this share of the best one is about something else: it is left out.
const RELATIVE_CUTOFF = 0.35;

// How much a synonym's match counts beside a match of the question's own word.
const SYNONYM_WEIGHT = 0.5;

export type Retriever = (question: string) => Passage[];

/** Indexes the records once; the function it returns ranks them for a question, best first. */
export function createRetriever(records: readonly SearchRecord[]): Retriever {
  const index = new MiniSearch<SearchRecord>({
    fields: ["title", "titlesText", "content"],
    extractField: (doc, field) =>
      field === "titlesText" ? doc.titles.join(" ") : String(doc[field as keyof SearchRecord] ?? ""),
    processTerm: documentTerm,
    // A heading says what its section is about; the page title above it, a little less so.
    // The legal pages restate, formally, what the guides explain to players: a guide's section comes first
    // when both answer.
    searchOptions: {
      processTerm: questionTerms,
      boost: { title: 3, titlesText: 1.5 },
      combineWith: "OR",
      boostDocument: (id) =>
        (String(id).startsWith(LEGAL_PAGES) ? 0.5 : 1) * (String(id).includes("#") ? 1 : PAGE_WEIGHT),
    },
  });
  index.addAll(records);
  const byId = new Map(records.map((r) => [r.id, r]));
  return (question) => {
    // A question's own words count in full; the docs' words for them (questionTerms' synonyms) count half, so a
    // passage in the question's own words comes before one found only through a synonym.
    const own = new Set(MiniSearch.getDefault("tokenize")(question).map(documentTerm));
    const hits = index.search(question, { boostTerm: (term) => (own.has(term) ? 1 : SYNONYM_WEIGHT) });
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
