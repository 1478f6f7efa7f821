// Checking the environment when the server starts stops a misconfigured server before its first
// request, with every missing or malformed variable named (lib/env.ts). Then errors and traces start
// (lib/observability/telemetry.ts: OpenTelemetry and Sentry, each only when configured). Imported by
// instrumentation.ts.
import { env, EnvError } from "./lib/env";
import { log } from "./lib/observability/log";
import { startTelemetry } from "./lib/observability/telemetry";

try {
  env();
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  // Next would log this and go on serving errors; a server that cannot work should not start. Each problem
  // names a variable and what is wrong with it, never its value.
  log("error", "environment_invalid", { problems: error.problems });
  process.exit(1);
}

await startTelemetry(env());
