import { env } from "@/lib/env";

/**
 * The session cookie's attributes beyond @supabase/ssr's defaults (spec §9: 400 days, path /,
 * SameSite lax, not HttpOnly): `Secure` whenever the site is served over HTTPS, so a session is
 * never sent over plain http. Behind Vercel or any proxy the request's scheme is in
 * X-Forwarded-Proto; a configured https SITE_URL settles it either way.
 */
export function sessionCookieOptions(forwardedProto: string | null): { secure: boolean } {
  const siteIsHttps = env().SITE_URL?.startsWith("https://") ?? false;
  const requestIsHttps = forwardedProto?.split(",")[0]?.trim().toLowerCase() === "https";
  return { secure: siteIsHttps || requestIsHttps };
}
