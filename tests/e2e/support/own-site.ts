import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { e2eBackendEnv } from "../../../scripts/e2e-ports.mjs";
import { freePort } from "./ports";

const root = path.resolve(import.meta.dirname, "../../..");

export interface OwnSite {
  /** The site's origin, on loopback. */
  url: string;
  appPort: number;
  backendPort: number;
  /** The file the site's output goes to. */
  logPath: string;
  /** Stops the site and its backend, and resolves once they have exited. */
  stop(): Promise<void>;
}

/**
 * How much longer a test or hook may run while a server of its own starts. A ceiling for a machine under load, never
 * an expectation: the wait ends as soon as the server answers (seconds on a quiet machine), or fails as soon as it exits.
 */
const START_CEILING = 600_000;

/**
 * Waits until `url` answers 200, however long the start takes on this machine: the running test or hook gets
 * START_CEILING more time, and fails at once, with the server's log, if `child` exits first.
 */
export async function untilServing(url: string, child: ChildProcess, name: string, logPath: string): Promise<void> {
  test.info().setTimeout(test.info().timeout + START_CEILING);
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${readFileSync(logPath, "utf8")}`);
        return (await fetch(url).catch(() => null))?.status;
      },
      { timeout: 0, intervals: [250] },
    )
    .toBe(200);
}

/** Stops a server started in its own process group, and resolves once its launcher has exited. */
export async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGTERM");
  await exited;
}

/**
 * A second site on the e2e build (`npm start`: the site and its own embedded backend with fresh data), for a spec
 * whose settings the shared e2e server cannot have: a newcomer's rate limits, a log file to read, no proxy named.
 * `env` adds to or blanks (with "") what the spec needs. Answers once `/login` does (untilServing).
 */
export async function startOwnSite(name: string, env: Record<string, string>): Promise<OwnSite> {
  const appPort = await freePort();
  const backendPort = await freePort();
  const url = `http://127.0.0.1:${appPort}`;
  const dataDir = path.join(root, ".data", `e2e-${name}`);
  rmSync(dataDir, { recursive: true, force: true });
  const logPath = path.join(root, "test-results", `${name}-site.log`);
  mkdirSync(path.dirname(logPath), { recursive: true });
  const log = openSync(logPath, "w");
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "run.mjs"), "start"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", log, log],
    env: {
      ...process.env,
      PORT: String(appPort),
      EMBEDDED_PORT: String(backendPort),
      LABCASH_DATA_DIR: dataDir,
      SITE_URL: url,
      NEXT_TELEMETRY_DISABLED: "1",
      ...e2eBackendEnv,
      ...env,
    },
  });
  await untilServing(`${url}/login`, child, `${name}'s site`, logPath);
  return {
    url,
    appPort,
    backendPort,
    logPath,
    stop: () => stopServer(child),
  };
}
