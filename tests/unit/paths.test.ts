import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { describe, expect, it } from "vitest";
import { config } from "@/proxy";
import {
  afterSignIn,
  approvalReturnPath,
  cameFrom,
  exemptFromApproval,
  isAdminPath,
  isLocalPath,
  needsSession,
  pageAddressOf,
  pendingApprovalPath,
  safeNextPath,
  SIGN_UP_PATH,
  underPrefix,
} from "@/lib/auth/paths";
import { appPageFiles, pageUrl } from "./support/app-pages";

describe("approval exemptions (spec §4)", () => {
  it("matches / exactly and the other entries as path prefixes", () => {
    expect(exemptFromApproval("/")).toBe(true);
    for (const path of [
      "/competitions",
      "/competitions/iphone-17",
      "/docs/legal/privacy-policy",
      "/blog/launch",
      "/winners",
      "/transparency",
      "/charities",
      "/account",
      "/account/credits",
      "/pending-approval",
      "/logout",
      "/login",
      "/register",
      "/signup",
      "/auth/callback",
      "/auth/reset-password",
      "/auth/confirm",
      "/competitions-demo",
      "/complaints",
      "/unsubscribe",
      "/search.json",
      "/competitions/search.json",
    ]) {
      expect(exemptFromApproval(path), path).toBe(true);
    }
  });

  it("exempts where /register leads, so an unapproved user reaches the sign-up form", () => {
    expect(SIGN_UP_PATH).toBe("/signup");
    expect(exemptFromApproval(SIGN_UP_PATH)).toBe(true);
    expect(exemptFromApproval("/signups")).toBe(false);
  });

  it("does not exempt paths that only share a prefix of characters", () => {
    for (const path of [
      "/labspinner",
      "/credit",
      "/admin",
      "/pricing",
      "/competitions-x",
      "/docsx",
      "/payment/competition",
    ]) {
      expect(exemptFromApproval(path), path).toBe(false);
    }
  });
});

describe("paths that need a session", () => {
  it("protects the account, admin, credit, payment and purchase screens", () => {
    for (const path of [
      "/account",
      "/account/profile",
      "/admin",
      "/admin/users/1",
      "/credit",
      "/payment/competition",
      "/purchase-success",
    ]) {
      expect(needsSession(path), path).toBe(true);
    }
  });

  it("leaves public pages, login and the auth callback open", () => {
    for (const path of [
      "/",
      "/login",
      "/auth/callback",
      "/competitions",
      "/docs",
      "/signup",
      "/unsubscribe",
      "/accounts",
      "/creditors",
    ]) {
      expect(needsSession(path), path).toBe(false);
    }
  });

  it("knows the admin area", () => {
    expect(isAdminPath("/admin")).toBe(true);
    expect(isAdminPath("/admin/approvals")).toBe(true);
    expect(isAdminPath("/administrator")).toBe(false);
    expect(underPrefix("/docs/", "/docs")).toBe(true);
  });
});

describe("safeNextPath", () => {
  it("keeps a local path with its query", () => {
    expect(safeNextPath("/account/profile?tab=password")).toBe("/account/profile?tab=password");
  });

  it("refuses other origins and protocol-relative tricks", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
      "",
      null,
      undefined,
    ]) {
      expect(safeNextPath(bad as string | null | undefined)).toBe("/account");
    }
  });

  it("accepts an absolute URL only on the given origin", () => {
    expect(safeNextPath("http://127.0.0.1:3100/auth/reset-password", "/account", "http://127.0.0.1:3100")).toBe(
      "/auth/reset-password",
    );
    expect(safeNextPath("http://evil.example/auth/reset-password", "/account", "http://127.0.0.1:3100")).toBe(
      "/account",
    );
    expect(safeNextPath("http://127.0.0.1:3100.evil.example/x", "/account", "http://127.0.0.1:3100")).toBe("/account");
  });

  it("refuses paths that normalise to another host (dot segments, %2e, tabs, backslashes)", () => {
    const origin = "http://127.0.0.1:3100";
    for (const bad of [
      "/.//evil.example",
      "/x/..//evil.example",
      "/%2e//evil.example",
      "/%2E%2E//evil.example",
      "/./\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "\t//evil.example",
      "\\\\evil.example",
      "%2f%2fevil.example",
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      " //evil.example",
      `${origin}//evil.example`,
      `${origin}/.//evil.example`,
      "http://127.0.0.1:3100@evil.example/",
    ]) {
      expect(safeNextPath(bad), bad).toBe("/account");
      expect(safeNextPath(bad, "/account", origin), bad).toBe("/account");
    }
  });

  it("keeps an encoded slash inside a path, which browsers do not decode", () => {
    expect(safeNextPath("/%2f/evil.example")).toBe("/%2f/evil.example");
    expect(isLocalPath("/%2f/evil.example")).toBe(true);
  });

  it("isLocalPath accepts one leading slash only", () => {
    for (const good of ["/", "/account", "/login?error=That%20link", "/a#b"])
      expect(isLocalPath(good), good).toBe(true);
    for (const bad of ["", "//x", "/\\x", "x", "https://x", "/a b", "/a\tb", "/\u0000"])
      expect(isLocalPath(bad), bad).toBe(false);
  });

  it("never returns to the sign-in screens", () => {
    expect(safeNextPath("/login?next=/admin")).toBe("/account");
    expect(safeNextPath("/logout")).toBe("/account");
  });
});

