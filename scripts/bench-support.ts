// What the benches share: the site's life cycle for those that measure it (bench:http, bench:verify, bench:launch): the
// production build in .next (made first unless BENCH_SKIP_BUILD=1 and one exists), then `npm start` (the site and its
// embedded backend, scripts/run.mjs) on a data directory of their own, in its own process group so it stops whole;
// and how their latencies are summarised.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** `next build`, unless BENCH_SKIP_BUILD=1 and a build is there. */
export function buildSite(): void {
  if (process.env.BENCH_SKIP_BUILD === "1" && existsSync(path.join(root, ".next", "BUILD_ID"))) return;
  execFileSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

/** `npm start` on `port`, its embedded backend on `backendPort` over `dataDir`, plus `env`; output discarded. */
export function startSite(options: {
  port: number;
  backendPort: number;
  dataDir: string;
  env?: Record<string, string>;
}): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "run.mjs"), "start"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(options.port),
      EMBEDDED_PORT: String(options.backendPort),
      LABCASH_DATA_DIR: options.dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      ...options.env,
    },
    detached: true,
  });
  return child;
}

/** Stops the site's whole process group and waits for the launcher to exit (its backend closes the database first). */
export async function stopSite(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return; // already gone
  }
  await exited;
}

/** Waits up to two minutes for `url` to answer 200. */
export async function waitForSite(url: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the site did not answer on ${url}`);
}

/** Ends the bench after `ms` whatever happens, killing the site's process group first if one is running. */
export function stopAfter(ms: number, bench: string, site: () => ChildProcess | undefined): NodeJS.Timeout {
  const guard = setTimeout(() => {
    console.error(`${bench}: stopped after ${ms / 1000} s`);
    const pid = site()?.pid;
    if (pid) process.kill(-pid, "SIGKILL");
    process.exit(1);
  }, ms);
  guard.unref();
  return guard;
}

/** The p-th percentile (nearest rank) of ascending `sorted`; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
