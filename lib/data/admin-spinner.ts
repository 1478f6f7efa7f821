import "server-only";
import { z } from "zod";
import { LABEL_COLOURS, type SegmentInput } from "@/components/admin/spinner/wheel-fields";
import { callRpc } from "./server-rpc";

// The LabSpinner admin screen and the spins part of /admin/users/{id} (issue 12 item 4 and the free route;
// supabase/migrations/*_labspinner.sql). Admins only: every function checks the role again. The odds, the
// expected prize per spin and the spin credits are the SQL's figures; this module only reads them.

const count = z.coerce.number().int();
const credits = z.coerce.number();

const segmentSchema = z.object({
  position: z.number().int(),
  label: z.string(),
  colour: z.string(),
  label_colour: z.enum(LABEL_COLOURS),
  prize_credits: credits,
  weight: count,
  /** weight / total weight, to 6 places. */
  probability: z.coerce.number(),
});
export type WheelSegment = z.infer<typeof segmentSchema>;

const wheelSchema = z.object({
  wheel_id: count,
  total_weight: count,
  /** Credits per spin on average, to 4 places. */
  expected_prize: credits,
  segments: z.array(segmentSchema),
});
export type Wheel = z.infer<typeof wheelSchema>;

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

const spinCreditsSchema = z.object({
  /** Net ticket spend in pounds (entries less refunded entries). */
  ticket_spend: credits,
  earned: count,
  granted: count,
  used: count,
  available: count,
  spend_per_spin: credits,
  toward_next: credits,
  to_next: credits,
});
export type SpinCredits = z.infer<typeof spinCreditsSchema>;

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
  spins: z.array(
    z.object({
      id: count,
      wheel_id: count,
      nonce: count,
      segment_position: z.number().int(),
      label: z.string(),
      prize_credits: credits,
      created_at: z.string(),
    }),
  ),
  /** The last 20 postal grants, newest first. */
  grants: z.array(z.object({ id: count, reference: z.string(), created_at: z.string() })),
});
export type UserSpins = z.infer<typeof userSpinsSchema>;

/** One player's spin credits, last spins and postal grants (/admin/users/{id}). */
export const getUserSpins = (userId: string) => callRpc("admin_user_spins", { p_user_id: userId }, userSpinsSchema);
