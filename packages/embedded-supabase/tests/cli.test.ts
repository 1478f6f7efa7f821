// `src/main.ts` as a process, configured by the environment alone: the ready line, the schema from
// EMBEDDED_MIGRATIONS_DIR and EMBEDDED_SEED_FILE, one process per data directory, a clean stop on SIGTERM.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { EMBEDDED_PUBLISHABLE_KEY } from "../src/keys";
import { schema } from "./support";

const packageDir = path.resolve(import.meta.dirname, "..");
const started: ChildProcess[] = [];
let dataDir = "";

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function launch(dir: string): { child: ChildProcess; stdout: () => string; stderr: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: packageDir,
    env: {
      ...process.env,
      EMBEDDED_DATA_DIR: dir,
      EMBEDDED_PORT: "0",
      EMBEDDED_MIGRATIONS_DIR: schema.migrationsDir,
      EMBEDDED_SEED_FILE: schema.seedFile,
      EMBEDDED_LOG: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return { child, stdout: () => out, stderr: () => err };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

function ready(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(/^Embedded Supabase ready at (http:\/\/\S+)$/m);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`exited (${code}) before ready`)));
  });
}

it("serves the schema the environment names, refuses a second process on its data, and stops cleanly", async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "embedded-supabase-cli-"));
  const first = launch(dataDir);
  const url = await ready(first.child);
  expect(first.stdout()).toBe(`Embedded Supabase ready at ${url}\n`);
  const motd = await fetch(`${url}/rest/v1/rpc/motd`, {
    method: "POST",
    headers: { apikey: EMBEDDED_PUBLISHABLE_KEY },
  });
  expect(await motd.json()).toBe("hello from the seed");

  const second = launch(dataDir);
  expect(await exited(second.child)).toBe(1);
  expect(second.stderr()).toContain(`Another embedded backend (pid ${first.child.pid}) is using ${dataDir}`);

  first.child.kill("SIGTERM");
  expect(await exited(first.child)).toBe(0);
  expect(existsSync(path.join(dataDir, "embedded.pid"))).toBe(false);
}, 120_000);
