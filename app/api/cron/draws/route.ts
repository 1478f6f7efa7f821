import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { DbError } from "@/lib/data/errors";
import { callRpcWith } from "@/lib/data/rpc";
import { env } from "@/lib/env";
import { deliverQueuedMail } from "@/lib/mail/adapter";
import { createAdminClient } from "@/lib/supabase/admin";
import { EMBEDDED_CRON_SECRET } from "@/supabase/embedded/keys";

// Vercel Cron (vercel.json) calls this with `Authorization: Bearer $CRON_SECRET`.
// It draws or closes every competition past its close time, raises any new
// player-protection flags (code of practice 1.6), then delivers the mail those
// draws (and anything else) queued.
export const dynamic = "force-dynamic";

const dueDrawsSchema = z.object({
  drawn: z.array(z.object({ competition_id: z.string().uuid(), draw_id: z.string().uuid() })),
  closed: z.array(z.string().uuid()),
});

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
  let draws: z.infer<typeof dueDrawsSchema>;
  try {
    draws = await callRpcWith(supabase, "run_due_draws", {}, dueDrawsSchema);
  } catch (e) {
    console.error("run_due_draws failed", e);
    return Response.json({ error: e instanceof DbError ? e.message : "run_due_draws failed" }, { status: 500 });
  }
  // A failure here is logged and reported, never stops the draws' mail.
  let flags: { raised: number } | { error: string };
  try {
    flags = await callRpcWith(supabase, "raise_player_flags", {}, z.object({ raised: z.number().int() }));
  } catch (e) {
    console.error("raise_player_flags failed", e);
    flags = { error: e instanceof DbError ? e.message : "raise_player_flags failed" };
  }
  let mail;
  try {
    mail = await deliverQueuedMail(supabase);
  } catch (e) {
    console.error("mail delivery failed", e);
    mail = { error: (e as Error).message };
  }
  return Response.json({ ok: true, drawn: draws.drawn, closed: draws.closed, flags, mail });
}
