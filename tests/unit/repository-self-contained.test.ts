// A newcomer has this repository and nothing beside it: the product's rules are in docs/product.md and the
// decisions in docs/decisions, so no tracked file may send a reader to documents outside it. Landed migrations
// are frozen history and keep whatever they said.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");

// Built from parts, so this file does not name what it looks for.
const OUTSIDE = [
  ["..", "shared"].join("/"),
  ["shared", "spec"].join("/"),
  ["shared", "ARCHITECTURE"].join("/"),
  ["shared", "peers"].join("/"),
  ["product-spec", "md"].join("."),
  ["product-decisions", "md"].join("."),
];

/** The references outside the repository that `text` makes. */
function outsideReferences(text: string): string[] {
  return OUTSIDE.filter((reference) => text.includes(reference));
}

function trackedFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" });
  return listed.split("\0").filter((file) => file !== "" && !file.startsWith("supabase/migrations/"));
}

describe("the repository is self-contained", () => {
  it("finds a reference outside the repository wherever it is written", () => {
    expect(outsideReferences(`see ${OUTSIDE[0]}/spec/x`)).toEqual([OUTSIDE[0], OUTSIDE[1]]);
    expect(outsideReferences(`the old ${OUTSIDE[4]}, section 9`)).toEqual([OUTSIDE[4]]);
    expect(outsideReferences("see docs/product.md and docs/decisions/004")).toEqual([]);
  });

  it("no tracked file outside supabase/migrations points outside the repository", () => {
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(100);
    const offenders = files
      .map((file) => ({ file, references: outsideReferences(readFileSync(path.join(root, file), "utf8")) }))
      .filter(({ references }) => references.length > 0)
      .map(({ file, references }) => `${file}: ${references.join(", ")}`);
    expect(offenders, "point these at docs/product.md or a record in docs/decisions instead").toEqual([]);
  });
});
