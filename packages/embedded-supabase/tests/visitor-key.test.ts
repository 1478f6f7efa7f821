// One visitor, one key: every spelling of an address, and every address of one IPv6 /64, is the same visitor;
// what is not an address is no visitor at all (never one bucket shared by everyone who sends `unknown`).
import { describe, expect, it } from "vitest";
import { visitorKey } from "../src/visitor-key";

describe("visitorKey", () => {
  it.each([
    ["192.0.2.1", "192.0.2.1"],
    [" 192.0.2.1 ", "192.0.2.1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["::FFFF:c000:201", "192.0.2.1"],
    ["0:0:0:0:0:ffff:192.0.2.1", "192.0.2.1"],
    ["2001:db8::1", "2001:db8::"],
    ["2001:0db8:0::0001", "2001:db8::"],
    ["2001:DB8:0:0:FFFF:FFFF:FFFF:FFFF", "2001:db8::"],
    ["2001:db8:0:0:1:2:3:4", "2001:db8::"],
    ["2001:db8:0:1::1", "2001:db8:0:1::"],
    ["2001:db8:aaaa:bbbb:cccc:dddd:eeee:ffff", "2001:db8:aaaa:bbbb::"],
    ["2001:db8::192.0.2.1", "2001:db8::"],
    ["fe80::1%eth0", "fe80::"],
    ["::1", "::"],
    ["1:0:0:1::", "1:0:0:1::"],
  ])("%s is the visitor %s", (address, key) => {
    expect(visitorKey(address)).toBe(key);
  });

  it.each([
    ["unknown"],
    [""],
    ["   "],
    ["192.0.2.1:443"],
    ["[2001:db8::1]"],
    ["010.0.0.1"],
    ["2001:db8::/64"],
    [null],
    [undefined],
  ])("%s is not an address: no key", (value) => {
    expect(visitorKey(value)).toBeNull();
  });
});
