import { createSlugger } from "./slug";

// A tiny rehype plugin: gives h2–h6 the same ids as lib/content/markdown-outline.ts and wraps
// their text in a self-link, so every section can be linked to and found from search.
type Node = { type: string; tagName?: string; value?: string; properties?: Record<string, unknown>; children?: Node[] };

function textOf(node: Node): string {
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(textOf).join("");
}

export function rehypeHeadingIds() {
  return (tree: Node) => {
    const slug = createSlugger();
    const walk = (node: Node) => {
      if (node.type === "element" && /^h[1-6]$/.test(node.tagName ?? "")) {
        const id = slug(textOf(node).replace(/\s+/g, " ").trim());
        node.properties = { ...node.properties, id };
        if (node.tagName !== "h1") {
          node.children = [
            {
              type: "element",
              tagName: "a",
              properties: { href: `#${id}`, className: ["anchor"] },
              children: node.children ?? [],
            },
          ];
        }
        return;
      }
      node.children?.forEach(walk);
    };
    walk(tree);
  };
}
