import { readdirSync, readFileSync } from "node:fs";
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { gunzipSync } from "node:zlib";
import path from "node:path";
import { EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { EMBEDDED_CRON_SECRET } from "../../lib/env";
import { e2eBaseURL } from "../../scripts/e2e-ports.mjs";
import { recoveryLink, signedInClient } from "./support/backend";
import { FROM_THE_PAGE_CACHE } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { BuyCreditPage } from "./support/pages/credit";

// What an attacker probes first, read from the production build the e2e
// server runs.

const PAGES = ["/", "/competitions", "/winners", "/docs/getting-started", "/pricing", "/login", "/labspinner"];

test("every response carries the security headers", async ({ request }) => {
  for (const path of [...PAGES, "/api/session/header", "/robots.txt", "/no-such-page"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    const headers = response.headers();
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"], path).toContain("object-src 'none'");
    expect(headers["content-security-policy"], path).not.toContain("unsafe-eval");
    expect(headers["strict-transport-security"], path).toBe("max-age=63072000; includeSubDomains");
    expect(headers["x-frame-options"], path).toBe("DENY");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"], path).toContain("camera=()");
    expect(headers["cross-origin-opener-policy"], path).toBe("same-origin");
  }
});

test("the build's immutable files are answered the same the first time and every time after", async ({ request }) => {
  // The launcher keeps Next's first answer for each file and encoding in memory (scripts/run.mjs): every later one
  // must be that answer, byte for byte and header for header, and a ranged or unknown request still Next's own.
  const home = await (await request.get("/")).text();
  const chunk = home.match(/\/_next\/static\/chunks\/[\w.-]+\.js/)?.[0];
  expect(chunk, "a script of the home page").toBeTruthy();
  const raw = (headers: Record<string, string>) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) =>
      httpGet(new URL(chunk!, e2eBaseURL), { headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (part: Buffer) => parts.push(part));
        answer.on("end", () =>
          resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(parts) }),
        );
      }).on("error", reject),
    );
  const file = readFileSync(path.join(".next", chunk!.replace("/_next/", "")));
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await raw({ "accept-encoding": "gzip, deflate, br" }));
  // What differs from one answer to the next by nature: when it was sent and how its bytes were framed.
  const PER_ANSWER = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);
  const comparable = (headers: IncomingHttpHeaders) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_ANSWER.has(name)));
  for (const answer of answers) {
    expect(answer.status).toBe(200);
    expect(gunzipSync(answer.body).equals(file)).toBe(true);
    expect(comparable(answer.headers)).toEqual(comparable(answers[0].headers));
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(answer.headers["x-frame-options"]).toBe("DENY");
  }
  const plain = await raw({});
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.body.equals(file)).toBe(true);
  const ranged = await raw({ range: "bytes=0-9" });
  expect(ranged.status).toBe(206);
  expect(ranged.body.equals(file.subarray(0, 10))).toBe(true);
  for (let i = 0; i < 2; i++) expect((await request.get("/_next/static/chunks/no-such-file.js")).status()).toBe(404);
});

test("the cached pages stay cached under the policy (no per-request nonce)", async ({ request }) => {
  const response = await request.get("/competitions");
  // An ISR page: from the cache in whichever state this moment found it; cacheable, never rendered per request
  // (which would send no x-nextjs-cache and no s-maxage).
  expect(response.headers()["x-nextjs-cache"]).toMatch(FROM_THE_PAGE_CACHE);
  expect(response.headers()["cache-control"]).toContain("s-maxage=");
  expect(response.headers()["content-security-policy"]).not.toContain("nonce-");
});

test("pages run under the policy without a single violation", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page.getByRole("main")).toBeVisible();
  }
  // The search palette fetches its index and the theme switch runs its inline script.
  await page.goto("/docs/getting-started");
  await expect(page.getByTestId("search-shortcut")).toBeAttached(); // hydrated: the shortcut is listened for
  await page.keyboard.press("ControlOrMeta+k");
  const search = page.getByRole("dialog", { name: "Search prizes and documentation" });
  await search.getByPlaceholder("Search...").fill("rejection sampling");
  await expect(search.getByRole("option").first()).toBeVisible();
  expect(violations).toEqual([]);
});

