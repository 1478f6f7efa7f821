import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll } from "vitest";
import { bytesToHex, sha256 } from "@/lib/crypto/bytes";
import { openDatabase } from "@/supabase/embedded";

// What the tests that hold a plpgsql function and its TypeScript twin to the same answers share: a database
// with every migration to ask, and inputs that look random but are the same on every run.

/** The migrated database (no seed) for the whole test file: opened before its first test, closed after its last. */
export function migratedDatabaseForFile(): () => PGlite {
  let db: PGlite | undefined;
  beforeAll(async () => {
    db = await openDatabase({ seed: false });
  });
  afterAll(async () => {
    await db?.close();
  });
  return () => {
    if (!db) throw new Error("the database is not open yet");
    return db;
  };
}

/** A stand-in for random bytes, as hex: SHA-256 of a label. */
export const hexOf = async (label: string) => bytesToHex(await sha256(label));

/** A uuid from a label (its hash's first 32 hex digits), for an id that must be the same on every run. */
export async function uuidOf(label: string): Promise<string> {
  const hex = await hexOf(label);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
