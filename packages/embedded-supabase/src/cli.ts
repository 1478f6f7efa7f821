// The embedded backend as a process: settings from the environment (below), the lock on its data directory, the
// ready line, and a clean close on SIGTERM or SIGINT. `src/main.ts` runs it as it is; an app's own launcher calls
// `runEmbeddedProcess` with what the environment cannot carry (its schema, its routes).
//
//   EMBEDDED_PORT               default 54321; 0 picks a free port (the ready line says which)
//   EMBEDDED_HOST               default 127.0.0.1; loopback only (the keys are published)
//   EMBEDDED_DATA_DIR           default .data/embedded (PGlite files, the JWT key pair, Storage's files)
//   EMBEDDED_MIGRATIONS_DIR     the app's migrations folder (default none: the shim alone)
//   EMBEDDED_SEED_FILE          SQL applied once after the migrations (default none)
//   EMBEDDED_APP_NAME           the product auth mail names (default Supabase)
//   EMBEDDED_MAIL_CONFIRMATION  1 = new accounts must confirm their e-mail first
//   EMBEDDED_LOG                1 = one line per request on stderr
//   SITE_URL                    GoTrue's SITE_URL: base of links in auth mail, default http://localhost:3000; also
//                               the only origin that may call from a browser (CORS) and where links may lead
//   EMBEDDED_RATE_LIMITS        off = no rate limits (an end-to-end run signs hundreds of users in from one
//                               address); otherwise GoTrue's defaults (rate-limit.ts)
//   EMBEDDED_REDIRECT_URLS      further redirect_to URLs links may lead to, comma-separated, `*` globs
//                               (GoTrue's uri_allow_list)
//   EMBEDDED_CAPTCHA_SECRET     turns on GoTrue's [auth.captcha] with this secret (default off)
//   EMBEDDED_CAPTCHA_PROVIDER   turnstile (default) or hcaptcha; anything else is refused
//   EMBEDDED_PASSWORD_HASH_COST quick = bcrypt's minimum cost for new password hashes, as GoTrue's own tests run
//                               (a test run signs thousands of users up and in); default GoTrue's cost, 10
//
// Prints exactly one line on stdout, `Embedded Supabase ready at <url>`, once
// listening; launchers and tests wait for it. Everything else goes to stderr.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { StaleMigrationsError } from "./db";
import { NO_RATE_LIMITS } from "./rate-limit";
import { startEmbeddedServer, type EmbeddedServer, type EmbeddedServerOptions } from "./server";

type Environment = Record<string, string | undefined>;

/** A setting the environment gives that the backend cannot honour: the message says which and what to set. */
export class EnvironmentError extends Error {
  override name = "EnvironmentError";
}

const CAPTCHA_PROVIDERS = ["turnstile", "hcaptcha"] as const;

/** GoTrue's [auth.captcha] from the environment. A misspelt provider is refused, never read as the default one. */
function captchaFromEnvironment(env: Environment): EmbeddedServerOptions["captcha"] {
  const provider = env.EMBEDDED_CAPTCHA_PROVIDER?.trim().toLowerCase() || "turnstile";
  if (!CAPTCHA_PROVIDERS.includes(provider as (typeof CAPTCHA_PROVIDERS)[number]))
    throw new EnvironmentError(
      `EMBEDDED_CAPTCHA_PROVIDER must be turnstile or hcaptcha (GoTrue's [auth.captcha] providers), not "${env.EMBEDDED_CAPTCHA_PROVIDER}".`,
    );
  if (!env.EMBEDDED_CAPTCHA_SECRET) return undefined;
  return { provider: provider as (typeof CAPTCHA_PROVIDERS)[number], secret: env.EMBEDDED_CAPTCHA_SECRET };
}

function passwordHashCostFromEnvironment(env: Environment): EmbeddedServerOptions["passwordHashCost"] {
  const cost = env.EMBEDDED_PASSWORD_HASH_COST?.trim().toLowerCase() || "default";
  if (cost !== "default" && cost !== "quick")
    throw new EnvironmentError(
      `EMBEDDED_PASSWORD_HASH_COST must be quick or default, not "${env.EMBEDDED_PASSWORD_HASH_COST}".`,
    );
  return cost;
}

const DEFAULT_PORT = 54321;

