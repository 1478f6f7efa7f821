// The one function that turns a request into its visitor (lib/supabase/visitor-fetch.ts visitorKeyFrom): the
// entry of the configured header that the proxy in front wrote, counted from the right, as a visitor key.
import { describe, expect, it } from "vitest";
import { visitorKeyFrom } from "@/lib/supabase/visitor-fetch";

const XFF = { header: "x-forwarded-for", hops: 1 };
const from = (value: string, source = XFF) => visitorKeyFrom(new Headers({ [source.header]: value }), source);

describe("visitorKeyFrom", () => {
  it("takes the entry the proxy appended, whatever the client wrote before it", () => {
    // The probe's 120 password guesses: a new first entry each time, the proxy's own entry the same.
    const keys = new Set(Array.from({ length: 120 }, (_, n) => from(`10.0.${n >> 8}.${n & 255}, 203.0.113.9`)));
    expect([...keys]).toEqual(["203.0.113.9"]);
    expect(from("unknown, 203.0.113.9")).toBe("203.0.113.9");
    expect(from("203.0.113.9")).toBe("203.0.113.9");
  });

  it("counts hops from the right when a second proxy of ours appends after the first", () => {
    const twoProxies = { header: "x-forwarded-for", hops: 2 };
    expect(from("198.51.100.1, 203.0.113.9, 10.0.0.2", twoProxies)).toBe("203.0.113.9");
    expect(from("66.66.66.66, 198.51.100.1, 203.0.113.9, 10.0.0.2", twoProxies)).toBe("203.0.113.9");
    // Fewer entries than hops: the chain is not what the setting says, so no visitor key rather than a guess.
    expect(from("10.0.0.2", twoProxies)).toBeNull();
  });

  it("keys IPv6 by its /64 and every spelling alike", () => {
    expect(from("2001:db8::1")).toBe("2001:db8::");
    expect(from("1.2.3.4, 2001:0db8:0::0001")).toBe("2001:db8::");
    expect(from("2001:db8::ffff:1")).toBe("2001:db8::");
    expect(from("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  it("ignores what is not an address, and a missing header", () => {
    expect(from("unknown")).toBeNull();
    expect(from("203.0.113.9, unknown")).toBeNull();
    expect(visitorKeyFrom(new Headers(), XFF)).toBeNull();
    // Another header named: X-Forwarded-For is nobody's word then.
    const realIp = { header: "x-real-ip", hops: 1 };
    expect(visitorKeyFrom(new Headers({ "x-forwarded-for": "198.51.100.7" }), realIp)).toBeNull();
    expect(visitorKeyFrom(new Headers({ "x-real-ip": "198.51.100.7", "x-forwarded-for": "1.1.1.1" }), realIp)).toBe(
      "198.51.100.7",
    );
  });
});
