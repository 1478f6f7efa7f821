import { createServer, type AddressInfo } from "node:net";

/**
 * A port nothing uses now, from the kernel, for a spec's own second server. A fixed port can be taken mid-run:
 * the suite's own connections get their source ports from the same range.
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
