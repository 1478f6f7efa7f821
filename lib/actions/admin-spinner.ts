"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { spinRequestSchema, wheelFormSchema } from "@/lib/spinner/wheel-fields";
import { adminFindAccount } from "@/lib/data/admin-competitions";
import { updateAdminSettings } from "@/lib/data/admin-settings";
import { recordSpinRequest, updateSpinnerWheel } from "@/lib/data/admin-spinner";
import { DbError } from "@/lib/data/errors";
import { defineAction } from "./define-action";
import { fail, ok, type ActionFailure } from "./result";

// The LabSpinner admin actions (/admin/labspinner: the wheel and its postal route). SQL checks the admin
// again, checks every value again (the label contrast only there) and audits each change: spinner.wheel_updated,
// the settings change for on/off, spinner.postal_request.

/** The pages that show the wheel, its odds or whether it is on. */
function revalidateWheel() {
  revalidatePath("/admin/labspinner");
  revalidatePath("/labspinner");
}

/** A refusal that names its field in the error's detail (invalid_input), as that field's message; else null. */
function fieldRefusal(e: unknown): ActionFailure | null {
  if (!(e instanceof DbError) || e.code !== "invalid_input" || !e.detail) return null;
  return fail(e.message, { code: e.code, fieldErrors: { [e.detail]: [e.message] } });
}

export type WheelSaved = { wheelId: number };

/** Saves the editor's segments as a new wheel version, which applies to spins after it only. */
export const saveWheel = defineAction({ schema: wheelFormSchema, role: "admin" }, async (segments) => {
  try {
    const wheel = await updateSpinnerWheel(segments);
    revalidateWheel();
    return ok<WheelSaved>(
      { wheelId: wheel.wheel_id },
      `Saved as wheel version ${wheel.wheel_id}. It applies to spins after this change only; the odds and the expected prize above are the new wheel's.`,
    );
  } catch (e) {
    const refusal = fieldRefusal(e);
    if (refusal) return refusal;
    throw e;
  }
});

/**
 * Switches the wheel on or off. The switch is the spinner_enabled setting, so this saves it the one way settings
 * are saved (admin_update_settings, audited with its old and new value), as /admin/settings does.
 */
export const setWheelEnabled = defineAction(
  { schema: z.object({ enabled: z.enum(["on", "off"], { error: "Choose on or off" }) }), role: "admin" },
  async ({ enabled }) => {
    await updateAdminSettings({ spinner_enabled: enabled === "on" });
    revalidateWheel();
    revalidatePath("/admin/settings");
    return ok(
      undefined,
      enabled === "on"
        ? "LabSpinner is on: players with spin credits can spin."
        : "LabSpinner is off: the page says so and nobody can spin. Spin credits are kept.",
    );
  },
);

/** Records a postal request (the free route): one spin credit for the player whose account has this e-mail. */
export const recordPostalRequest = defineAction(
  { schema: spinRequestSchema, role: "admin" },
  async ({ email, reference }) => {
    const account = await adminFindAccount(email);
    if (!account) {
      return fail("No account has that e-mail address", {
        code: "user_not_found",
        fieldErrors: { email: ["No account has this e-mail address: check it against the letter"] },
      });
    }
    try {
      const grant = await recordSpinRequest(account.id, reference);
      revalidatePath("/admin/labspinner");
      revalidatePath(`/admin/users/${account.id}`);
      const available = grant.credits.available;
      return ok(
        undefined,
        `Recorded ${account.name}'s postal request (${grant.reference}): 1 spin credit added, ${available} to use now. They have been e-mailed.`,
      );
    } catch (e) {
      const refusal = fieldRefusal(e);
      if (refusal) return refusal;
      // A deleted account cannot be given a credit: said on the e-mail field, where the account was named.
      if (e instanceof DbError && e.code === "user_deleted")
        return fail(e.message, { code: e.code, fieldErrors: { email: [e.message] } });
      throw e;
    }
  },
);