test("a server action posted from another origin is refused with 403, not a 500", async ({ request }) => {
  const foreign: Record<string, string>[] = [
    { Origin: "https://evil.example" },
    { Origin: "null" },
    { Origin: "http://127.0.0.1:1", "Sec-Fetch-Site": "same-site" },
  ];
  for (const headers of foreign) {
    const response = await request.post("/login", {
      headers: { ...headers, "Next-Action": "0".repeat(42), "Content-Type": "text/plain;charset=UTF-8" },
      data: "[]",
      maxRedirects: 0,
    });
    expect(response.status(), JSON.stringify(headers)).toBe(403);
    expect(await response.text()).toBe("Requests from other sites are refused");
  }
});

test("no secret and no server-only setting reaches the browser's JavaScript", () => {
  const chunks = path.join(process.cwd(), ".next", "static");
  const files = readdirSync(chunks, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
  expect(files.length).toBeGreaterThan(10);
  const forbidden = [
    EMBEDDED_SECRET_KEY,
    EMBEDDED_CRON_SECRET,
    "sb_secret_",
    "sk_test_",
    "sk_live_",
    "whsec_",
    "SUPABASE_SECRET_KEY",
    "STRIPE_SECRET_KEY",
    "STRIPE_WEBHOOK_SECRET",
    "CRON_SECRET",
    "RANDOM_ORG_API_KEY",
    "SMTP_URL",
  ];
  const found = files.flatMap((file) => {
    const text = readFileSync(path.join(chunks, file), "utf8");
    return forbidden.filter((secret) => text.includes(secret)).map((secret) => `${file}: ${secret}`);
  });
  expect(found).toEqual([]);
});

test("the session cookie is Secure when the site is served over HTTPS, and keeps spec §9's attributes", async ({
  approvedAccount: user,
  playwright,
  baseURL,
}) => {
  for (const [proto, secure] of [
    ["https", true],
    ["http", false],
  ] as const) {
    const link = await recoveryLink(user.email);
    const visitor = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-Proto": proto } });
    const response = await visitor.get(link.pathname + link.search, { maxRedirects: 0 });
    expect(response.status()).toBe(303);
    const session = response
      .headersArray()
      .filter((h) => h.name.toLowerCase() === "set-cookie" && /^sb-[^=]+-auth-token(\.\d+)?=[^;]+;/.test(h.value));
    expect(session.length, proto).toBeGreaterThan(0);
    for (const { value } of session) {
      const attributes = value.split(";").map((part) => part.trim().toLowerCase());
      expect(attributes.includes("secure"), `${proto}: ${value}`).toBe(secure);
      expect(attributes).toContain("path=/");
      expect(attributes).toContain("samesite=lax");
      expect(attributes).toContain("max-age=34560000");
      expect(attributes).not.toContain("httponly");
    }
    await visitor.dispose();
  }
});

test("a session signed out elsewhere cannot start a top-up, though its token still verifies", async ({
  approvedPlayer: player,
}) => {
  const { page } = player;
  const credit = new BuyCreditPage(page);
  await credit.goto();
  await credit.amount.fill("20");
  await expect(credit.creditAdded).toHaveText("£20.00");
  // "Sign out everywhere" from another device: the browser's access token stays valid for its hour.
  const elsewhere = await signedInClient(player.email, player.password);
  expect((await elsewhere.auth.signOut({ scope: "global" })).error).toBeNull();
  await credit.continueButton.click();
  // The auth server says the session is gone: the action refuses, the dead session's cookies are
  // cleared, and the page it re-renders sends the visitor to sign in. No checkout was started.
  await expect(page).toHaveURL(/\/login\?next=%2Fcredit$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await expect(page.getByText("This is a test checkout: no card is taken.")).toHaveCount(0);
});
