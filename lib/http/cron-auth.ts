import "server-only";
import { timingSafeEqual } from "node:crypto";
import { EMBEDDED_CRON_SECRET, env } from "@/lib/env";

function cronSecret(): string | null {
  const { CRON_SECRET, supabase } = env();
  if (CRON_SECRET) return CRON_SECRET;
  // Only the embedded development backend has a default; production must set CRON_SECRET.
  return supabase.embedded ? EMBEDDED_CRON_SECRET : null;
}

function authorised(header: string | null, secret: string): boolean {
  const given = Buffer.from(header ?? "");
  const wanted = Buffer.from(`Bearer ${secret}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** The refusal for a /api/cron/* request without `Authorization: Bearer $CRON_SECRET`, or null when it has it. */
export function refuseWithoutCronSecret(request: Request): Response | null {
  const secret = cronSecret();
  if (!secret) return Response.json({ error: "CRON_SECRET is not set" }, { status: 503 });
  if (!authorised(request.headers.get("authorization"), secret)) {
    return Response.json({ error: "Unauthorized" }, { status: 401 });
  }
  return null;
}
