// Which session cookies @supabase/ssr cannot read (it warns with a stack trace for each, every time it reads one):
// the proxy drops exactly those, and ssr's own encoding of a real session passes.
import { stringToBase64URL } from "@supabase/ssr";
import { describe, expect, it } from "vitest";
import { unreadableAuthCookies } from "@/lib/supabase/unreadable-cookies";

const KEY = "sb-127-auth-token";
const session = `base64-${stringToBase64URL(JSON.stringify({ access_token: "a", refresh_token: "r" }))}`;

describe("unreadableAuthCookies", () => {
  it("passes a session as ssr writes it, whole or in chunks, and cookies that are not auth storage", () => {
    expect(unreadableAuthCookies([{ name: KEY, value: session }])).toEqual([]);
    expect(
      unreadableAuthCookies([
        { name: `${KEY}.1`, value: session.slice(20) },
        { name: `${KEY}.0`, value: session.slice(0, 20) },
      ]),
    ).toEqual([]);
    // Not ssr's encoding: ssr hands it to auth-js as it is, which finds no session and says nothing.
    expect(unreadableAuthCookies([{ name: KEY, value: "junk" }])).toEqual([]);
    expect(unreadableAuthCookies([{ name: "theme", value: "base64-%%%" }])).toEqual([]);
  });

  it("names every cookie of a key whose value does not decode to JSON", () => {
    expect(unreadableAuthCookies([{ name: KEY, value: "base64-junk" }])).toEqual([KEY]);
    expect(unreadableAuthCookies([{ name: KEY, value: `base64-${stringToBase64URL("{not json")}` }])).toEqual([KEY]);
    // Chunks of two writes mixed.
    const other = `base64-${stringToBase64URL(JSON.stringify({ access_token: "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" }))}`;
    expect(
      unreadableAuthCookies([
        { name: `${KEY}.0`, value: session.slice(0, 30) },
        { name: `${KEY}.1`, value: other.slice(31) },
      ]),
    ).toEqual([`${KEY}.0`, `${KEY}.1`]);
    expect(unreadableAuthCookies([{ name: `${KEY}-code-verifier`, value: "base64-!!" }])).toEqual([
      `${KEY}-code-verifier`,
    ]);
  });
});
