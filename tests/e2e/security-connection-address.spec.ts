import { expect, test, type Browser } from "@playwright/test";
import { SignInPage } from "./support/pages/sign-in";
import { startOwnSite, type OwnSite } from "./support/own-site";
import { emptySignInAllowance, wrongSignIn } from "./support/sign-in-allowance";
import { DEMO_PASSWORD, demoUsers } from "./support/users";

// `npm start` with no proxy in front and no CLIENT_ADDRESS_HEADER named: the visitor is the connection's own
// address, whatever X-Forwarded-For the client writes (next start alone kept a client's header as sent, so one
// spoofed entry per request was a fresh allowance). This file starts such a server, with a newcomer's limits.

const TOO_MANY = "Too many attempts from here. Please wait a few minutes and try again.";
let site: OwnSite | undefined;
let backendPort = 0;
let appPort = 0;

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  site = await startOwnSite("connection-address", {
    EMBEDDED_RATE_LIMITS: "",
    // No proxy declared: what a newcomer's `npm start` has.
    CLIENT_ADDRESS_HEADER: "",
    CLIENT_ADDRESS_HOPS: "",
  });
  ({ appPort, backendPort } = site);
});

test.afterAll(() => site?.stop());

/** A browser context reaching the site over `host` (a loopback address), writing `forwardedFor` itself. */
async function visitor(browser: Browser, host: string, forwardedFor: string) {
  const context = await browser.newContext({
    baseURL: `http://${host}:${appPort}`,
    extraHTTPHeaders: { "x-forwarded-for": forwardedFor },
  });
  return { context, page: await context.newPage() };
}

test("a spoofed X-Forwarded-For buys no fresh sign-in allowance; another connection is another visitor", async ({
  browser,
}) => {
  // Each request names a new single address, as the probe did: the connection is still 127.0.0.1. The forms are
  // filled first and sent together the moment the allowance is empty: it refills a sign-in every ten seconds, so
  // forms filled and sent one after another would, on a slow enough machine, find one whatever the site did.
  const guessers = await Promise.all(
    ["198.51.100.2", "10.0.0.7", "2001:db8::7", "127.0.0.2"].map(async (spoof) => {
      const guesser = await visitor(browser, "127.0.0.1", spoof);
      const form = new SignInPage(guesser.page);
      await form.goto();
      await form.fill(demoUsers.player.email, "Wrong-guess-spoofed");
      return { ...guesser, form };
    }),
  );
  // The visitor on 127.0.0.1 spends the auth server's 30 sign-ins (at once, as the site forwards them).
  await Promise.all(Array.from({ length: 30 }, () => wrongSignIn(backendPort, "127.0.0.1")));
  await emptySignInAllowance(backendPort, "127.0.0.1");
  await Promise.all(guessers.map(({ form }) => form.submit.click()));
  for (const { form } of guessers) await expect(form.alert).toHaveText(TOO_MANY);
  // The owner, on another connection (IPv6 loopback, its own /64), sends the same spoofed header and signs in.
  const owner = await visitor(browser, "[::1]", "127.0.0.1");
  await new SignInPage(owner.page).signInToDashboard(demoUsers.player.email, DEMO_PASSWORD);
  for (const v of [...guessers, owner]) await v.context.close();
});
