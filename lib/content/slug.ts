import GithubSlugger, { slug } from "github-slugger";

// Heading anchors shared by the MDX compiler (ids on headings), "On this page" and the search index,
// so the three always agree: github-slugger, the rule GitHub (and rehype-slug) use, repeats numbered.
// A heading with no letters or digits gets "section".

/** A slugger for one document: each call answers the next heading's id. */
export function createSlugger() {
  const slugger = new GithubSlugger();
  return (text: string) => slugger.slug(slug(text) ? text : "section");
}

/** Plain text of a line of Markdown (links, emphasis, code marks and inline JSX removed). */
export function markdownToText(md: string): string {
  return md
    .replace(/<[^>]+>/g, " ")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`~]/g, "")
    .replace(/^\s*[-+>|]\s?/gm, "")
    .replace(/^\s*\d+\.\s/gm, "")
    .replace(/\|/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
