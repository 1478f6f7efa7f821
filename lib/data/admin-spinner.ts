import "server-only";
import type { SegmentInput } from "@/lib/spinner/wheel-fields";
import { callRpc } from "./server-rpc";
import { declared } from "./rpc";
import { spin, spinCredits, wheel } from "./spinner";

// The LabSpinner admin screen and the spins part of /admin/users/{id} (the wheel and its postal route;
// supabase/migrations/*_labspinner.sql). Admins only: every function checks the role again. The odds, the
// expected prize per spin and the spin credits are the SQL's figures; this module only reads them. The wheel,
// spin and spin-credit readers are the player's (./spinner.ts); every result here is a declared SQL type.

const adminSpinner = declared("enabled", "wheel", "observed", "spins", "versions", "recent_grants").with({
  /** The live wheel, when it was saved and by whom (an e-mail, or null once that admin is gone). */
  wheel: declared("wheel_id", "total_weight", "expected_prize", "segments", "created_at").with(wheel.nested),
  /** Spins per segment on the live wheel (older versions had other weights). */
  observed: declared("position", "count"),
  /** The last 10 versions, newest first. */
  versions: declared("wheel_id", "created_at", "spins"),
  /** The last 20 postal requests, newest first. */
  recent_grants: declared("id", "user_id", "reference", "created_at"),
});

/** Everything /admin/labspinner shows: the live wheel, on/off, observed spins, versions and postal grants. */
export const getAdminSpinner = () => callRpc("admin_get_spinner", {}, adminSpinner);
export type AdminSpinner = Awaited<ReturnType<typeof getAdminSpinner>>;

/**
 * Saves the segments as a new wheel version (it applies to spins after it only); answers the new wheel. A bad
 * segment is refused as invalid_input with the field in the error's detail (`segments.<n>.<field>`).
 */
export const updateSpinnerWheel = (segments: SegmentInput[]) =>
  callRpc("admin_update_spinner_wheel", { p_segments: segments }, wheel);

/** Records a postal request for a player: one spin credit, a confirmation e-mail; answers their credits after. */
export const recordSpinRequest = (userId: string, reference: string) =>
  callRpc(
    "admin_record_spin_request",
    { p_user_id: userId, p_reference: reference },
    declared("grant_id", "user_id", "reference", "credits").with({ credits: spinCredits }),
  );

/** One player's spin credits, last 20 spins and last 20 postal grants, newest first (/admin/users/{id}). */
export const getUserSpins = (userId: string) =>
  callRpc(
    "admin_user_spins",
    { p_user_id: userId },
    declared("credits", "spins", "grants").with({
      credits: spinCredits,
      spins: spin,
      grants: declared("id", "reference", "created_at"),
    }),
  );
export type UserSpins = Awaited<ReturnType<typeof getUserSpins>>;
