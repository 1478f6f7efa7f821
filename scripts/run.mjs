#!/usr/bin/env node
// `npm run dev` / `npm start`: the site plus, unless NEXT_PUBLIC_SUPABASE_URL is set,
// the embedded Supabase backend (PGlite) with demo data. Ctrl-C stops both.
//
// Environment: PORT (app, default 3000), EMBEDDED_PORT (default 54321),
// LABCASH_DATA_DIR (default .data/embedded), and the app's variables (.env.example), which are
// checked before anything starts.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { createServer, request as httpRequest } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { requireNode22 } from "./require-node.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const mode = process.argv[2] === "start" ? "start" : "dev";

requireNode22(`npm run ${mode}`);

// Next reads .env.local and friends itself, but only in its own process: load them here too, the
// same way, so the checks below and the choice of backend see what Next will see.
const { loadEnvConfig } = await import("@next/env");
const { EMBEDDED_CRON_SECRET, EnvError, parseEnv } = await import("../lib/env.ts");
loadEnvConfig(root, mode === "dev", { info() {}, error: console.error });
// Who writes the address per-visitor limits count (lib/env.ts requires a production server to know). With no
// proxy's header named, this launcher is the proxy: see serveProduction.
const connectionAddress = mode === "start" && !process.env.CLIENT_ADDRESS_HEADER?.trim() && process.env.VERCEL !== "1";
if (connectionAddress)
  Object.assign(process.env, { CLIENT_ADDRESS_HEADER: "x-forwarded-for", CLIENT_ADDRESS_HOPS: "1" });
try {
  parseEnv(process.env);
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  console.error(`[labcash] ${error.message}`);
  process.exit(1);
}
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const appPort = process.env.PORT ?? "3000";
const children = new Set();
let stopping = false;

function run(name, command, args, env, { onLine } = {}) {
  // Children share this process group, so a group kill (Playwright, a terminal's Ctrl-C)
  // reaches them even if this launcher dies first; they also get our own SIGTERM, and the
  // embedded backend treats that near-simultaneous second signal as the same request.
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["inherit", "pipe", "inherit"],
  });
  children.add(child);
  let buffer = "";
  child.stdout.on("data", (chunk) => {
    process.stdout.write(chunk);
    if (!onLine) return;
    buffer += chunk.toString();
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      onLine(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
    }
  });
  child.on("exit", (code, signal) => {
    children.delete(child);
    if (!stopping) {
      console.error(`[labcash] ${name} exited (${signal ?? code}); stopping.`);
      stop(code ?? 1);
    }
  });
  return child;
}

function stop(code = 0) {
  if (stopping) return; // already stopping; the timer below forces it if a child hangs
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  const force = setTimeout(() => {
    for (const child of children) child.kill("SIGKILL");
  }, 10_000);
  force.unref();
  const wait = setInterval(() => {
    if (children.size === 0) {
      clearInterval(wait);
      process.exit(code);
    }
  }, 50);
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL"); // never leave orphans behind
});

async function startEmbedded() {
  const port = process.env.EMBEDDED_PORT ?? "54321";
  const { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY } = await import("@labcash/embedded-supabase/keys");
  return new Promise((resolve) => {
    run(
      "embedded backend",
      process.execPath,
      ["--import", "tsx", path.join("scripts", "embedded.ts")],
      { EMBEDDED_PORT: port, SITE_URL: process.env.SITE_URL ?? `http://localhost:${appPort}` },
      {
        onLine(line) {
          const match = /Embedded Supabase ready at (\S+)/.exec(line);
          if (match)
            resolve({
              url: match[1],
              publishableKey: EMBEDDED_PUBLISHABLE_KEY,
              secretKey: EMBEDDED_SECRET_KEY,
              cronSecret: EMBEDDED_CRON_SECRET,
            });
        },
      },
    );
  });
}

async function main() {
  const env = { PORT: appPort };
  const embedded = !process.env.NEXT_PUBLIC_SUPABASE_URL && !process.env.SUPABASE_URL;
  if (embedded) {
    const backend = await startEmbedded();
    Object.assign(env, {
      SUPABASE_URL: backend.url,
      NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: backend.publishableKey,
      SUPABASE_SECRET_KEY: backend.secretKey,
      LABCASH_EMBEDDED: "1",
      CRON_SECRET: process.env.CRON_SECRET ?? backend.cronSecret,
    });
  }
  if (mode === "start" && !existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.log("[labcash] No production build yet: running next build first.");
    await new Promise((resolve, reject) => {
      const build = spawn(process.execPath, [nextBin, "build"], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: "inherit",
      });
      children.add(build);
      build.on("exit", (code) => {
        children.delete(build);
        if (code === 0) resolve();
        else reject(new Error(`next build failed (${code})`));
      });
    });
  }
  if (mode === "start") await serveProduction(env);
  else run("next dev", process.execPath, [nextBin, "dev", "--port", appPort], env);
  if (embedded) scheduleCron(env.CRON_SECRET);
}

