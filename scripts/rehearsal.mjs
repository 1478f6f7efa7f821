#!/usr/bin/env node
// The go-live dress rehearsal (`npm test` runs it on the production build it has already made; alone:
// `node --import tsx scripts/rehearsal.mjs` after `next build`). An operator's first afternoon, with the embedded backend in
// the place of a hosted project:
//   1. The embedded backend started as a new hosted project is: the migrations and config.toml's auth settings,
//      no demo data (its rate limits off: the pass does in seconds what a person does in minutes).
//   2. The production build started as a deployment is (`npm start` with the project's URL and keys from the
//      environment, so it runs as production: SITE_URL, CRON_SECRET, PAYMENTS=test and mail required), with a
//      scheduler calling /api/cron/draws with the cron secret every minute, as Vercel Cron does.
//   3. The README's go-live steps, read between its `<!-- go-live:start -->` and `<!-- go-live:end -->` markers,
//      each command of their fenced blocks run as written: `npm run …` as it is (setup:admin, check:production…);
//      the Supabase CLI's `link`, `db push` and `config push`, which talk to a hosted project, by what the embedded
//      backend did as it started (check:production then proves it). Any other command fails the rehearsal: a step
//      the rehearsal cannot run is a step an operator may not be able to run either.
//   4. One end-to-end pass (tests/rehearsal/go-live.spec.ts): the invited admin sets a password and two-step,
//      creates and publishes a competition with an image; a player signs up, is approved, tops up and buys; the
//      draw runs from the cron route with the cron secret.
// Prints `rehearsal: passed` or what failed, and exits 0 or 1. Logs: test-results/rehearsal-*.log.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { requireNode22 } from "./require-node.mjs";

requireNode22("node --import tsx scripts/rehearsal.mjs");
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = path.join(root, "test-results");
mkdirSync(resultsDir, { recursive: true });
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const say = (line) => console.log(`[rehearsal ${seconds()}] ${line}`);

/** The operator whose address the README's `setup:admin` step invites (its placeholder e-mail becomes this). */
const ADMIN_EMAIL = "go-live-operator@labcash.test";

/** A port nothing uses now. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The operator's mail server: takes every message and keeps none (SMTP as far as nodemailer needs it), so the
 * site sends its own mail through SMTP_URL as a deployment does.
 */
async function startMailSink() {
  const server = createServer((socket) => {
    let data = false;
    let buffer = "";
    socket.write("220 rehearsal ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      let end;
      while ((end = data ? buffer.indexOf("\r\n.\r\n") : buffer.indexOf("\r\n")) >= 0) {
        if (data) {
          buffer = buffer.slice(end + 5);
          data = false;
          socket.write("250 kept\r\n");
          continue;
        }
        const command = buffer.slice(0, end).toUpperCase();
        buffer = buffer.slice(end + 2);
        if (command.startsWith("EHLO")) socket.write("250-rehearsal\r\n250 8BITMIME\r\n");
        else if (command.startsWith("DATA")) {
          data = true;
          socket.write("354 go on\r\n");
        } else if (command.startsWith("QUIT")) socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: server.address().port, close: () => server.close() };
}

const children = [];
process.on("exit", () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, "SIGKILL");
});

/** A long-running process in its own group, its output in test-results/rehearsal-<name>.log. */
function startProcess(name, args, env) {
  const logPath = path.join(resultsDir, `rehearsal-${name}.log`);
  const child = spawn(process.execPath, args, {
    cwd: root,
    detached: true,
    stdio: ["ignore", openSync(logPath, "w"), openSync(logPath, "a")],
    env: { ...process.env, ...env },
  });
  children.push(child);
  return { child, logPath };
}

/** Runs a command to its end without blocking this process (the cron keeps its minute), its output in a log. */
function runLogged(name, command, args, env) {
  const logPath = path.join(resultsDir, `rehearsal-${name}.log`);
  const child = spawn(command, args, {
    cwd: root,
    stdio: ["ignore", openSync(logPath, "w"), openSync(logPath, "a")],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ status: code ?? signal, logPath })));
}

