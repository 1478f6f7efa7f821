// `npm run embedded` (and the backend `npm run dev`/`npm start` launch): the embedded backend with the app's schema,
// mail name and routes (supabase/embedded.ts). The package reads its own settings from the environment
// (packages/embedded-supabase/README.md); the app adds its data directory and, for the end-to-end run only, its
// test fixtures.
//
//   LABCASH_DATA_DIR         default .data/embedded
//   EMBEDDED_TEST_FIXTURES   1 = POST /_embedded/test/competition-due (only scripts/e2e-server.mjs sets it)
import path from "node:path";
import { runEmbeddedProcess } from "@labcash/embedded-supabase/cli";
import { appServerOptions } from "../supabase/embedded";

void runEmbeddedProcess({
  ...appServerOptions({ testFixtures: process.env.EMBEDDED_TEST_FIXTURES === "1" }),
  dataDir: path.resolve(process.env.LABCASH_DATA_DIR ?? ".data/embedded"),
});
