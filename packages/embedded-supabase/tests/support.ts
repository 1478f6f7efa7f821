// The package's tests run on their own schema (fixtures/), never an app's.
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import type { SchemaOptions } from "../src/db";
import { EMBEDDED_PUBLISHABLE_KEY } from "../src/keys";

export const fixtures = path.join(import.meta.dirname, "fixtures");
export const schema: SchemaOptions = {
  migrationsDir: path.join(fixtures, "migrations"),
  seedFile: path.join(fixtures, "seed.sql"),
};

export function client(url: string, key = EMBEDDED_PUBLISHABLE_KEY) {
  return createClient(url, key, { auth: { persistSession: false, autoRefreshToken: false } });
}

let counter = 0;
/** A unique address per call. */
export function uniqueEmail(): string {
  counter += 1;
  return `user-${Date.now().toString(36)}-${counter}@example.com`;
}

export const PASSWORD = "Sturdy-pass-42";
