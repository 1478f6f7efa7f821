import { NextRequest } from "next/server";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { config, proxy } from "@/proxy";
import { HANDED_ON_HEADER, handOn, handedOnFrom, type HandedOn } from "@/lib/auth/handed-on";
import type { MyAccount } from "@/lib/data/account-schema";
import { APP_DIR, appPageFiles, pageUrl } from "./support/app-pages";

// The proxy hands the page the account it read (docs/decisions/039). A client must never be able to forge it.

const SITE = "https://labcash.example";
const forged: HandedOn = { aal: "aal2", account: { name: "Forged", role: "super_admin" } as MyAccount };
const forgedHeader = Buffer.from(JSON.stringify(forged)).toString("base64url");

/** The request headers the proxy's answer forwards to the page (NextResponse.next({ request })). */
function forwarded(response: Response): Headers {
  const names = response.headers.get("x-middleware-override-headers")?.split(",") ?? [];
  const headers = new Headers();
  for (const name of names) headers.set(name, response.headers.get(`x-middleware-request-${name}`) ?? "");
  return headers;
}

describe("the handed-on account", () => {
  it("round-trips any name through a header value", () => {
    const request = new NextRequest(`${SITE}/account`);
    const value: HandedOn = { aal: "aal1", account: { name: "Zoë Ångström 李" } as MyAccount };
    handOn(request, value);
    expect(handedOnFrom(request.headers)).toEqual(value);
  });

  it("is not handed on to a server action or a form post, which render the page again after they change things", () => {
    const action = new NextRequest(`${SITE}/credit`, { headers: { "next-action": "abc" } });
    handOn(action, forged);
    const post = new NextRequest(`${SITE}/account/profile`, { method: "POST" });
    handOn(post, forged);
    expect([handedOnFrom(action.headers), handedOnFrom(post.headers)]).toEqual([null, null]);
  });

  it.each([
    ["signed out, on a page that needs no session", "/pricing", {}],
    ["with a session cookie that does not verify", "/complaints", { cookie: "sb-x-auth-token=junk" }],
  ])("is dropped from a client's request by the proxy (%s)", async (_, pathname, headers) => {
    const response = await proxy(
      new NextRequest(`${SITE}${pathname}`, { headers: { ...headers, [HANDED_ON_HEADER]: forgedHeader } }),
    );
    expect(response.status).toBe(200);
    const onward = forwarded(response);
    expect(onward.has("x-request-id")).toBe(true); // the proxy did forward the request's headers
    expect(handedOnFrom(onward)).toBeNull();
  });

  it("is read only by pages on paths the proxy runs on, which drops a client's copy", () => {
    // Every page that calls the signed-in helpers (requireUser, requireUserAnd, requireAdmin, requireSuperAdmin),
    // itself or in a layout above it.
    const callsHelper = (file: string) => {
      try {
        return /\brequire(User|UserAnd|Admin|SuperAdmin)\(/.test(readFileSync(path.join(APP_DIR, file), "utf8"));
      } catch {
        return false; // no layout at this level
      }
    };
    const guarded = appPageFiles().filter((file) => {
      const dirs = path.dirname(file).split("/");
      return callsHelper(file) || dirs.some((_, i) => callsHelper(path.join(...dirs.slice(0, i + 1), "layout.tsx")));
    });
    expect(guarded.length).toBeGreaterThan(10);
    const urls = guarded.map(pageUrl);
    expect(urls).toContain("/account/entries");
    const unmatched = urls.filter((url) => !unstable_doesMiddlewareMatch({ config, url }));
    expect(unmatched).toEqual([]);
  });
});
