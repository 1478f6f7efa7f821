import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { EMBEDDED_CRON_SECRET } from "../../lib/env";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { SignInPage } from "./support/pages/sign-in";
import { TwoStepPage } from "./support/pages/two-step";
import { stopServer, untilServing } from "./support/own-site";
import { freePort } from "./support/ports";
import { demoUsers } from "./support/users";

// Operators see that the site is healthy, and are told at once when it is not. This file runs its own
// site on the e2e build, as the visitor-limits spec does, with nothing calling the scheduled job (the shared
// server's launcher calls it every minute, and other tests draw whatever is due), so a draw can stay overdue;
// its backend is a process of its own, so the database can be stopped and started again; and the site's own log
// is a file the test reads. Its Sentry DSN and OTLP endpoint point at a stand-in collector in this process, so the
// tests see what the site would send to Sentry and to a trace collector.

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = path.join(root, ".data", "e2e-operations");
const siteLogPath = path.join(root, "test-results", "operations-site.log");
const backendLogPath = path.join(root, "test-results", "operations-backend.log");
let backend: ChildProcess | undefined;
let site: ChildProcess | undefined;
let backendPort = 0;
let siteUrl = "";
let collector: Server | undefined;

/** What the stand-in collector was sent: Sentry's envelopes and OTLP's traces. */
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];

async function startCollector(): Promise<number> {
  const port = await freePort();
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const body = (req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector!.listen(port, "127.0.0.1", resolve));
  return port;
}

/** The events Sentry's envelopes carried (an envelope is lines of JSON: its header, then item header and payload). */
function sentryEvents(): { envelope: string; event: Record<string, unknown> }[] {
  return received
    .filter((r) => r.path.startsWith("/api/1/envelope/"))
    .flatMap(({ body }) => {
      const lines = body.split("\n");
      return lines.flatMap((line, i) =>
        i > 0 && line.startsWith("{") && (JSON.parse(line) as { type?: string }).type === "event"
          ? [{ envelope: body, event: JSON.parse(lines[i + 1]) as Record<string, unknown> }]
          : [],
      );
    });
}

type OtlpTraces = {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: { name: string }[] }[];
  }[];
};

/** The OTLP/JSON trace exports the collector received. */
const traceExports = (): OtlpTraces[] =>
  received.filter((r) => r.path === "/v1/traces").map((r) => JSON.parse(r.body) as OtlpTraces);

const backendUrl = () => `http://127.0.0.1:${backendPort}`;

async function startBackend() {
  const log = openSync(backendLogPath, "a");
  backend = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "embedded.ts")], {
    cwd: root,
    detached: true,
    stdio: ["ignore", log, log],
    env: {
      ...process.env,
      EMBEDDED_PORT: String(backendPort),
      LABCASH_DATA_DIR: dataDir,
      SITE_URL: siteUrl,
      EMBEDDED_RATE_LIMITS: "off",
      EMBEDDED_TEST_FIXTURES: "1",
    },
  });
  await untilServing(`${backendUrl()}/auth/v1/health`, backend, "the backend", backendLogPath);
}

/** Stops the backend (the database and the auth server) and waits until it has gone. */
const stopBackend = () => stopServer(backend);

test.describe.configure({ mode: "serial", timeout: 240_000 });

test.beforeAll(async () => {
  const appPort = await freePort();
  backendPort = await freePort();
  siteUrl = `http://127.0.0.1:${appPort}`;
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(path.join(root, "test-results"), { recursive: true });
  await startBackend();
  const collectorPort = await startCollector();
  const log = openSync(siteLogPath, "w");
  site = spawn(
    process.execPath,
    [path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "--port", String(appPort)],
    {
      cwd: root,
      detached: true,
      stdio: ["ignore", log, log],
      env: {
        ...process.env,
        PORT: String(appPort),
        SITE_URL: siteUrl,
        SUPABASE_URL: backendUrl(),
        NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: EMBEDDED_PUBLISHABLE_KEY,
        SUPABASE_SECRET_KEY: EMBEDDED_SECRET_KEY,
        LABCASH_EMBEDDED: "1",
        CRON_SECRET: EMBEDDED_CRON_SECRET,
        // A production server must be told who writes the visitor's address; nothing here counts visitors.
        CLIENT_ADDRESS_HEADER: "x-forwarded-for",
        NEXT_TELEMETRY_DISABLED: "1",
        // Errors to a stand-in Sentry (it posts envelopes to /api/<project>/envelope/), traces to a stand-in OTLP
        // collector as JSON, exported a fifth of a second after they end instead of five seconds.
        SENTRY_DSN: `http://publickey@127.0.0.1:${collectorPort}/1`,
        SENTRY_ENVIRONMENT: "e2e",
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "labcash-e2e",
        OTEL_BSP_SCHEDULE_DELAY: "200",
      },
    },
  );
  await untilServing(`${siteUrl}/login`, site, "the site", siteLogPath);
});

