// The CLI (`npm run embedded`) as a real process on a real data directory, for the tests that kill it.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const started: ChildProcess[] = [];

/** Starts `scripts/embedded.ts` (`npm run embedded`) on `dataDir`, on a free port. */
export function launchEmbedded(dataDir: string): ChildProcess {
  // node --import tsx (not the tsx wrapper) so the pid we signal is the server itself.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/embedded.ts"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: {
      ...process.env,
      LABCASH_DATA_DIR: dataDir,
      EMBEDDED_PORT: "0",
      EMBEDDED_LOG: "",
      EMBEDDED_RATE_LIMITS: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  return child;
}

/** The URL the process prints once it serves. */
export function embeddedReady(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(/^Embedded Supabase ready at (http:\/\/\S+)$/m);
      if (match) resolve(match[1]);
    });
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`embedded backend exited (${code}) before ready:\n${out}\n${err}`)));
  });
}

/** Resolves when the process has exited, with its code and what it wrote to stderr from now on. */
export function embeddedExited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, stderr });
    else child.once("exit", (code) => resolve({ code, stderr }));
  });
}

/** Kills every process this file started that is still running (for afterAll). */
export function killLeftovers(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
