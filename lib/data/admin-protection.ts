import "server-only";
import { z } from "zod";
import type { EnumValue } from "@/lib/labels";
import type { InterventionKind } from "./admin-protection-options";
import { declared } from "./rpc";
import { callRpc } from "./server-rpc";

// Player protection (code of practice 1.6, 1.7): the flags SQL raises, their review and the
// intervention record (supabase/migrations/*_player_protection.sql). Admins only; the SQL checks every call and
// raises new flags as the queue is read.

export * from "./admin-protection-options";

/** What the SQL saw (sums, dates, the limit), per kind: a jsonb field of the declared flag, read with zod. */
const flagDetails = z.record(z.string(), z.unknown());

/** What public.player_flag always fills; `details` is read with zod (see `withDetails`). */
const flag = declared("id", "user", "kind", "details", "raised_at", "status").with({
  user: declared("id", "name"),
});
const withDetails = <F extends { details: unknown }>(f: F) => ({ ...f, details: flagDetails.parse(f.details) });

/** The review queue (open flags, oldest first) or the reviewed ones (latest first). */
export const listPlayerFlags = async (status: EnumValue<"flag_status">, limit = 100) =>
  (await callRpc("admin_list_player_flags", { p_status: status, p_limit: limit }, flag)).map(withDetails);
export type PlayerFlag = Awaited<ReturnType<typeof listPlayerFlags>>[number];

/** One player's restriction (since when, or null), their 50 latest flags and 50 latest interventions. */
export const getPlayerProtection = async (userId: string) => {
  const record = await callRpc(
    "admin_get_player_protection",
    { p_user_id: userId },
    declared("flags", "interventions").with({
      flags: flag,
      interventions: declared("id", "user_id", "kind", "note", "created_at"),
    }),
  );
  return { ...record, flags: record.flags.map(withDetails) };
};
export type PlayerProtectionRecord = Awaited<ReturnType<typeof getPlayerProtection>>;

/** Marks a flag reviewed with a note, optionally recording an intervention with it. */
export const reviewPlayerFlag = async (flagId: string, note: string, intervention: InterventionKind | null) =>
  withDetails(
    await callRpc("admin_review_player_flag", { p_flag_id: flagId, p_note: note, p_intervention: intervention }, flag),
  );

/** Records (and applies) an intervention on a player. */
export const recordIntervention = (userId: string, kind: InterventionKind, note: string) =>
  callRpc(
    "admin_record_intervention",
    { p_user_id: userId, p_kind: kind, p_note: note },
    declared("id", "user_id", "kind", "note", "created_at"),
  );