test.afterAll(async () => {
  await Promise.all([stopServer(site), stopServer(backend)]);
  collector?.close();
});

/** The site's structured log lines (one JSON object a line; Next's own lines are skipped). */
function siteLog(): Record<string, unknown>[] {
  return readFileSync(siteLogPath, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The app's mail to `email` on this file's backend (the outbox is the inbox). */
async function appMail(email: string): Promise<{ kind: string; subject: string; body_text: string }[]> {
  const res = await fetch(`${backendUrl()}/_embedded/app-mail?email=${encodeURIComponent(email)}&limit=500`, {
    headers: { apikey: EMBEDDED_SECRET_KEY },
  });
  return res.json();
}

/** Signs the demo super admin in on this site and sets up two-step verification, as a fresh site asks. */
async function signInSuperAdmin(page: Page) {
  const { email } = demoUsers.superAdmin;
  await new SignInPage(page).signInToDashboard(email);
  await page.goto("/admin");
  const twoStep = new TwoStepPage(page);
  await expect(twoStep.heading).toBeVisible();
  await twoStep.emailMeACode.click();
  const code = async () => {
    const res = await fetch(`${backendUrl()}/_embedded/mail?email=${encodeURIComponent(email)}`, {
      headers: { apikey: EMBEDDED_SECRET_KEY },
    });
    const mail = ((await res.json()) as { kind: string; body: string }[]).find((m) => m.kind === "reauthentication");
    return mail ? /Your code: (\d{8})/.exec(mail.body)?.[1] : undefined;
  };
  await expect.poll(code).toMatch(/^\d{8}$/);
  await twoStep.inboxCode.fill((await code())!);
  await twoStep.confirmInbox.click();
  await twoStep.setUpAuthenticator(undefined, { admin: true });
  await expect(page).toHaveURL(/\/admin$/);
}

test("a server error shows its request id as the reference, in one structured log line and in Sentry", async ({
  page,
}) => {
  // Whatever the visitor's browser sends with the request stays out of Sentry.
  const cookieValue = "cookie-value-4f1d9a";
  const authorizationValue = "authorization-value-8c2e7b";
  await page.context().addCookies([{ name: "labcash-test", value: cookieValue, url: siteUrl }]);
  await page.setExtraHTTPHeaders({ authorization: `Bearer ${authorizationValue}` });
  const response = await page.goto(`${siteUrl}/error-test`);
  expect(response?.status()).toBe(500);
  const requestId = response!.headers()["x-request-id"];
  expect(requestId).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
  expect(response!.headers()["server-timing"]).toContain(`request;desc="${requestId}"`);
  await expect(page.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
  await expect(page.getByText(`Reference: ${requestId}`, { exact: true })).toBeVisible();

  await expect
    .poll(() => siteLog().filter((l) => l.event === "request_error" && l.request_id === requestId))
    .toHaveLength(1);
  const [line] = siteLog().filter((l) => l.event === "request_error" && l.request_id === requestId);
  expect(line).toMatchObject({ level: "error", method: "GET", path: "/error-test", digest: expect.any(String) });
  // Nothing secret reaches the log, whatever the site logged so far.
  const text = readFileSync(siteLogPath, "utf8");
  expect(text).not.toContain(EMBEDDED_SECRET_KEY);
  expect(text).not.toContain(EMBEDDED_CRON_SECRET);

  // Sentry was sent the error once, tagged with the same request id, without the cookie, the authorization
  // header or any key.
  const tagged = () =>
    sentryEvents().filter(({ event }) => (event.tags as Record<string, string> | undefined)?.request_id === requestId);
  await expect.poll(() => tagged().length).toBe(1);
  const [{ envelope, event }] = tagged();
  expect(event).toMatchObject({
    level: "error",
    environment: "e2e",
    exception: { values: [{ type: "Error", value: "Error page test: this page always fails on the server" }] },
  });
  const request = event.request as { headers?: Record<string, string> } | undefined;
  expect(Object.keys(request?.headers ?? {}).map((h) => h.toLowerCase())).not.toEqual(
    expect.arrayContaining([expect.stringMatching(/^(cookie|authorization)$/)]),
  );
  for (const secret of [cookieValue, authorizationValue, EMBEDDED_SECRET_KEY, EMBEDDED_CRON_SECRET])
    expect(envelope).not.toContain(secret);
});

test("the site's traces reach an OTLP collector with its service name", async ({ request }) => {
  expect((await request.get(`${siteUrl}/login`)).status()).toBe(200);
  const services = () =>
    traceExports().flatMap((t) =>
      t.resourceSpans
        .filter((r) => r.scopeSpans.some((s) => s.spans.length > 0))
        .flatMap((r) => r.resource.attributes.filter((a) => a.key === "service.name").map((a) => a.value.stringValue)),
    );
  await expect.poll(services).toContain("labcash-e2e");
});

test("an overdue draw appears on the System page and in a super admin's inbox once", async ({ browser }) => {
  const list = (await (
    await fetch(`${backendUrl()}/rest/v1/rpc/list_competitions`, {
      method: "POST",
      headers: { apikey: EMBEDDED_PUBLISHABLE_KEY, "content-type": "application/json" },
      body: "{}",
    })
  ).json()) as { id: string; title: string; status: string; opens_at: string }[];
  const competition = list.find((c) => c.status === "live" && new Date(c.opens_at) < new Date())!;
  expect(competition).toBeTruthy();
  // The server-only fixture moves its draw time six minutes back; nothing runs the scheduled job here.
  const moved = await fetch(`${backendUrl()}/_embedded/test/competition-due`, {
    method: "POST",
    headers: { apikey: EMBEDDED_SECRET_KEY, "content-type": "application/json" },
    body: JSON.stringify({ competition_id: competition.id, until: "draw", minutes_ago: 6 }),
  });
  expect(moved.status).toBe(200);

  const context = await browser.newContext({ baseURL: siteUrl });
  const page = await context.newPage();
  await signInSuperAdmin(page);
  await page.goto("/admin/system");
  await expect(page.getByRole("heading", { name: "System", level: 1 })).toBeVisible();
  const overdue = page.getByRole("table", { name: "Overdue draws, oldest first" });
  await expect(overdue.getByRole("link", { name: competition.title })).toBeVisible();
  // Made six minutes late; signing in takes a few seconds more.
  await expect(
    overdue.getByRole("row", { name: competition.title }).getByRole("cell", { name: /^[6-9] minutes$/ }),
  ).toBeVisible();
  const alerts = page.getByRole("region", { name: "Alerts" });
  await expect(alerts.getByText(`the draw of "${competition.title}" is overdue`)).toBeVisible();
  // The verdict at the top counts it, and its words link the section.
  const verdict = page.getByRole("region", { name: "Verdict" });
  await expect(verdict.getByText(/^[\d,]+ (thing needs|things need) a person$/)).toBeVisible();
  await verdict.getByRole("link", { name: /^[\d,]+ overdue draws?$/ }).click();
  await expect(page).toHaveURL(/#overdue$/);
  await expect(page.getByRole("region", { name: "Overdue draws" })).toBeInViewport();
  // Super admins are told in the console too, on every admin page.
  await page.goto("/admin");
  await expect(page.getByRole("link", { name: "Open the System page" })).toBeVisible();
  await page.goto("/admin/system");
  await expectAccessibleInBothSchemes(page, "/admin/system with an overdue draw");

  // Looked at again (the page, the health check an uptime monitor calls): still one mail.
  expect((await page.request.get("/api/health")).status()).toBe(200);
  const deep = await page.request.get("/api/health?deep=1");
  expect(deep.status()).toBe(200);
  expect((await deep.json()).deep.overdue_draws).toBeGreaterThanOrEqual(1);
  const told = (await appMail(demoUsers.superAdmin.email)).filter(
    (m) => m.kind === "ops_alert" && m.subject.includes(`the draw of "${competition.title}" is overdue`),
  );
  expect(told).toHaveLength(1);
  expect(told[0].body_text).toContain("/admin/system");

  // A super admin acknowledges it: it leaves the list, and the activity log says who did.
  await page.goto("/admin/system");
  const alert = alerts.getByRole("listitem").filter({ hasText: `the draw of "${competition.title}" is overdue` });
  await alert.getByRole("button", { name: "Acknowledge" }).click();
  await expect(alerts.getByText(`the draw of "${competition.title}" is overdue`)).toHaveCount(0);
  await page.goto("/admin/activity");
  await expect(page.getByRole("cell", { name: "Operations alert acknowledged" }).first()).toBeVisible();
  await context.close();
});

test("the health check answers 503 while the database is stopped and 200 once it is back", async ({ request }) => {
  const health = () => request.get(`${siteUrl}/api/health`);
  const up = await health();
  expect(up.status()).toBe(200);
  const body = await up.json();
  expect(body).toMatchObject({ status: "ok", checks: { database: "ok", auth: "ok", mail: "ok" } });
  expect(up.headers()["cache-control"]).toContain("max-age=5");
  // Nothing a visitor should not see: no version, key, address or count.
  const text = JSON.stringify(body);
  for (const secret of [EMBEDDED_SECRET_KEY, EMBEDDED_PUBLISHABLE_KEY, "@", "version", "127.0.0.1"])
    expect(text).not.toContain(secret);
  expect((await request.get(`${siteUrl}/api/health?deep=1`)).status()).toBe(401);

  await stopBackend();
  const down = await health();
  expect(down.status()).toBe(503);
  expect(await down.json()).toMatchObject({ status: "down", checks: { database: "down", auth: "down" } });
  expect(down.headers()["cache-control"]).toBe("no-store");

  await startBackend();
  // Until the site's next check sees it (bounded by the test's time, which the start above extended).
  await expect.poll(async () => (await health()).status(), { timeout: 0 }).toBe(200);
});
