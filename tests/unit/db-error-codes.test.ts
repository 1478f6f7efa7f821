import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DB_ERROR_CODES } from "@/lib/data/errors";
import { migrationsDir } from "@/supabase/embedded";

async function hintsInMigrations(): Promise<Set<string>> {
  const hints = new Set<string>();
  for (const file of (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql"))) {
    const sql = await readFile(path.join(migrationsDir, file), "utf8");
    for (const match of sql.matchAll(/\bhint\s*=\s*'([^']*)'/g)) hints.add(match[1]);
  }
  return hints;
}

describe("DbErrorCode", () => {
  it("knows every code the SQL raises, and lists none the SQL never raises", async () => {
    const hints = await hintsInMigrations();
    expect([...hints].filter((hint) => !(DB_ERROR_CODES as readonly string[]).includes(hint))).toEqual([]);
    expect(DB_ERROR_CODES.filter((code) => !hints.has(code))).toEqual([]);
  });
});