describe("the page a player waiting for approval returns to", () => {
  it("keeps a safe page on this site, and nothing else", () => {
    expect(approvalReturnPath("/competitions/car?entry=1#enter-online")).toBe("/competitions/car?entry=1#enter-online");
    for (const bad of [null, undefined, "", "//evil.example", "/\\evil.example", "https://evil.example/", "/logout"])
      expect(approvalReturnPath(bad), String(bad)).toBeNull();
    expect(approvalReturnPath(`/${"x".repeat(500)}`)).toBeNull();
  });

  it("never returns to the waiting page itself", () => {
    expect(approvalReturnPath("/pending-approval?next=/labspinner")).toBeNull();
  });

  it("carries the page on the waiting page's address, leaving the dashboard out", () => {
    expect(pendingApprovalPath("/labspinner")).toBe("/pending-approval?next=%2Flabspinner");
    expect(pendingApprovalPath("/account")).toBe("/pending-approval");
    expect(pendingApprovalPath("//evil.example")).toBe("/pending-approval");
  });

  it("names the page a payload request is for, without the cache-busting parameter", () => {
    const address = (url: string) => pageAddressOf(new URL(url, "http://local.invalid"));
    expect(address("/pricing.rsc?_rsc=1x2y")).toBe("/pricing");
    expect(address("/index.rsc")).toBe("/");
    expect(address("/labspinner.segments/_tree.segment.rsc")).toBe("/labspinner");
    expect(address("/credit?amount=10&_rsc=abc")).toBe("/credit?amount=10");
  });
});

describe("cameFrom", () => {
  const origin = "https://labcash.example";
  it("returns to this site's page the visitor opened the sign-in page from", () => {
    expect(cameFrom(`${origin}/competitions/a-car?x=1`, origin)).toBe("/competitions/a-car?x=1");
    expect(cameFrom(`${origin}/`, origin)).toBe("/");
  });

  it("ignores another site, a sign-in screen, an odd value, or none", () => {
    for (const referer of [
      "https://evil.example/competitions/a-car",
      "http://labcash.example/competitions/a-car",
      `${origin}/login?next=/admin`,
      `${origin}/signup?ref=ABC`,
      `${origin}//evil.example`,
      "not a url",
      "",
      null,
      undefined,
    ])
      expect(cameFrom(referer, origin), String(referer)).toBeUndefined();
  });
});

describe("afterSignIn", () => {
  it("goes on to next, or first to the code step when a verified second factor exists", () => {
    expect(afterSignIn("/account/credits", undefined)).toBe("/account/credits");
    expect(afterSignIn("/account/credits", [{ status: "unverified" }])).toBe("/account/credits");
    expect(afterSignIn("/account/credits", [{ status: "verified" }])).toBe(
      "/account/two-step?next=%2Faccount%2Fcredits",
    );
  });
});

describe("the proxy's matcher", () => {
  const session = { theme: "dark", "sb-abcdefgh-auth-token.0": "base64-eyJ", "sb-abcdefgh-auth-token.1": "Ig" };
  // The testing helper writes the Cookie header from `cookies` (and always: an empty one if none are given).
  const browser =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";
  const matches = (url: string, cookies: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    unstable_doesMiddlewareMatch({ config, url, cookies, headers: { "user-agent": browser, ...headers } });

  it("sees every page an unapproved account is kept from, whenever the request carries a session cookie", () => {
    const gated = appPageFiles()
      .map(pageUrl)
      .filter((url) => !exemptFromApproval(url));
    expect(gated).toEqual(expect.arrayContaining(["/pricing", "/labspinner", "/offline", "/credit", "/admin/users"]));
    expect(gated.filter((url) => !matches(url, session))).toEqual([]);
    expect(matches("/pricing", { "sb-abcdefgh-auth-token": "base64-eyJ" })).toBe(true);
    // The forms a host may route client navigations and prefetches by (Next adds them to every matcher source).
    for (const url of ["/pricing.rsc", "/labspinner.segments/_tree.segment.rsc", "/offline.rsc"])
      expect([url, matches(url, session)]).toEqual([url, true]);
  });

  it("leaves the cached pages to signed-out visitors, unless they post, send a server action or need a session", () => {
    const cached = [
      "/",
      "/competitions",
      "/competitions-demo",
      "/transparency",
      "/charities",
      "/docs/getting-started",
      "/search.json",
    ];
    const transport = [
      "/index.rsc",
      "/competitions.rsc",
      "/winners.segments/_tree.segment.rsc",
      "/transparency.rsc",
      "/charities.rsc",
      "/docs/faq.rsc",
    ];
    const gatedTransport = ["/pricing.rsc", "/pricing.segments/_tree.segment.rsc", "/labspinner.rsc", "/offline.rsc"];
    for (const url of [...cached, ...transport, "/pricing", "/labspinner", "/offline", ...gatedTransport]) {
      expect([url, matches(url, { theme: "dark" })]).toEqual([url, false]);
    }
    for (const url of cached) expect([url, matches(url, session)]).toEqual([url, false]);
    expect(matches("/_vercel/insights/script.js", session)).toBe(false);
    expect(matches("/pricing", {}, { origin: "https://labcash.example" })).toBe(true);
    expect(matches("/pricing", {}, { "next-action": "abc" })).toBe(true);
    expect(matches("/pricing%00")).toBe(true);
    for (const url of ["/account", "/credit", "/admin", "/login", "/api/health", "/account.rsc", "/labspinner/verify"])
      expect([url, matches(url)]).toEqual([url, true]);
  });

  it("sees a likely crawler's request for a doc, blog post or competition, so an unknown one gets a bare 404", () => {
    const googlebot = { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" };
    for (const url of ["/docs/no-such-guide", "/blog/no-such-post", "/competitions/no-such-prize"]) {
      expect([url, matches(url, {}, googlebot)]).toEqual([url, true]);
      expect([url, unstable_doesMiddlewareMatch({ config, url, cookies: {}, headers: {} })]).toEqual([url, true]);
      expect([url, matches(url)]).toEqual([url, false]);
    }
  });
});
