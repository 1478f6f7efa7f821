import path from "node:path";
import { defineConfig } from "vitest/config";

// Four suites, one run: unit (pure logic), db (in-memory PGlite with every
// migration), contract (real supabase-js against the embedded backend), and the embedded backend package's own
// (packages/embedded-supabase/vitest.config.ts, on a schema of its own).
const alias = { "@": path.resolve(import.meta.dirname) };
// Each worker keeps its modules from one file to the next instead of starting afresh: a new module graph per
// file compiled PGlite's WebAssembly again (about 2.5 s a file, a third of the db and contract suites' time).
// Every file still opens its own database and servers; no test file keeps state in a module.
// The time-outs are ceilings for a machine with half this one's CPU, never expectations: a passing test ends when its
// work does.
const shared = {
  environment: "node",
  isolate: false,
  testTimeout: 60_000,
  hookTimeout: 300_000,
  setupFiles: ["tests/support/next-runtime.ts"] as string[],
} as const;

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default is one worker fewer than the cores: one file at a time on a 2-core machine, while the
    // contract files spend much of their time waiting on the servers they start. Two at once use the machine.
    maxWorkers: 2,
    projects: [
      {
        // Server modules (the actions, for their schemas) load here as on the server: "server-only" is
        // the empty module Next gives server code.
        resolve: {
          alias: {
            ...alias,
            "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
            // The content the site is built from, as `npm run typecheck` (run before the suites) generates it.
            "content-collections": path.resolve(import.meta.dirname, ".content-collections/generated"),
          },
        },
        test: { ...shared, name: "unit", include: ["tests/unit/**/*.test.ts"] },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "db",
          include: ["tests/db/**/*.test.ts"],
          // One PostgreSQL 15 cluster for the run, with template databases each PG15 file copies (tests/db/pg15.ts).
          globalSetup: ["tests/db/pg15-global.ts"],
          testTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "contract",
          include: ["tests/contract/**/*.test.ts"],
        },
      },
      "packages/embedded-supabase",
    ],
  },
});
