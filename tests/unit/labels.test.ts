// Labels in one place (docs/decisions/008): every value of every SQL enum has its
// words in lib/labels.ts, and no other file keeps its own copy of a whole set, as a list of its values
// or as a map of its values to words (the copies drifted: "Top-up reversal" beside "Top-up reversed").
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENUM_VALUES, enumLabel, isEnumValue, LABELS } from "@/lib/labels";

const SETS = Object.entries(ENUM_VALUES) as [keyof typeof ENUM_VALUES, readonly string[]][];
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The enums whose every value `source` lists in one array literal, or maps to words (a capitalised string). */
function copiedSets(source: string): string[] {
  const arrays = [...source.matchAll(/\[((?:\s*"[^"]*"\s*,?)+)\]/g)].map(
    (m) => new Set([...m[1].matchAll(/"([^"]*)"/g)].map((s) => s[1])),
  );
  return SETS.filter(([, values]) => {
    const listed = arrays.some((literals) => values.every((v) => literals.has(v)));
    const labelled = values.every((v) =>
      new RegExp(`(^|[\\s{,])"?${escape(v)}"?\\s*:\\s*["'\`][A-Z]`, "m").test(source),
    );
    return listed || labelled;
  }).map(([name]) => name);
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.relative(process.cwd(), path.join(e.parentPath, e.name)));
}

describe("enum labels", () => {
  it("give every value of every SQL enum its words, and nothing else", () => {
    expect(Object.keys(LABELS).sort()).toEqual(SETS.map(([name]) => name).sort());
    for (const [name, values] of SETS) {
      expect(Object.keys(LABELS[name]), name).toEqual([...values]);
      for (const value of values) expect(enumLabel(name, value), `${name}.${value}`).toMatch(/^[A-Z]/);
    }
  });

  it("show a value newer than the build as it is stored, and know which values belong", () => {
    expect(enumLabel("ledger_kind", "top_up_reversal")).toBe("Top-up reversal");
    expect(enumLabel("ledger_kind", "a_later_kind")).toBe("a_later_kind");
    expect(enumLabel("ledger_kind", "toString")).toBe("toString");
    expect(isEnumValue("user_role", "super_admin")).toBe(true);
    expect(isEnumValue("user_role", "owner")).toBe(false);
  });

  it("find a copied set, as a list or as words", () => {
    expect(copiedSets('const KIND = { paid: "Paid", postal: "Postal" };')).toEqual(["entry_kind"]);
    expect(copiedSets('z.enum(["received", "acknowledged", "resolved"])')).toEqual(["complaint_status"]);
    expect(copiedSets('const tone = { received: "warning", acknowledged: "info", resolved: "success" };')).toEqual([]);
    expect(copiedSets('z.enum(["received", "resolved"])')).toEqual([]);
  });

  it("live only in lib/labels.ts and the generated types", async () => {
    const files = (await Promise.all(["lib", "components", "app"].map(sourceFiles))).flat();
    const home = new Set([path.join("lib", "labels.ts"), path.join("lib", "supabase", "database.types.ts")]);
    const copies: string[] = [];
    for (const file of files.filter((f) => !home.has(f))) {
      for (const set of copiedSets(await readFile(file, "utf8"))) copies.push(`${file}: ${set}`);
    }
    expect(copies).toEqual([]);
  });
});
