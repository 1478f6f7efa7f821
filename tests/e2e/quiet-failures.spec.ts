import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { startOwnSite, type OwnSite } from "./support/own-site";

// A hand-made request is not the site's fault, so it costs one line in the log, not a stack trace: a server action
// posted with arguments no action takes answers 400, and a session cookie nobody can read counts as none. This file
// runs its own site on the e2e build, as the visitor-limits spec does, so its log is a file the test reads.

let own: OwnSite | undefined;
let logPath = "";
let site = "";

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  own = await startOwnSite("quiet-failures", {});
  ({ logPath, url: site } = own);
});

test.afterAll(() => own?.stop());

/** What the site wrote to its log while `run` ran (waiting for the line `event` to appear). */
async function logDuring(event: string, run: () => Promise<void>): Promise<string[]> {
  const before = readFileSync(logPath, "utf8").length;
  await run();
  let written: string[] = [];
  await expect
    .poll(() => {
      written = readFileSync(logPath, "utf8").slice(before).split("\n").filter(Boolean);
      return written.some((line) => line.includes(`"event":"${event}"`));
    })
    .toBe(true);
  return written;
}

/** The sign-in form's action, as its no-JS form names it in the page. */
async function signInActionId(): Promise<string> {
  const html = await (await fetch(`${site}/login`)).text();
  const id = /&quot;id&quot;:&quot;([0-9a-f]{40,})&quot;/.exec(html)?.[1];
  expect(id).toBeTruthy();
  return id!;
}

test("an action posted with arguments no action takes answers 400, logged in one JSON line", async ({ request }) => {
  const actionId = await signInActionId();
  const post = (data: string | Record<string, string>) =>
    request.post(`${site}/login`, {
      headers: { Origin: site, "Next-Action": actionId },
      ...(typeof data === "string" ? { data } : { multipart: data }),
      maxRedirects: 0,
    });

  // Well formed, as React writes the sign-in form's call: the state before, then the form.
  const real = await post({ "0": '[null,"$K1"]', "1_email": "nobody@labcash.test", "1_password": "Wrong-1" });
  expect(real.status()).toBe(200);

  // No form; the form as the state; a third argument; a state pointing at a Map the body does not hold.
  for (const shape of ['[{"email":"a@b.example"}]', '["$K1"]', '[null,{"email":"a@b.example"},3]', '["$Q5","$K1"]']) {
    const lines = await logDuring("action_refused", async () => {
      const text = await post(shape);
      expect(text.status(), shape).toBe(400);
      expect(await text.text()).toBe("Invalid Server Action request");
    });
    expect(lines, shape).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: "warn",
      event: "action_refused",
      path: "/login",
      action: actionId,
      problem: "action arguments",
    });
  }
  const lines = await logDuring("action_refused", async () => {
    expect((await post({ "0": '[null,"$K1",{"more":1}]', "1_email": "a@b.example" })).status()).toBe(400);
  });
  expect(lines).toHaveLength(1);
});

test("a form posted before any script runs still reaches its action", async ({ browser }) => {
  // The no-JS post React writes for a useActionState form: the action's reference binding the state.
  const context = await browser.newContext({ baseURL: site, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("E-mail", { exact: true }).fill("nobody@labcash.test");
  await page.getByLabel("Password", { exact: true }).fill("Wrong-pass-1");
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
  expect(answer.status()).toBe(200);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "That e-mail and password do not match an account.",
  );
  await context.close();
});

test("a session cookie nobody can read is one JSON line, no stack, and the browser forgets it", async ({ request }) => {
  let response: Awaited<ReturnType<typeof request.get>> | undefined;
  const lines = await logDuring("session_cookie_unreadable", async () => {
    response = await request.get(`${site}/account`, {
      headers: { Cookie: "sb-127-auth-token=base64-junk" },
      maxRedirects: 0,
    });
  });
  // Read as signed out: sent to sign in.
  expect(response!.status()).toBe(307);
  expect(response!.headers().location).toMatch(/\/login\?next=%2Faccount$/);
  expect(response!.headers()["set-cookie"]).toMatch(/sb-127-auth-token=;.*Max-Age=0/i);
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0])).toMatchObject({
    level: "warn",
    event: "session_cookie_unreadable",
    path: "/account",
    dropped: ["sb-127-auth-token"],
  });
  expect(lines[0]).not.toMatch(/\bat /);
});
