// The embedded backend as a process, configured by the environment alone (cli.ts lists the variables):
//   EMBEDDED_MIGRATIONS_DIR=supabase/migrations node --import tsx node_modules/@labcash/embedded-supabase/src/main.ts
import { runEmbeddedProcess } from "./cli";

void runEmbeddedProcess();
