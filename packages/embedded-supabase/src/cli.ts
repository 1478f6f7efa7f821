// `npm run embedded`: the embedded Supabase backend as a process.
//
//   EMBEDDED_PORT               default 54321; 0 picks a free port (the ready line says which)
//   EMBEDDED_HOST               default 127.0.0.1; loopback only (the keys are published)
//   LABCASH_DATA_DIR            default .data/embedded (PGlite files and the JWT key pair)
//   EMBEDDED_MAIL_CONFIRMATION  1 = new accounts must confirm their e-mail first
//   EMBEDDED_LOG                1 = one line per request on stderr
//   SITE_URL                    base of links in auth mail, default http://localhost:3000; also the
//                               only origin that may call from a browser (CORS) and where links may lead
//   EMBEDDED_RATE_LIMITS        off = no rate limits (the e2e server signs hundreds of users in from
//                               one address); otherwise GoTrue's defaults (rate-limit.ts)
//   EMBEDDED_REDIRECT_URLS      further redirect_to URLs links may lead to, comma-separated, `*` globs
//                               (GoTrue's uri_allow_list)
//   EMBEDDED_TEST_FIXTURES      1 = the end-to-end suite's fixtures (server.ts: moving a competition's
//                               clock), with the secret key; off unless set (only scripts/e2e-server.mjs does)
//
// Prints exactly one line on stdout, `Embedded Supabase ready at <url>`, once
// listening; the dev launcher and the tests wait for it. Everything else goes to stderr.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { NO_RATE_LIMITS } from "./rate-limit";
import { startEmbeddedServer, type EmbeddedServer } from "./server";
import { StaleMigrationsError } from "./db";

const dataDir = path.resolve(process.env.LABCASH_DATA_DIR ?? ".data/embedded");
const lockFile = path.join(dataDir, "embedded.pid");

function alive(pid: number): boolean {
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
async function takeLock(): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const holder = Number((await readFile(lockFile, "utf8").catch(() => "")).trim());
  if (holder && holder !== process.pid && alive(holder)) {
    console.error(`Another embedded backend (pid ${holder}) is using ${dataDir}. Stop it first.`);
    process.exit(1);
  }
  await writeFile(lockFile, String(process.pid));
}

async function main(): Promise<void> {
  await takeLock();
  const logLine = (line: string) => process.stderr.write(`[embedded] ${line}\n`);
  const port = Number(process.env.EMBEDDED_PORT ?? "54321");
  let server: EmbeddedServer;
  try {
    server = await startEmbeddedServer({
      dataDir,
      port: Number.isInteger(port) && port >= 0 ? port : 54321,
      host: process.env.EMBEDDED_HOST ?? "127.0.0.1",
      mailConfirmation: process.env.EMBEDDED_MAIL_CONFIRMATION === "1",
      rateLimits: process.env.EMBEDDED_RATE_LIMITS === "off" ? NO_RATE_LIMITS : undefined,
      redirectAllowList: (process.env.EMBEDDED_REDIRECT_URLS ?? "")
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
      log: process.env.EMBEDDED_LOG === "1" ? logLine : undefined,
      testFixtures: process.env.EMBEDDED_TEST_FIXTURES === "1",
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    console.error(
      err.code === "EADDRINUSE"
        ? `Port ${port} is in use. Is the embedded backend (or \`supabase start\`) already running? Set EMBEDDED_PORT to use another.`
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

void main();
