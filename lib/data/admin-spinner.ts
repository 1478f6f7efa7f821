import "server-only";
import { z } from "zod";
import type { SegmentInput } from "@/lib/spinner/wheel-fields";
import { callRpc } from "./server-rpc";
import { spinCreditsSchema, spinSchema, wheelSchema } from "./spinner";

// The LabSpinner admin screen and the spins part of /admin/users/{id} (issue 12 item 4 and the free route;
// supabase/migrations/*_labspinner.sql). Admins only: every function checks the role again. The odds, the
// expected prize per spin and the spin credits are the SQL's figures; this module only reads them. The wheel,
// spin and spin-credit shapes are the player's (./spinner.ts).

const count = z.coerce.number().int();

const adminSpinnerSchema = z.object({
  enabled: z.boolean(),
  wheel: wheelSchema.extend({ created_at: z.string(), created_by_email: z.string().nullable() }),
  /** Spins per segment on the live wheel (older versions had other weights). */
  observed: z.array(z.object({ position: z.number().int(), count })),
  /** Spins on the live wheel. */
  spins: count,
  /** The last 10 versions, newest first. */
  versions: z.array(
    z.object({ wheel_id: count, created_at: z.string(), created_by_email: z.string().nullable(), spins: count }),
  ),
  /** The last 20 postal requests, newest first. */
  recent_grants: z.array(
    z.object({
      id: count,
      user_id: z.string().uuid(),
      email: z.string().nullable(),
      reference: z.string(),
      created_at: z.string(),
      created_by_email: z.string().nullable(),
    }),
  ),
});
export type AdminSpinner = z.infer<typeof adminSpinnerSchema>;

/** Everything /admin/labspinner shows: the live wheel, on/off, observed spins, versions and postal grants. */
export const getAdminSpinner = () => callRpc("admin_get_spinner", {}, adminSpinnerSchema);

/**
 * Saves the segments as a new wheel version (it applies to spins after it only); answers the new wheel. A bad
 * segment is refused as invalid_input with the field in the error's detail (`segments.<n>.<field>`).
 */
export const updateSpinnerWheel = (segments: SegmentInput[]) =>
  callRpc("admin_update_spinner_wheel", { p_segments: segments }, wheelSchema);

/** Records a postal request for a player: one spin credit, a confirmation e-mail; answers their credits after. */
export const recordSpinRequest = (userId: string, reference: string) =>
  callRpc(
    "admin_record_spin_request",
    { p_user_id: userId, p_reference: reference },
    z.object({ grant_id: count, user_id: z.string().uuid(), reference: z.string(), credits: spinCreditsSchema }),
  );

const userSpinsSchema = z.object({
  credits: spinCreditsSchema,
  /** The last 20 spins, newest first. */
  spins: z.array(spinSchema),
  /** The last 20 postal grants, newest first. */
  grants: z.array(z.object({ id: count, reference: z.string(), created_at: z.string() })),
});
export type UserSpins = z.infer<typeof userSpinsSchema>;

/** One player's spin credits, last spins and postal grants (/admin/users/{id}). */
export const getUserSpins = (userId: string) => callRpc("admin_user_spins", { p_user_id: userId }, userSpinsSchema);
