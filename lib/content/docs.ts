import { allDocs } from "content-collections";
import type { SearchRecord } from "@/lib/search-record";

export type Doc = (typeof allDocs)[number];

/** A navigation node (spec §3): a page, or a folder-only node (`page: false`) that groups pages. */
export type NavNode = { title: string; path: string; stem: string; page: boolean; children: NavNode[] };

const byStem = (a: { stem: string }, b: { stem: string }) => (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0);

// Content is read in stem order (spec §9), with the docs overview (docs/index) first.
export const docs: Doc[] = [...allDocs].sort((a, b) =>
  a.path === "/docs" ? -1 : b.path === "/docs" ? 1 : byStem(a, b),
);

export function findDoc(slug: string[] | undefined): Doc | undefined {
  const path = ["/docs", ...(slug ?? [])].join("/");
  return docs.find((d) => d.path === path);
}

const titleCase = (s: string) => s.replace(/-/g, " ").replace(/^\w/, (c) => c.toUpperCase());
const navTitle = (d: Doc) => (typeof d.navigation === "object" && d.navigation.title) || d.title;

export function docsNavigation(): NavNode[] {
  const root: NavNode[] = [];
  for (const doc of docs) {
    if (doc.navigation === false) continue;
    let level = root;
    const folders = doc.slug.slice(0, -1);
    folders.forEach((segment, i) => {
      const path = ["/docs", ...folders.slice(0, i + 1)].join("/");
      let folder = level.find((n) => n.path === path);
      if (!folder) {
        const stemParts = doc.stem.split("/").slice(0, i + 2);
        folder = { title: titleCase(segment), path, stem: stemParts.join("/"), page: false, children: [] };
        level.push(folder);
      }
      level = folder.children;
    });
    level.push({ title: navTitle(doc), path: doc.path, stem: doc.stem, page: true, children: [] });
  }
  return root;
}

/** Pages in reading order, for previous / next links. */
export function neighbours(doc: Doc): { prev?: Doc; next?: Doc } {
  const readable = docs.filter((d) => d.navigation !== false);
  const i = readable.findIndex((d) => d.path === doc.path);
  return { prev: readable[i - 1], next: readable[i + 1] };
}

export function breadcrumbs(doc: Doc): { label: string; href?: string }[] {
  const trail: { label: string; href?: string }[] = [{ label: "Docs", href: "/docs" }];
  doc.slug.slice(0, -1).forEach((segment) => trail.push({ label: titleCase(segment) }));
  if (doc.path !== "/docs") trail.push({ label: doc.title });
  return trail;
}

/**
 * The site search's index: one record per section of every listed docs page. The search palette fetches
 * it (app/search.json) and the help assistant ranks it (lib/assistant).
 */
export function searchRecords(): SearchRecord[] {
  return docs.filter((d) => d.navigation !== false).flatMap((d) => d.sections);
}
