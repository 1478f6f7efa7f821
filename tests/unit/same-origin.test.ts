import { describe, expect, it } from "vitest";
import { crossOriginReason, isJsonRequest } from "@/lib/http/same-origin";
import { contentSecurityPolicy, securityHeaderRoutes } from "@/lib/http/security-headers";

const on = (entries: Record<string, string>) => new Headers({ host: "labcash.example", ...entries });

describe("crossOriginReason", () => {
  it("lets this origin's own pages and non-browser clients through", () => {
    expect(crossOriginReason(on({ origin: "https://labcash.example", "sec-fetch-site": "same-origin" }))).toBeNull();
    expect(crossOriginReason(on({ origin: "https://labcash.example" }))).toBeNull();
    expect(crossOriginReason(on({}))).toBeNull();
  });

  it("refuses other origins, other subdomains of the site and opaque origins", () => {
    const foreign: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "https://www.labcash.example" },
      { origin: "https://labcash.example.evil.example" },
      { origin: "null" },
      { origin: "not a url" },
      { "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site", origin: "https://labcash.example" },
    ];
    for (const headers of foreign) {
      expect(crossOriginReason(on(headers)), JSON.stringify(headers)).not.toBeNull();
    }
  });

  it("compares with the host a proxy forwarded", () => {
    const forwarded = on({ "x-forwarded-host": "labcash.co.uk", origin: "https://labcash.co.uk" });
    expect(crossOriginReason(forwarded)).toBeNull();
    expect(
      crossOriginReason(on({ "x-forwarded-host": "labcash.co.uk", origin: "https://labcash.example" })),
    ).not.toBeNull();
  });
});

describe("isJsonRequest", () => {
  it("accepts application/json only", () => {
    expect(isJsonRequest(new Headers({ "content-type": "application/json; charset=utf-8" }))).toBe(true);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]) {
      expect(isJsonRequest(new Headers(type ? { "content-type": type } : {})), type).toBe(false);
    }
  });
});

describe("security headers", () => {
  it("production's policy has no eval, no plugins, no framing and no nonce", () => {
    const policy = contentSecurityPolicy({ development: false });
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).not.toContain("nonce-");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("form-action 'self' https://checkout.stripe.com");
  });

  it("lists every security header the site promises", () => {
    // Each header once: the Content-Security-Policy comes in two forms (the cached pages' and the proofs' sandbox).
    const names = [
      ...new Set(securityHeaderRoutes({ development: false }).flatMap((route) => route.headers.map((h) => h.key))),
    ].sort((a, b) => (a === "Content-Security-Policy" ? -1 : b === "Content-Security-Policy" ? 1 : 0));
    expect(names).toEqual([
      "Content-Security-Policy",
      "Strict-Transport-Security",
      "X-Frame-Options",
      "X-Content-Type-Options",
      "Referrer-Policy",
      "Permissions-Policy",
      "Cross-Origin-Opener-Policy",
    ]);
  });
});
