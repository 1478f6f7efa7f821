import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
// The matcher Next compiles next.config.ts `headers()` sources with.
import { getPathMatch } from "next/dist/shared/lib/router/utils/path-match";
import { sessionMarkerScript } from "@/lib/auth/session-cookie";
import { documentScript, installPromptScript, themeScript } from "@/lib/document-script";
import {
  CACHED_CSP_SOURCE,
  contentSecurityPolicy,
  newNonce,
  securityHeaderRoutes,
  strictContentSecurityPolicy,
  strictCspPath,
} from "@/lib/http/security-headers";

const directive = (policy: string, name: string) =>
  policy
    .split("; ")
    .find((d) => d.startsWith(`${name} `))
    ?.split(" ")
    .slice(1);

describe("the strict Content-Security-Policy (pages rendered per request)", () => {
  const nonce = newNonce();
  const strict = strictContentSecurityPolicy({ development: false, nonce });
  const cached = contentSecurityPolicy({ development: false });

  it("runs scripts by nonce or hash only, never inline ones at large, and no eval", () => {
    const scripts = directive(strict, "script-src") ?? [];
    expect(scripts).toContain(`'nonce-${nonce}'`);
    expect(scripts).toContain("'strict-dynamic'");
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(strict).not.toContain("unsafe-eval");
    // The one inline script of the document, by the hash of its exact text.
    const hash = createHash("sha256").update(documentScript).digest("base64");
    expect(scripts).toContain(`'sha256-${hash}'`);
    expect(documentScript).toContain(sessionMarkerScript);
    expect(documentScript).toContain(themeScript);
    expect(documentScript).toContain(installPromptScript);
  });

  it("keeps every other directive of the cached pages' policy", () => {
    const others = (policy: string) => policy.split("; ").filter((d) => !d.startsWith("script-src "));
    expect(others(strict)).toEqual(others(cached));
    expect(directive(cached, "script-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(cached).not.toContain("nonce-");
  });

  it("draws a fresh 128-bit nonce each time, in the characters Next reads a nonce in", () => {
    const nonces = new Set(Array.from({ length: 50 }, () => newNonce()));
    expect(nonces.size).toBe(50);
    for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("covers the signed-in areas, the payment pages and the sign-in screens, segment by segment", () => {
    for (const path of [
      "/account",
      "/account/two-step",
      "/admin",
      "/admin/users/x",
      "/credit",
      "/payment/test-checkout/x",
      "/purchase-success",
      "/pending-approval",
      "/login",
      "/signup",
      "/logout",
      "/auth/reset-password",
    ])
      expect(strictCspPath(path), path).toBe(true);
    for (const path of [
      "/",
      "/competitions",
      "/competitions/x",
      "/winners",
      "/docs/getting-started",
      "/accounts",
      "/administrator",
      "/api/session/header",
      "/register",
    ])
      expect(strictCspPath(path), path).toBe(false);
  });

  it("next.config.ts sets the cached policy everywhere but there, so those pages get exactly one", () => {
    const [everyPath, cachedPolicy] = securityHeaderRoutes({ development: false });
    expect(everyPath.headers.map((h) => h.key)).not.toContain("Content-Security-Policy");
    expect(cachedPolicy.source).toBe(CACHED_CSP_SOURCE);
    const matches = getPathMatch(CACHED_CSP_SOURCE, { strict: true, removeUnnamedParams: true });
    for (const path of [
      "/",
      "/competitions",
      "/winners/1",
      "/docs/getting-started",
      "/accounts",
      "/api/session/header",
      "/_next/static/x.js",
      "/register",
    ])
      expect(Boolean(matches(path)), path).toBe(!strictCspPath(path));
    for (const path of [
      "/account",
      "/account/two-step",
      "/admin",
      "/admin/users",
      "/login",
      "/signup",
      "/auth/confirm",
    ])
      expect(matches(path), path).toBe(false);
  });
});
