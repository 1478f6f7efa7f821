import type { APIRequestContext, APIResponse, Page } from "@playwright/test";
import { contentSecurityPolicy } from "../../lib/http/security-headers";
import { expect, test } from "./support/fixtures";
import { AdminDashboardPage } from "./support/pages/admin";
import { Header } from "./support/pages/header";
import { SignInPage } from "./support/pages/sign-in";

// The pages rendered per request carry a strict, nonce-based Content-Security-Policy
// from the proxy; the cached public pages keep next.config.ts's policy. Read from the production build.

const CACHED_POLICY = contentSecurityPolicy({ development: false });

/** Every Content-Security-Policy header of a response (a second one would intersect with the first). */
function policies(response: APIResponse): string[] {
  return response
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "content-security-policy")
    .map((h) => h.value);
}

/** The script-src sources of a policy. */
const scriptSources = (policy: string) =>
  policy
    .split(";")
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === "script-src")
    ?.slice(1) ?? [];

/** Fetches `path` and checks it carries one strict policy, whose nonce is on every script Next wrote. */
async function expectStrictPolicy(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path, { maxRedirects: 0 });
  expect(response.status(), path).toBe(200);
  const found = policies(response);
  expect(found, path).toHaveLength(1);
  const scripts = scriptSources(found[0]);
  expect(scripts, path).not.toContain("'unsafe-inline'");
  expect(scripts, path).toContain("'strict-dynamic'");
  expect(found[0], path).toContain("frame-ancestors 'none'");
  expect(found[0], path).not.toContain("unsafe-eval");
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(found[0])?.[1];
  expect(nonce, path).toBeTruthy();
  // Every executable script in the HTML carries the nonce, but the one document script (allowed by hash).
  const html = await response.text();
  const tags = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
  const executable = tags.filter((attrs) => !/type="application\/(?:json|ld\+json)"/.test(attrs));
  expect(executable.length, path).toBeGreaterThan(3);
  const withoutNonce = executable.filter((attrs) => !attrs.includes(`nonce="${nonce}"`));
  expect(withoutNonce, path).toEqual([""]);
  return nonce!;
}

/** Records every CSP violation and console complaint about one on `page`, across navigations. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      report(
        `${location.pathname}: ${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test("the cached public pages keep their policy, with no nonce", async ({ request }) => {
  for (const path of ["/", "/competitions", "/winners", "/docs/getting-started"]) {
    const response = await request.get(path);
    expect(policies(response), path).toEqual([CACHED_POLICY]);
    expect(scriptSources(CACHED_POLICY)).toContain("'unsafe-inline'");
  }
});

test("the sign-in screens get a strict policy with a fresh nonce on every request", async ({ request }) => {
  const first = await expectStrictPolicy(request, "/login");
  const second = await expectStrictPolicy(request, "/login");
  expect(first).not.toBe(second);
  await expectStrictPolicy(request, "/signup");
  await expectStrictPolicy(request, "/auth/reset-password");
  // The proxy's redirect of a signed-out visitor carries the one strict policy too.
  const redirect = await request.get("/account", { maxRedirects: 0 });
  expect(redirect.status()).toBe(307);
  expect(policies(redirect)).toHaveLength(1);
  expect(scriptSources(policies(redirect)[0])).not.toContain("'unsafe-inline'");
});

test("signing in, the account page and the theme switch run without a single violation", async ({
  approvedAccount: user,
  page,
}) => {
  const violations = await watchViolations(page);
  await page.emulateMedia({ colorScheme: "light" });
  const signIn = new SignInPage(page);
  await signIn.signInToDashboard(user.email, user.password);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectStrictPolicy(page.request, "/account");

  const header = new Header(page);
  const html = page.locator("html");
  await expect(html).toHaveClass(/\blight\b/);
  await header.chooseTheme("Dark");
  await expect(html).toHaveClass(/\bdark\b/);
  // A full load: the document script (allowed by its hash) sets the class before the first paint.
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(header.themeToggle()).toHaveAccessibleName("Colour mode: dark");
  await header.chooseTheme("Light");
  await expect(html).toHaveClass(/\blight\b/);
  await page.goto("/credit");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(violations).toEqual([]);

  // The watch hears a violation when there is one: an inline script slipped into the page's HTML
  // (its headers, and so its policy, untouched) is refused.
  await page.route("**/account", async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(
      "</body>",
      "<script>document.documentElement.dataset.injected='1'</script></body>",
    );
    await route.fulfill({ response, body });
  });
  await page.goto("/account");
  await expect.poll(() => violations.length).toBeGreaterThan(0);
  expect(violations.join("\n")).toContain("script-src");
  await expect(page.locator("html")).not.toHaveAttribute("data-injected");
});

test("the admin dashboard runs under the strict policy without a single violation", async ({ admin }) => {
  const violations = await watchViolations(admin);
  await expectStrictPolicy(admin.request, "/admin");
  await new AdminDashboardPage(admin).goto();
  await expect(admin).toHaveURL(/\/admin$/);
  await expect(admin.getByRole("heading", { level: 1 })).toBeVisible();
  const header = new Header(admin);
  await header.chooseTheme("Dark");
  await admin.getByRole("link", { name: "Users" }).first().click();
  await expect(admin).toHaveURL(/\/admin\/users/);
  await expect(admin.getByRole("heading", { level: 1 })).toBeVisible();
  expect(violations).toEqual([]);
});
