import { spawn } from "node:child_process";
import { mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { freePort } from "./ports";

const root = path.resolve(import.meta.dirname, "../../..");

export interface OwnSite {
  /** The site's origin, on loopback. */
  url: string;
  appPort: number;
  backendPort: number;
  /** The file the site's output goes to. */
  logPath: string;
  stop(): void;
}

/**
 * A second site on the e2e build (`npm start`: the site and its own embedded backend with fresh data), for a spec
 * whose settings the shared e2e server cannot have: a newcomer's rate limits, a log file to read, no proxy named.
 * `env` adds to or blanks (with "") what the spec needs. Answers once `/login` does; a server that exits first fails
 * at once, with its log, rather than at the time-out.
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
      ...env,
    },
  });
  let exited: number | null = null;
  child.once("exit", (code) => (exited = code ?? -1));
  await expect
    .poll(
      async () => {
        if (exited !== null) throw new Error(`${name}'s site exited (${exited}):\n${readFileSync(logPath, "utf8")}`);
        return (await fetch(`${url}/login`).catch(() => null))?.status;
      },
      { timeout: 150_000, intervals: [500] },
    )
    .toBe(200);
  return {
    url,
    appPort,
    backendPort,
    logPath,
    stop: () => {
      if (child.pid && exited === null) process.kill(-child.pid, "SIGTERM");
    },
  };
}
