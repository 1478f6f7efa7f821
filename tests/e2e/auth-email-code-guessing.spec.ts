import { createHash } from "node:crypto";
import type { Browser } from "@playwright/test";
import { caughtMail } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { demoUsers } from "./support/users";

// An attacker once asked for a sign-in code for the demo player, then typed 200 wrong codes into /login/code, each
// from its own address, and the right code still signed in. The site now counts every code typed for an address in
// its own SQL, whichever visitor types it: after five wrong ones the code is void, the form says so, and only a new
// code signs in. (The shared e2e server runs without the auth server's limits, so this is the site's layer alone.)

// Both tests spend the demo player's count of tries: one after the other, never side by side.
test.describe.configure({ mode: "default" });

const WRONG = /That code is wrong or has expired\. Ask for a new sign-in link\.$/;
const VOID = /Too many wrong codes for this address: that code no longer works\. Ask for a new one\.$/;

let nextAddress = 1;

/** A page for a new visitor, arriving from its own address as a proxy in front of the site would report it. */
async function newVisitor(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { "x-forwarded-for": `198.51.100.${nextAddress++}` },
  });
  return context.newPage();
}

/** Asks for a sign-in link for `email` on /login, as the visitor on `page`; answers the e-mail's code. */
async function askForCode(page: Awaited<ReturnType<typeof newVisitor>>, email: string): Promise<string> {
  return (await askForLink(page, email)).code;
}

/** Asks for a sign-in link for `email` on /login, as the visitor on `page`; answers the e-mail's link and code. */
async function askForLink(
  page: Awaited<ReturnType<typeof newVisitor>>,
  email: string,
): Promise<{ link: URL; code: string }> {
  const before = (await caughtMail(email)).length;
  await page.goto("/login");
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("E-mail", { exact: true }).fill(email);
  await form.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(/^Check your inbox\./);
  await expect.poll(async () => (await caughtMail(email)).length).toBeGreaterThan(before);
  const [mail] = await caughtMail(email);
  return {
    link: new URL(/https?:\/\/\S+\/auth\/confirm\?\S+/.exec(mail.body)![0]),
    code: /Or enter this code: (\d{8})/.exec(mail.body)![1],
  };
}

/** The site-relative form of `link` with its code replaced by `code`: what an attacker who guesses it opens. */
function withCode(link: URL, code: string): string {
  const guessed = new URL(link);
  guessed.searchParams.set("code", code);
  return guessed.pathname + guessed.search;
}

const LINK_REFUSED = "That link is invalid or has expired. Please request a new one.";

/** Types `code` for `email` on /login/code, as the visitor on `page`; answers the code field. */
async function typeCode(page: Awaited<ReturnType<typeof newVisitor>>, email: string, code: string) {
  await page.goto("/login/code");
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  const field = page.getByLabel("8-digit code");
  await field.fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
  return field;
}

const wrongFor = (code: string, step: number) => String((Number(code) + step) % 100_000_000).padStart(8, "0");

test("five wrong codes from five visitors void the player's code; their new code signs in, and no one else's is touched", async ({
  browser,
  baseURL,
  approvedAccount: other,
}) => {
  const owner = demoUsers.player.email;
  const right = await askForCode(await newVisitor(browser, baseURL), owner);
  const othersCode = await askForCode(await newVisitor(browser, baseURL), other.email);

  for (let i = 1; i <= 5; i++) {
    const field = await typeCode(await newVisitor(browser, baseURL), owner, wrongFor(right, i));
    // The fifth wrong code is the last: the form says the code is now void.
    await expect(field).toHaveAccessibleDescription(i < 5 ? WRONG : VOID);
  }

  // The right code, from yet another visitor, no longer signs in.
  const late = await newVisitor(browser, baseURL);
  const field = await typeCode(late, owner, right);
  await expect(field).toHaveAccessibleDescription(VOID);
  await expect(late).toHaveURL(/\/login\/code$/);

  // Another account's code is untouched.
  const otherPage = await newVisitor(browser, baseURL);
  await typeCode(otherPage, other.email, othersCode);
  await expect(otherPage).toHaveURL(/\/account$/);

  // The owner asks for a new code, and it signs them in.
  const ownerPage = await newVisitor(browser, baseURL);
  const fresh = await askForCode(ownerPage, owner);
  await typeCode(ownerPage, owner, fresh);
  await expect(ownerPage).toHaveURL(/\/account$/);
  await expect(ownerPage.getByRole("heading", { name: `Hello, ${demoUsers.player.name}`, level: 1 })).toBeVisible();
});

test("five wrong link guesses from five visitors void the player's code; a bare token_hash is refused; their new link signs in, and no one else's is touched", async ({
  browser,
  baseURL,
  approvedAccount: other,
}) => {
  const owner = demoUsers.player.email;
  const { link, code: right } = await askForLink(await newVisitor(browser, baseURL), owner);
  const othersLink = (await askForLink(await newVisitor(browser, baseURL), other.email)).link;
  expect(link.searchParams.get("email")).toBe(owner);
  expect(link.searchParams.has("token_hash")).toBe(false);

  // The old door: a link with only GoTrue's token_hash, sha224(address + code), which an attacker computes per guess.
  // Refused even with the right code's hash, and without spending a try.
  const hashVisitor = await newVisitor(browser, baseURL);
  const tokenHash = createHash("sha224")
    .update(owner + right)
    .digest("hex");
  await hashVisitor.goto(`/auth/confirm?token_hash=${tokenHash}&type=magiclink`);
  await expect(hashVisitor).toHaveURL(/\/login\?error=/);
  await expect(hashVisitor.getByRole("main").getByRole("alert")).toHaveText(LINK_REFUSED);

  for (let i = 1; i <= 5; i++) {
    const guesser = await newVisitor(browser, baseURL);
    await guesser.goto(withCode(link, wrongFor(right, i)));
    await expect(guesser).toHaveURL(/\/login\?error=/);
    await expect(guesser.getByRole("main").getByRole("alert")).toHaveText(LINK_REFUSED);
  }

  // The right link, from yet another visitor, no longer signs in.
  const late = await newVisitor(browser, baseURL);
  await late.goto(link.pathname + link.search);
  await expect(late).toHaveURL(/\/login\?error=/);
  await expect(late.getByRole("main").getByRole("alert")).toHaveText(LINK_REFUSED);

  // Another account's link is untouched.
  const otherPage = await newVisitor(browser, baseURL);
  await otherPage.goto(othersLink.pathname + othersLink.search);
  await expect(otherPage).toHaveURL(/\/account$/);

  // The owner asks for a new link, and it signs them in.
  const ownerPage = await newVisitor(browser, baseURL);
  const fresh = await askForLink(ownerPage, owner);
  await ownerPage.goto(fresh.link.pathname + fresh.link.search);
  await expect(ownerPage).toHaveURL(/\/account$/);
  await expect(ownerPage.getByRole("heading", { name: `Hello, ${demoUsers.player.name}`, level: 1 })).toBeVisible();
});
