import { timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import { EMBEDDED_CRON_SECRET } from "@/supabase/embedded/keys";
import { deliverQueuedMail } from "@/lib/mail/adapter";
import { createAdminClient } from "@/lib/supabase/admin";

// Vercel Cron (vercel.json) calls this with `Authorization: Bearer $CRON_SECRET`.
// It draws or closes every competition past its close time, then delivers the
// mail those draws (and anything else) queued.
export const dynamic = "force-dynamic";

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

export async function GET(request: Request) {
  const secret = cronSecret();
  if (!secret) return Response.json({ error: "CRON_SECRET is not set" }, { status: 503 });
  if (!authorised(request.headers.get("authorization"), secret)) {
    return Response.json({ error: "Unauthorized" }, { status: 401 });
  }
  const supabase = createAdminClient();
  const { data, error } = await supabase.rpc("run_due_draws");
  if (error) {
    console.error("run_due_draws failed", error);
    return Response.json({ error: error.message }, { status: 500 });
  }
  const draws = data as { drawn: Array<{ competition_id: string; draw_id: string }>; closed: string[] };
  let mail;
  try {
    mail = await deliverQueuedMail(supabase);
  } catch (e) {
    console.error("mail delivery failed", e);
    mail = { error: (e as Error).message };
  }
  return Response.json({ ok: true, drawn: draws.drawn, closed: draws.closed, mail });
}
