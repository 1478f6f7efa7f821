import { defineConfig } from "vitest/config";

// The package's own tests: its server and migrator on a tiny schema of their own (tests/fixtures), real
// supabase-js against it. The app's root vitest.config.ts runs this project beside its own.
export default defineConfig({
  test: {
    name: "embedded-supabase",
    include: ["tests/**/*.test.ts"],
    environment: "node",
    // As the app's suites: a worker keeps its modules between files, so PGlite's WebAssembly compiles once.
    isolate: false,
    // Ceilings for a slow machine, never expectations: a passing test ends when its work does.
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