/** The server's options the environment sets (the table above). */
export function optionsFromEnvironment(env: Environment = process.env): EmbeddedServerOptions {
  const port = Number(env.EMBEDDED_PORT ?? DEFAULT_PORT);
  return {
    dataDir: path.resolve(env.EMBEDDED_DATA_DIR ?? ".data/embedded"),
    port: Number.isInteger(port) && port >= 0 ? port : DEFAULT_PORT,
    host: env.EMBEDDED_HOST ?? "127.0.0.1",
    schema: {
      migrationsDir: env.EMBEDDED_MIGRATIONS_DIR ? path.resolve(env.EMBEDDED_MIGRATIONS_DIR) : undefined,
      seedFile: env.EMBEDDED_SEED_FILE ? path.resolve(env.EMBEDDED_SEED_FILE) : undefined,
    },
    siteUrl: env.SITE_URL ? new URL(env.SITE_URL).origin : undefined,
    appName: env.EMBEDDED_APP_NAME || undefined,
    mailConfirmation: env.EMBEDDED_MAIL_CONFIRMATION === "1",
    rateLimits: env.EMBEDDED_RATE_LIMITS === "off" ? NO_RATE_LIMITS : undefined,
    captcha: captchaFromEnvironment(env),
    passwordHashCost: passwordHashCostFromEnvironment(env),
    redirectAllowList: (env.EMBEDDED_REDIRECT_URLS ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
    log: env.EMBEDDED_LOG === "1" ? (line) => process.stderr.write(`[embedded] ${line}\n`) : undefined,
  };
}

/** Whether a process with this pid is running (EPERM: running, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite's data directory must have one process only: two would corrupt it. A
 * pid file refuses a second server; a stale one (after kill -9) is taken over.
 */
async function takeLock(dataDir: string, lockFile: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const holder = Number((await readFile(lockFile, "utf8").catch(() => "")).trim());
  if (holder && holder !== process.pid && alive(holder)) {
    console.error(`Another embedded backend (pid ${holder}) is using ${dataDir}. Stop it first.`);
    process.exit(1);
  }
  await writeFile(lockFile, String(process.pid));
}

/**
 * Serves until SIGTERM or SIGINT: the environment's options, then `app`'s (an app's launcher: its schema, its
 * routes, its data directory). Always on a data directory (default .data/embedded), which the lock keeps to one process.
 */
export async function runEmbeddedProcess(app: EmbeddedServerOptions = {}): Promise<void> {
  let fromEnvironment: EmbeddedServerOptions;
  try {
    fromEnvironment = optionsFromEnvironment();
  } catch (e) {
    if (!(e instanceof EnvironmentError)) throw e;
    console.error(e.message); // says what to set; a stack trace would only bury it
    process.exit(1);
  }
  const options = { ...fromEnvironment, ...app };
  const dataDir = path.resolve(options.dataDir ?? ".data/embedded");
  const lockFile = path.join(dataDir, "embedded.pid");
  await takeLock(dataDir, lockFile);
  let server: EmbeddedServer;
  try {
    server = await startEmbeddedServer({ ...options, dataDir });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    console.error(
      err.code === "EADDRINUSE"
        ? `Port ${options.port} is in use. Is the embedded backend (or \`supabase start\`) already running? Set EMBEDDED_PORT to use another.`
        : e instanceof StaleMigrationsError
          ? err.message // says what to do; a stack trace would only bury it
          : `The embedded backend could not start: ${err.stack ?? err.message}`,
    );
    await rm(lockFile, { force: true });
    process.exit(1);
  }
  process.stdout.write(`Embedded Supabase ready at ${server.url}\n`);

  let stoppingSince = 0;
  const stop = async (signal: string) => {
    if (stoppingSince) {
      // Ctrl-C reaches the whole process group and the launcher forwards a SIGTERM too:
      // signals within a moment of the first are the same request. A later one means "now".
      if (Date.now() - stoppingSince < 2_000) return;
      process.stderr.write(`[embedded] ${signal} again: exiting without a clean close\n`);
      process.exit(1);
    }
    stoppingSince = Date.now();
    // Closing PGlite flushes and shuts Postgres down cleanly; the next start needs no recovery.
    await server.close();
    await rm(lockFile, { force: true });
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
