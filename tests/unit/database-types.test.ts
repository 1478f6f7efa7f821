import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { generateFromMigrations, typesFile } from "@/scripts/gen-db-types";

describe("lib/supabase/database.types.ts", () => {
  it("matches the migrations (run `npm run db:types` after changing the SQL)", async () => {
    const generated = await generateFromMigrations();
    expect(await readFile(typesFile, "utf8")).toBe(generated);
  }, 120_000);

  it("types the RPCs the app calls and leaves internal helpers out", async () => {
    const generated = await generateFromMigrations();
    expect(generated).toMatch(
      /\n {6}enter_competition: \{\n {8}Args: \{\n {10}p_competition_id: string\n {10}p_quantity: number\n {10}p_answer\?: string\n/,
    );
    expect(generated).toMatch(
      /\n {6}get_my_account: \{\n {8}Args: never\n {8}Returns: Database\["public"\]\["CompositeTypes"\]\["my_account"\]\n/,
    );
    // Executable by no API role (only by other functions), so not part of the client's surface.
    expect(generated).not.toMatch(/\n {6}post_ledger: \{/);
  }, 120_000);
});
