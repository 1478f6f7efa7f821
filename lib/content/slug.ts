import GithubSlugger, { slug } from "github-slugger";

// Heading anchors shared by the MDX compiler (ids on headings), "On this page" and the search index,
// so the three always agree: github-slugger, the rule GitHub (and rehype-slug) use, repeats numbered.
// A heading with no letters or digits gets "section".

/** A slugger for one document: each call answers the next heading's id. */
export function createSlugger() {
  const slugger = new GithubSlugger();
  return (text: string) => slugger.slug(slug(text) ? text : "section");
}

// An inline code span, whose text is shown as written: `<number>,<ticket id>` is a format, not a tag.
const CODE_SPAN = /(`+)([\s\S]*?)\1/g;
// A table's separator row (`| --- | :---: |`): layout, not text.
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/gm;

/** Plain text of Markdown outside code spans: links, emphasis, escapes and inline JSX removed. */
function inlineToText(md: string): string {
  return (
    md
      // An exponent keeps its meaning as text: 2<sup>48</sup> is 2^48, not 248.
      .replace(/<sup>([^<]*)<\/sup>/g, "^$1")
      .replace(/<\/?[A-Za-z][^<>\n]*>/g, " ")
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      // A backslash at a line's end is a line break; before punctuation it escapes it: neither is text.
      .replace(/\\\n/g, "\n")
      .replace(/\\([!-/:-@[-`{-~])/g, "$1")
      .replace(/[*_~]/g, "")
      .replace(/\|/g, " ")
  );
}

/** Plain text of a line or a passage of Markdown (links, emphasis, escapes and inline JSX removed; code as written). */
export function markdownToText(md: string): string {
  // Line by line first: list and quote marks, and table rules, are only marks at the start of a line.
  const lines = md
    .replace(TABLE_RULE, " ")
    .replace(/^\s*[-+>|]\s?/gm, "")
    .replace(/^\s*\d+\.\s/gm, "");
  let text = "";
  let from = 0;
  for (const match of lines.matchAll(CODE_SPAN)) {
    text += inlineToText(lines.slice(from, match.index)) + match[2].trim();
    from = match.index + match[0].length;
  }
  return (text + inlineToText(lines.slice(from))).replace(/\s+/g, " ").trim();
}