async function waitFor(what, test, { child, logPath }, timeoutMs = 180_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}):\n${readFileSync(logPath, "utf8")}`);
    if (await test().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} was not ready after ${timeoutMs / 1000} s:\n${readFileSync(logPath, "utf8")}`);
}

/** The README's go-live steps: every command line of the fenced blocks between the markers, in order. */
function goLiveCommands(readme) {
  const section = /<!-- go-live:start -->([\s\S]*?)<!-- go-live:end -->/.exec(readme)?.[1];
  if (section === undefined) throw new Error("README.md has no <!-- go-live:start --> … <!-- go-live:end --> section");
  const commands = [];
  for (const [, body] of section.matchAll(/^[ \t]*```(?:sh|bash|shell|console)?[ \t]*\n([\s\S]*?)^[ \t]*```/gm))
    for (const line of body.split("\n")) {
      const command = line.trim().replace(/^\$\s*/, "");
      if (command && !command.startsWith("#")) commands.push(command);
    }
  if (commands.length === 0) throw new Error("README.md's go-live section has no fenced commands");
  return commands;
}

/** Splits a command line into words as a shell would for these simple commands (quotes, no expansion). */
function words(command) {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/**
 * What the embedded backend already did for a Supabase CLI command aimed at a hosted project, or null for one the
 * rehearsal does not know (which fails it).
 */
function supabaseEquivalent(args) {
  const [first, second] = args.filter((a) => !a.startsWith("-"));
  if (first === "login" || first === "link") return "the embedded backend is the project; nothing to link";
  if (first === "db" && second === "push") return "the embedded backend applied every migration as it started";
  if (first === "config" && second === "push")
    return "the embedded backend took supabase/config.toml's [auth] as it started";
  return null;
}

/**
 * The embedded backend's behaviour for each auth setting the README sets through Supabase's Management API
 * (`curl -X PATCH https://api.supabase.com/v1/projects/<ref>/config/auth -d '{…}'`): what it does already.
 */
const MANAGEMENT_API_AUTH_SETTINGS = {
  security_sb_forwarded_for_enabled: [
    true,
    "the embedded backend counts the visitor's address the site sends as Sb-Forwarded-For with the secret key",
  ],
};

/** What the embedded backend already does for a Management API call, or null for one the rehearsal does not know. */
function managementApiEquivalent(args) {
  const url = args.find((a) => /^https:\/\/api\.supabase\.com\//.test(a));
  const body = args[args.findIndex((a) => a === "-d" || a === "--data") + 1];
  if (!url || !/\/v1\/projects\/[^/]+\/config\/auth$/.test(url) || !body) return null;
  let settings;
  try {
    settings = JSON.parse(body);
  } catch {
    return null;
  }
  const said = [];
  for (const [key, value] of Object.entries(settings)) {
    const known = MANAGEMENT_API_AUTH_SETTINGS[key];
    if (!known || known[0] !== value) return null;
    said.push(known[1]);
  }
  return said.join("; ") || null;
}

function runStep(command, env) {
  // Placeholders an operator replaces: their own address.
  const [program, ...args] = words(command.replace(/\byou@example\.com\b|<[^>\s]*e-?mail[^>\s]*>/gi, ADMIN_EMAIL));
  const cli =
    program === "npx" && /^supabase(@|$)/.test(args[0] ?? "") ? args.slice(1) : program === "supabase" ? args : null;
  if (cli) {
    const equivalent = supabaseEquivalent(cli);
    if (!equivalent)
      throw new Error(
        `the rehearsal cannot run the go-live step \`${command}\`: teach scripts/rehearsal.mjs its embedded equivalent`,
      );
    say(`$ ${command}\n    (${equivalent})`);
    return;
  }
  if (program === "curl") {
    const equivalent = managementApiEquivalent(args);
    if (!equivalent)
      throw new Error(
        `the rehearsal cannot run the go-live step \`${command}\`: teach scripts/rehearsal.mjs its embedded equivalent`,
      );
    say(`$ ${command}\n    (${equivalent})`);
    return;
  }
  if (program !== "npm")
    throw new Error(
      `the rehearsal cannot run the go-live step \`${command}\`: only npm scripts, the Supabase CLI and the Management API's auth settings are known`,
    );
  say(`$ ${command}`);
  const run = spawnSync("npm", args, { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
  process.stdout.write(run.stdout.replace(/^/gm, "    "));
  if (run.status !== 0) throw new Error(`the go-live step \`${command}\` failed (exit ${run.status}):\n${run.stderr}`);
}

async function rehearse() {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no production build: run `next build` first");
  const [sitePort, backendPort] = [await freePort(), await freePort()];
  const siteUrl = `http://127.0.0.1:${sitePort}`;
  const backendUrl = `http://127.0.0.1:${backendPort}`;
  const dataDir = path.join(root, ".data", "rehearsal");
  rmSync(dataDir, { recursive: true, force: true });
  const mail = await startMailSink();
  const { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY } = await import("@labcash/embedded-supabase/keys");

  // 1. The project.
  const backend = startProcess("backend", ["--import", "tsx", path.join("scripts", "embedded.ts")], {
    EMBEDDED_PORT: String(backendPort),
    LABCASH_DATA_DIR: dataDir,
    SITE_URL: siteUrl,
    EMBEDDED_DEMO_DATA: "0",
    // No auth rate limits: the operator asks for their two-step e-mail code seconds after the invitation, where a
    // person takes minutes (GoTrue sends one address one e-mail a minute); the limits have their own contract tests.
    EMBEDDED_RATE_LIMITS: "off",
    // The spec moves its competition's draw time to now rather than wait for it.
    EMBEDDED_TEST_FIXTURES: "1",
  });
  await waitFor("the embedded backend", async () => (await fetch(`${backendUrl}/auth/v1/health`)).ok, backend);
  say(`the project (embedded, no demo data) is up at ${backendUrl}`);

  // 2. The deployment: what an operator puts in Vercel's environment variables.
  const env = {
    NEXT_PUBLIC_SUPABASE_URL: backendUrl,
    NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: EMBEDDED_PUBLISHABLE_KEY,
    SUPABASE_SECRET_KEY: EMBEDDED_SECRET_KEY,
    SITE_URL: siteUrl,
    CRON_SECRET: randomBytes(24).toString("hex"),
    PAYMENTS: "test",
    SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
    MAIL_FROM: "LabCash <no-reply@labcash.test>",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const site = startProcess("site", ["--import", "tsx", path.join("scripts", "run.mjs"), "start"], {
    ...env,
    PORT: String(sitePort),
  });
  await waitFor("the site", async () => (await fetch(`${siteUrl}/login`)).status === 200, site);
  say(`the production build is served at ${siteUrl}`);
  // Vercel Cron: every minute, with the secret.
  const cron = async () => {
    await fetch(`${siteUrl}/api/cron/draws`, { headers: { authorization: `Bearer ${env.CRON_SECRET}` } }).catch(
      () => {},
    );
  };
  await cron();
  const cronTimer = setInterval(cron, 60_000);

  try {
    // 3. The README's steps, as written.
    for (const command of goLiveCommands(readFileSync(path.join(root, "README.md"), "utf8"))) runStep(command, env);

    // 4. One pass through the site.
    say("the end-to-end pass");
    const playwright = await runLogged(
      "e2e",
      path.join(root, "node_modules", ".bin", "playwright"),
      ["test", "--config", path.join("tests", "rehearsal", "playwright.config.ts")],
      {
        E2E_PORT: String(sitePort),
        E2E_BACKEND_PORT: String(backendPort),
        REHEARSAL_ADMIN_EMAIL: ADMIN_EMAIL,
        REHEARSAL_CRON_SECRET: env.CRON_SECRET,
      },
    );
    if (playwright.status !== 0)
      throw new Error(
        `the end-to-end pass failed (exit ${playwright.status}):\n${readFileSync(playwright.logPath, "utf8")}`,
      );
  } finally {
    clearInterval(cronTimer);
    for (const { child } of [site, backend]) if (child.exitCode === null) process.kill(-child.pid, "SIGTERM");
    mail.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await rehearse();
    say("rehearsal: passed");
    process.exit(0);
  } catch (error) {
    console.error(`[rehearsal ${seconds()}] rehearsal: failed: ${error.message}`);
    process.exit(1);
  }
}
