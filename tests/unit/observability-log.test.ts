// Structured logs: one JSON line per event, never a secret, password, token or card number.
import { describe, expect, it } from "vitest";
import { logLine, scrub } from "@/lib/observability/log";
import { requestIdFrom, requestIdOfNewest, requestIdTiming } from "@/lib/observability/request-id";
import { refusalKind } from "@/lib/observability/auth-refusals";
import { tracingWanted, withoutSecrets } from "@/lib/observability/telemetry";

describe("log lines", () => {
  it("are one line of JSON with the time, level, event and fields", () => {
    const line = logLine("info", "cron_run", { request_id: "req-12345678", drawn: 2 });
    expect(line).not.toContain("\n");
    expect(JSON.parse(line)).toMatchObject({ level: "info", event: "cron_run", request_id: "req-12345678", drawn: 2 });
    expect(new Date(JSON.parse(line).time).getTime()).not.toBeNaN();
  });

  it("redact fields named for secrets, at any depth", () => {
    const parsed = JSON.parse(
      logLine("error", "x", {
        password: "Hunter2-pass",
        headers: { authorization: "Bearer abc", cookie: "sb-access-token=1", "x-request-id": "keep-me-1" },
        card: { number: "4242424242424242", cvc: "123" },
        apiKey: "k",
        secret: "s",
        refresh_token: "t",
      }),
    );
    expect(parsed.password).toBe("[redacted]");
    expect(parsed.headers).toEqual({ authorization: "[redacted]", cookie: "[redacted]", "x-request-id": "keep-me-1" });
    expect(parsed.card).toBe("[redacted]");
    expect(parsed.apiKey).toBe("[redacted]");
    expect(parsed.secret).toBe("[redacted]");
    expect(parsed.refresh_token).toBe("[redacted]");
  });

  it("scrub tokens, keys, card numbers and URL passwords out of any text, error messages included", () => {
    const text = scrub(
      "card 4242 4242 4242 4242 and 5555-5555-5555-4444, jwt eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl, " +
        "keys sb_secret_abcdefghijk sk_live_123456789 whsec_abcdefgh, Bearer abc.def, smtps://user:pa55word@smtp.example:465",
    );
    for (const leaked of ["4242", "5555", "eyJ", "sb_secret_abc", "sk_live_1", "whsec_abc", "abc.def", "pa55word"])
      expect(text).not.toContain(leaked);
    const error = JSON.parse(
      logLine("error", "x", { error: new Error("login failed for token eyJaaaaaa.bbbbbbb.ccccccc") }),
    );
    expect(error.error.name).toBe("Error");
    expect(error.error.message).toBe("login failed for token [token removed]");
  });

  it("keep ordinary numbers and ids", () => {
    expect(scrub("drawn 3 competitions, reference 123456, ticket 42")).toBe(
      "drawn 3 competitions, reference 123456, ticket 42",
    );
  });
});

describe("request ids", () => {
  it("take ours, else Vercel's, and only safe characters", () => {
    expect(requestIdFrom(new Headers({ "x-request-id": "abc-12345678" }))).toBe("abc-12345678");
    expect(requestIdFrom({ "x-vercel-id": "lhr1::iad1::abcde-1700000000000-1234" })).toBe(
      "lhr1::iad1::abcde-1700000000000-1234",
    );
    expect(requestIdFrom(new Headers({ "x-request-id": "<script>alert(1)</script>" }))).toBeNull();
    expect(requestIdFrom(new Headers())).toBeNull();
  });

  it("reach the browser as a Server-Timing entry, and the newest answer for the page shown is the reference", () => {
    expect(requestIdTiming("lhr1::abc-123")).toBe('request;desc="lhr1::abc-123"');
    const origin = "https://labcash.test";
    const timed = (name: string, responseEnd: number, id?: string) => ({
      name,
      responseEnd,
      serverTiming: id
        ? [
            { name: "cdn", description: "hit" },
            { name: "request", description: id },
          ]
        : [],
    });
    const entries = [
      timed(`${origin}/error-test`, 100, "document-1234"),
      timed(`${origin}/error-test?_rsc=abc`, 900, "navigation-5678"),
      // Later answers for other pages (an island's /api call), another site, or none with an id: not the failure.
      timed(`${origin}/api/account`, 950, "island-12345"),
      timed(`https://elsewhere.test/error-test`, 990, "other-site-1"),
      timed(`${origin}/error-test`, 995),
    ];
    expect(requestIdOfNewest(entries, "/error-test", origin)).toBe("navigation-5678");
    expect(requestIdOfNewest(entries.slice(0, 1), "/error-test", origin)).toBe("document-1234");
    expect(requestIdOfNewest(entries, "/competitions", origin)).toBeNull();
    // Nothing unsafe is shown, and a browser that keeps Server-Timing back (no HTTPS) gives none.
    expect(requestIdOfNewest([timed(`${origin}/x`, 1, "<b>bad</b>")], "/x", origin)).toBeNull();
    expect(requestIdOfNewest([{ name: `${origin}/x`, responseEnd: 1 }], "/x", origin)).toBeNull();
  });
});

describe("auth refusals", () => {
  it("count wrong passwords and codes, and the limits, and nothing else", () => {
    expect(refusalKind("sign_in", "invalid_credentials")).toBe("sign_in");
    expect(refusalKind("sign_in", "otp_expired")).toBe("sign_in");
    expect(refusalKind("sign_in", "over_request_rate_limit")).toBe("sign_in_limited");
    expect(refusalKind("code", "mfa_verification_failed")).toBe("code");
    expect(refusalKind("code", "over_request_rate_limit")).toBe("code_limited");
    expect(refusalKind("code", "mfa_verification_rejected")).toBe("code_limited");
    expect(refusalKind("sign_in", "email_not_confirmed")).toBeNull();
  });
});

describe("tracing", () => {
  it("is on on Vercel or with an OTLP endpoint, off otherwise", () => {
    expect(tracingWanted({ VERCEL: true, OTEL_EXPORTER_OTLP_ENDPOINT: undefined })).toBe(true);
    expect(tracingWanted({ VERCEL: false, OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example:4318" })).toBe(true);
    expect(tracingWanted({ VERCEL: false, OTEL_EXPORTER_OTLP_ENDPOINT: undefined })).toBe(false);
  });
});

describe("Sentry events", () => {
  it("keep the request's method, URL and plain headers, never its cookies, body or secret headers", () => {
    const event = withoutSecrets({
      type: undefined,
      event_id: "e1",
      request: {
        method: "POST",
        url: "https://labcash.test/api/x?token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
        headers: {
          "user-agent": "Firefox",
          "x-request-id": "req-12345678",
          cookie: "sb-auth-token=abc",
          Authorization: "Bearer abc.def.ghi",
          apikey: "sb_secret_abcdefghijkl",
        },
        cookies: { "sb-auth-token": "abc" },
        data: { password: "hunter2" },
      },
    });
    expect(event.event_id).toBe("e1");
    expect(event.request).toEqual({
      method: "POST",
      url: "https://labcash.test/api/x?token=[token removed]",
      headers: { "user-agent": "Firefox", "x-request-id": "req-12345678" },
    });
  });
});
