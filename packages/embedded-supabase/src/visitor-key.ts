// Who counts as one visitor for a per-visitor limit. Keying on an address's exact text would make every
// spelling of one address (`2001:db8::1`, `2001:0db8:0::0001`) and every address of one IPv6 network a new
// visitor: a single home or server is given a whole /64 (2^64 addresses), so a limit per IPv6 address limits
// nobody. The key is therefore an IPv4 address as it is (an IPv4-mapped IPv6 address is its IPv4 address),
// and for IPv6 the first address of its /64, written canonically. The key is itself an address, so it can be
// forwarded wherever an address is expected (hosted Supabase reads `Sb-Forwarded-For` as one).
import { isIP } from "node:net";

/** The eight 16-bit groups of an IPv6 address `isIP` accepts (without a zone). */
function ipv6Groups(address: string): number[] {
  // An IPv4 tail (`::ffff:192.0.2.1`) is the last two groups.
  const text = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((g) => g.toString(16)).join(":"),
  );
  const [head, tail] = text.split("::");
  const before = head ? head.split(":") : [];
  const after = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill("0");
  return [...before, ...zeros, ...after].map((group) => parseInt(group, 16));
}

/** Groups as RFC 5952 writes them: lower case, no leading zeros, the longest run of two or more zero groups as `::`. */
function canonicalIpv6(groups: number[]): string {
  let best = { at: -1, length: 1 };
  for (let at = 0; at < 8;) {
    let length = 0;
    while (at + length < 8 && groups[at + length] === 0) length++;
    if (length > best.length) best = { at, length };
    at += Math.max(length, 1);
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(":");
  return `${hex.slice(0, best.at).join(":")}::${hex.slice(best.at + best.length).join(":")}`;
}

/**
 * The visitor key of an address: an IPv4 address as is, an IPv4-mapped IPv6 address as its IPv4 address,
 * any other IPv6 address as the first address of its /64; null for anything that is not an address (a
 * value such as `unknown` must never put everyone who sends it into one bucket).
 */
export function visitorKey(value: string | null | undefined): string | null {
  const text = value?.trim() ?? "";
  const kind = isIP(text);
  if (kind === 4) return text;
  if (kind !== 6) return null;
  const groups = ipv6Groups(text.replace(/%.*$/, "").toLowerCase());
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  return canonicalIpv6([...groups.slice(0, 4), 0, 0, 0, 0]);
}
