import { z } from "zod";
import { DbError } from "@/lib/data/errors";
import { callRpcWith } from "@/lib/data/rpc";
import { revalidateCompetitionPages } from "@/lib/cache/public-pages";
import { deliverQueuedMail } from "@/lib/mail/adapter";
import { createAdminClient } from "@/lib/supabase/admin";
import { defineRoute } from "@/lib/http/define-route";

// Vercel Cron (vercel.json) calls this with `Authorization: Bearer $CRON_SECRET`.
// It draws or closes every competition past its close time, raises any new
// player-protection flags (code of practice 1.6), then delivers the mail those
// draws (and anything else) queued.
export const dynamic = "force-dynamic";

const dueDrawsSchema = z.object({
  drawn: z.array(z.object({ competition_id: z.string().uuid(), draw_id: z.string().uuid() })),
  closed: z.array(z.string().uuid()),
});

async function get() {
  const supabase = createAdminClient();
  let draws: z.infer<typeof dueDrawsSchema>;
  try {
    draws = await callRpcWith(supabase, "run_due_draws", {}, dueDrawsSchema);
  } catch (e) {
    console.error("run_due_draws failed", e);
    return Response.json({ error: e instanceof DbError ? e.message : "run_due_draws failed" }, { status: 500 });
  }
  // The winners and the closed competitions show on the public pages at once.
  if (draws.drawn.length > 0 || draws.closed.length > 0) revalidateCompetitionPages();
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

export const GET = defineRoute({ kind: "json", auth: "cron" }, get);
