import path from "node:path";
import { defineConfig } from "vitest/config";

// Three suites, one run: unit (pure logic), db (in-memory PGlite with every
// migration), contract (real supabase-js against the embedded backend).
const alias = { "@": path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        // Server modules (the actions, for their schemas) load here as on the server: "server-only" is
        // the empty module Next gives server code.
        resolve: {
          alias: { ...alias, "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js") },
        },
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" },
      },
      {
        resolve: { alias },
        test: {
          name: "db",
          include: ["tests/db/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "contract",
          include: ["tests/contract/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
