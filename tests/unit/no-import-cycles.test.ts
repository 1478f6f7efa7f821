// No module in the app imports itself round a circle: lib/, components/ and app/ form a tree, so each module can be
// read (and loaded) before the ones that use it. Every import counts, type-only and lazy import() ones included: a
// circle through them is still two modules that cannot be understood apart. A graph over the files as text keeps
// this cheap (ESLint's import/no-cycle costs minutes of the suite's lint).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const AREAS = ["lib", "components", "app"];
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

/** Every import specifier in a module: `import … from`, `export … from`, a bare `import "…"` and `import("…")`. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'";]*?\sfrom\s*["']([^"']+)["']/g, /\bimport\s*\(?\s*["']([^"']+)["']/g];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The app file an import names (through the @/ alias or a relative path), or null for a package. */
function resolve(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  for (const candidate of [base, ...EXTENSIONS.map((ext) => base + ext)]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The circles in a graph (module -> the modules it imports), each once, as the path round it. */
export function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

describe("the import graph", () => {
  it("finds a circle where there is one, through a lazy import too", () => {
    const graph = new Map([
      ["adapter", ["stripe"]],
      ["stripe", ["adapter"]],
      ["confirm", ["provider"]],
    ]);
    expect(cycles(graph)).toEqual([["adapter", "stripe", "adapter"]]);
    expect(
      specifiers(`import type { A } from "./a";\nexport { b } from "@/b";\nconst c = await import("./c");`),
    ).toEqual(["./a", "@/b", "./c"]);
  });

  it("has no circle in lib/, components/ or app/", () => {
    const graph = new Map<string, string[]>();
    for (const file of AREAS.flatMap((area) => sourceFiles(path.join(ROOT, area)))) {
      const imported = specifiers(readFileSync(file, "utf8"))
        .map((s) => resolve(file, s))
        .filter((target): target is string => target !== null);
      graph.set(path.relative(ROOT, file), [...new Set(imported.map((t) => path.relative(ROOT, t)))]);
    }
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles(graph).map((circle) => circle.join(" -> "))).toEqual([]);
  });
});
