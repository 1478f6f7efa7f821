// How the push sender reaches a push service without being turned against our own network. A subscription's
// endpoint is a URL a browser (or anyone who can call save_push_subscription) chose: SQL keeps it on the known
// push services, and here, before each send, the name must resolve to public addresses only, and the request
// goes to the very address that was checked. Resolving once to check and letting the HTTP client resolve again
// to connect would let a name answer a public address to the check and 127.0.0.1 to the connection (DNS
// rebinding).
import { lookup } from "node:dns/promises";
import { Agent, type AgentOptions } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";

/** Where the sender resolves names and how it connects to a checked address (tests stand in for the internet). */
export interface PushNetwork {
  /** Every address `hostname` resolves to. */
  resolve(hostname: string): Promise<string[]>;
  /** An agent whose every connection goes to `address` (the URL's host still names the TLS server and is checked). */
  agentTo(address: string): Agent;
}

/** IPv4 ranges that are not the public internet (IANA special-purpose registry): private, loopback, link-local, … */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
// IPv6: only global unicast (2000::/3), less the parts of it that are not a host on the internet or that carry
// an IPv4 address inside (Teredo and the other IETF assignments, documentation, 6to4).
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet("2000::", 3, "ipv6");
for (const [network, prefix] of [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");

/** Whether `address` is a host on the public internet (never loopback, private, link-local, multicast, …). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, "ipv4");
  if (family === 6) return GLOBAL_UNICAST.check(address, "ipv6") && !NON_PUBLIC.check(address, "ipv6");
  return false;
}

/** A `lookup` that answers `address` whatever name it is asked about. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** An https agent whose connections all go to `address`: the address that was checked is the one connected to. */
export function pinnedAgent(address: string, options: AgentOptions = {}): Agent {
  return new Agent({ ...options, lookup: pinnedLookup(address) });
}

/** The real internet: the system's resolver (as the HTTP client would use), connections pinned to the checked address. */
export const internet: PushNetwork = {
  resolve: async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address),
  agentTo: (address) => pinnedAgent(address),
};

/**
 * The address to send to for `endpoint`, or why not: the endpoint must be on a push service
 * (`isPushServiceEndpoint`, checked by the caller) and every address its name resolves to public. All of
 * them, not just one: a name that answers a private address at all is not a push service's.
 */
export async function checkedAddress(
  hostname: string,
  network: PushNetwork,
): Promise<{ address: string } | { refused: string }> {
  let addresses: string[];
  try {
    addresses = await network.resolve(hostname);
  } catch {
    return { refused: "does not resolve" };
  }
  if (addresses.length === 0) return { refused: "does not resolve" };
  const inside = addresses.find((a) => !isPublicAddress(a));
  if (inside !== undefined) return { refused: `resolves to a non-public address (${inside})` };
  return { address: addresses[0] };
}
