import type { SearchRecord } from "@/lib/search-record";
import { createSlugger, markdownToText } from "./slug";

export type TocEntry = { id: string; text: string; depth: 2 | 3 };

type Heading = { depth: number; text: string; id: string; line: number };

/** For each line of an MDX document, whether it is fenced code or a fence itself. */
function inCodeFence(lines: readonly string[]): boolean[] {
  let fence: string | null = null;
  return lines.map((line) => {
    const f = line.match(/^\s*(```+|~~~+)/);
    if (!f) return fence !== null;
    if (!fence) fence = f[1];
    else if (line.trim().startsWith(fence)) fence = null;
    return true;
  });
}

/** The ATX headings of an MDX document, skipping fenced code, with their anchors. */
export function headings(markdown: string): Heading[] {
  const slug = createSlugger();
  const out: Heading[] = [];
  const lines = markdown.split("\n");
  const code = inCodeFence(lines);
  lines.forEach((line, index) => {
    if (code[index]) return;
    const m = line.match(/^(#{1,6})\s+(.+?)\s*#*\s*$/);
    if (m) {
      const text = markdownToText(m[2]);
      out.push({ depth: m[1].length, text, id: slug(text), line: index });
    }
  });
  return out;
}

export function tableOfContents(markdown: string): TocEntry[] {
  return headings(markdown)
    .filter((h) => h.depth === 2 || h.depth === 3)
    .map((h) => ({ id: h.id, text: h.text, depth: h.depth as 2 | 3 }));
}

const SECTION_TEXT_LIMIT = 600;

/**
 * A section's text cut to the limit where a sentence ends (or, failing that, a word, marked "…"): the help
 * assistant shows it as an answer, and half a word reads as a fault.
 */
function clipText(text: string, limit = SECTION_TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  const head = text.slice(0, limit + 1);
  const sentenceEnd = Math.max(...[". ", "; ", ": "].map((stop) => head.lastIndexOf(stop)));
  if (sentenceEnd >= limit / 2) return `${head.slice(0, sentenceEnd + 1).replace(/[;:]$/, "")}…`;
  return `${head.slice(0, head.lastIndexOf(" ")).replace(/[,;:]$/, "")}…`;
}

/** The prose of some lines of a page: fenced code (commands, shown on the page itself) and MDX imports left out. */
function proseOf(lines: readonly string[]): string {
  const code = inCodeFence(lines);
  return markdownToText(lines.filter((line, i) => !code[i] && !/^\s*(import|export) /.test(line)).join("\n"));
}

/** Search records for one page: the page itself (level 1) and one per heading (spec §2). */
export function searchSections(path: string, title: string, description: string, markdown: string): SearchRecord[] {
  const lines = markdown.split("\n");
  const hs = headings(markdown);
  const text = (from: number, to: number) => clipText(proseOf(lines.slice(from, to)));

  const records: SearchRecord[] = [
    {
      id: path,
      title,
      titles: [],
      content: [description, text(0, hs[0]?.line ?? lines.length)].filter(Boolean).join(" "),
      level: 1,
    },
  ];
  const trail: { depth: number; text: string }[] = [];
  hs.forEach((h, i) => {
    while (trail.length && trail[trail.length - 1].depth >= h.depth) trail.pop();
    records.push({
      id: `${path}#${h.id}`,
      title: h.text,
      titles: [title, ...trail.map((t) => t.text)],
      content: text(h.line + 1, hs[i + 1]?.line ?? lines.length),
      level: Math.min(6, Math.max(2, h.depth)) as SearchRecord["level"],
    });
    trail.push({ depth: h.depth, text: h.text });
  });
  return records;
}
