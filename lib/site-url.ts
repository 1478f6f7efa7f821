import "server-only";
import { headers } from "next/headers";
import { env } from "@/lib/env";

/**
 * The canonical origin, for sitemap.xml, robots.txt and Open Graph URLs (metadataBase): SITE_URL,
 * or without it (development) the local server.
 */
export function canonicalOrigin(): string {
  const { SITE_URL, PORT } = env();
  return SITE_URL ?? `http://localhost:${PORT}`;
}

/**
 * The origin the visitor used, from the request's headers (SITE_URL wins). Next's own
 * request.url names the host it listens on (localhost), which is wrong for links and
 * for comparing redirect targets.
 */
export function originFromHeaders(get: (name: string) => string | null): string {
  const configured = env().SITE_URL;
  if (configured) return configured;
  const host = get("x-forwarded-host") ?? get("host") ?? "localhost:3000";
  const local = host.startsWith("localhost") || host.startsWith("127.");
  const proto = get("x-forwarded-proto") ?? (local ? "http" : "https");
  return `${proto}://${host}`;
}

/** This site's origin for the current request, for links in e-mails. */
export async function siteUrl(): Promise<string> {
  const h = await headers();
  return originFromHeaders((name) => h.get(name));
}
