import "server-only";
import { z } from "zod";
import { ENUM_VALUES, type EnumValue } from "@/lib/labels";
import { FLAG_KINDS, INTERVENTION_KINDS, type InterventionKind } from "./admin-protection-options";
import { declared } from "./rpc";
import { callRpc } from "./server-rpc";

// Player protection (issue 11 item 9; code of practice 1.6, 1.7): the flags SQL raises, their review and the
// intervention record (supabase/migrations/*_player_protection.sql). Admins only; the SQL checks every call and
// raises new flags as the queue is read.

export * from "./admin-protection-options";

const flagSchema = z.object({
  id: z.string().uuid(),
  user: z.object({ id: z.string().uuid(), name: z.string(), email: z.string().nullable() }),
  kind: z.enum(FLAG_KINDS),
  /** What the SQL saw (sums, dates, the limit), per kind. */
  details: z.record(z.string(), z.unknown()),
  raised_at: z.string(),
  status: z.enum(ENUM_VALUES.flag_status),
  reviewed_at: z.string().nullable(),
  reviewed_by_name: z.string().nullable(),
  review_note: z.string().nullable(),
  intervention_kind: z.enum(INTERVENTION_KINDS).nullable(),
});
export type PlayerFlag = z.infer<typeof flagSchema>;

/** An intervention as admin_get_player_protection nests it (admin_record_intervention returns the declared type). */
const interventionSchema = z.object({
  id: z.string().uuid(),
  user_id: z.string().uuid(),
  kind: z.enum(INTERVENTION_KINDS),
  note: z.string(),
  flag_id: z.string().uuid().nullable(),
  created_at: z.string(),
  created_by_name: z.string().nullable(),
});
export type PlayerIntervention = z.infer<typeof interventionSchema>;

/** The review queue (open flags, oldest first) or the reviewed ones (latest first). */
export const listPlayerFlags = (status: EnumValue<"flag_status">, limit = 100) =>
  callRpc("admin_list_player_flags", { p_status: status, p_limit: limit }, z.array(flagSchema));

const protectionSchema = z.object({
  restricted_at: z.string().nullable(),
  flags: z.array(flagSchema),
  interventions: z.array(interventionSchema),
});
export type PlayerProtectionRecord = z.infer<typeof protectionSchema>;

/** One player's flags, interventions and restriction. */
export const getPlayerProtection = (userId: string) =>
  callRpc("admin_get_player_protection", { p_user_id: userId }, protectionSchema);

/** Marks a flag reviewed with a note, optionally recording an intervention with it. */
export const reviewPlayerFlag = (flagId: string, note: string, intervention: InterventionKind | null) =>
  callRpc("admin_review_player_flag", { p_flag_id: flagId, p_note: note, p_intervention: intervention }, flagSchema);

/** Records (and applies) an intervention on a player. */
export const recordIntervention = (userId: string, kind: InterventionKind, note: string) =>
  callRpc(
    "admin_record_intervention",
    { p_user_id: userId, p_kind: kind, p_note: note },
    declared("id", "user_id", "kind", "note", "created_at"),
  );