/**
 * The production build, served in this process through Next's custom-server API (no extra hop). Per-visitor limits
 * count the address in CLIENT_ADDRESS_HEADER. When the operator names one, a proxy of theirs writes it and requests
 * pass as they come. When not, nothing in front of this server can be trusted to have written any header (`next start`
 * fills X-Forwarded-For only when the request has none, so a client could pick its own visitor key on every
 * request): this server is the proxy, and X-Forwarded-For is the connection's own address, whatever was sent.
 */
async function serveProduction(env) {
  Object.assign(process.env, env, { NODE_ENV: "production" });
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: root, hostname: "localhost", port: Number(appPort) });
  const handle = app.getRequestHandler();
  await app.prepare();
  await listBuildFiles();
  const server = createServer((req, res) => {
    if (connectionAddress) {
      const address = req.socket.remoteAddress;
      if (address) req.headers["x-forwarded-for"] = address;
      else delete req.headers["x-forwarded-for"];
    }
    if (!replayImmutableAsset(req, res)) void handle(req, res);
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(Number(appPort), () => resolve()));
  console.log(`[labcash] Serving the production build at http://localhost:${appPort}`);
}

/**
 * The build's content-hashed files under /_next/static/ never change, yet Next reads and compresses each one again on
 * every request (on Vercel a CDN serves them). Each answer Next gives once, exactly as it gave it (every header, the
 * compressed bytes), is kept in memory and replayed for the same path and Accept-Encoding. Only plain GETs and HEADs of
 * an `immutable` 200 are kept; a conditional or ranged request, or anything else, goes to Next as before. What is kept
 * is bounded whatever visitors send: only the build's own files, by their exact paths (no query string), and a few
 * Accept-Encoding values (browsers send one or two).
 */
const immutableAssets = new Map();
let buildFiles = new Set();
const acceptEncodings = new Set();
const MOST_ACCEPT_ENCODINGS = 8;
async function listBuildFiles() {
  const dir = path.join(root, ".next", "static");
  const files = await readdir(dir, { recursive: true, withFileTypes: true });
  buildFiles = new Set(
    files
      .filter((entry) => entry.isFile())
      .map(
        (entry) =>
          `/_next/static/${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")}`,
      ),
  );
}
function replayImmutableAsset(req, res) {
  if ((req.method !== "GET" && req.method !== "HEAD") || !buildFiles.has(req.url)) return false;
  if (req.headers.range || req.headers["if-none-match"] || req.headers["if-modified-since"]) return false;
  const acceptEncoding = req.headers["accept-encoding"] ?? "";
  if (!acceptEncodings.has(acceptEncoding)) {
    if (acceptEncodings.size >= MOST_ACCEPT_ENCODINGS) return false;
    acceptEncodings.add(acceptEncoding);
  }
  const key = `${req.url}\n${acceptEncoding}`;
  const kept = immutableAssets.get(key);
  if (!kept) {
    if (!immutableAssets.has(key)) {
      immutableAssets.set(key, null); // one copy is fetched per key, however many requests arrive meanwhile
      keepImmutableAsset(req.url, acceptEncoding, key);
    }
    return false;
  }
  res.writeHead(200, kept.headers);
  res.end(req.method === "HEAD" ? undefined : kept.body);
  return true;
}
/** Asks this server for the asset as the visitor did, and keeps the answer if it is an immutable 200. */
function keepImmutableAsset(url, acceptEncoding, key) {
  const forget = () => immutableAssets.delete(key);
  const fetchOnce = httpRequest(
    {
      host: "127.0.0.1",
      port: Number(appPort),
      path: url,
      headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {},
    },
    (answer) => {
      const chunks = [];
      answer.on("data", (chunk) => chunks.push(chunk));
      answer.on("error", forget);
      answer.on("end", () => {
        const headers = { ...answer.headers };
        if (answer.statusCode !== 200 || !/\bimmutable\b/.test(headers["cache-control"] ?? "")) return forget();
        // Per-answer headers are the server's own to write again: the date, and how this body was framed.
        for (const name of ["date", "connection", "keep-alive", "transfer-encoding"]) delete headers[name];
        const body = Buffer.concat(chunks);
        immutableAssets.set(key, { headers: { ...headers, "content-length": body.length }, body });
      });
    },
  );
  fetchOnce.on("error", forget);
  fetchOnce.end();
}

// Vercel Cron calls /api/cron/draws in production; locally this loop does, every minute.
function scheduleCron(secret) {
  const tick = async () => {
    try {
      await fetch(`http://127.0.0.1:${appPort}/api/cron/draws`, { headers: { Authorization: `Bearer ${secret}` } });
    } catch {
      // The app may still be starting; the next tick tries again.
    }
  };
  setTimeout(tick, 15_000).unref(); // soon after start, so overdue draws are not left waiting
  setInterval(tick, 60_000).unref();
}

main().catch((error) => {
  console.error(`[labcash] ${error.message}`);
  stop(1);
});
