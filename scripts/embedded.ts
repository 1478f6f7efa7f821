// `npm run embedded` (and the backend `npm run dev`/`npm start` launch): the embedded backend with the app's schema,
// mail name and routes (supabase/embedded.ts). The package reads its own settings from the environment
// (packages/embedded-supabase/README.md); the app adds its data directory and, for the end-to-end runs only, its
// test fixtures.
//
//   LABCASH_DATA_DIR         default .data/embedded
//   EMBEDDED_DEMO_DATA       0 = the migrations alone, as a new hosted project has them (the go-live rehearsal,
//                            scripts/rehearsal.mjs); default 1, the demo seed on a new database
//   EMBEDDED_TEST_FIXTURES   1 = POST /_embedded/test/competition-due (only the e2e server and the rehearsal set it)
import path from "node:path";
import { runEmbeddedProcess } from "@labcash/embedded-supabase/cli";
import { appServerOptions } from "../supabase/embedded";

const app = appServerOptions({ testFixtures: process.env.EMBEDDED_TEST_FIXTURES === "1" });
void runEmbeddedProcess({
  ...app,
  ...(process.env.EMBEDDED_DEMO_DATA === "0" ? { schema: { ...app.schema, seedFile: undefined } } : {}),
  dataDir: path.resolve(process.env.LABCASH_DATA_DIR ?? ".data/embedded"),
});
