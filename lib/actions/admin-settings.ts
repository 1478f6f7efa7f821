"use server";

import { revalidatePath } from "next/cache";
import { revalidateCompetitionPages } from "@/lib/cache/public-pages";
import { SETTING_LABELS, settingsFormSchema } from "@/lib/settings/settings-fields";
import { updateAdminSettings } from "@/lib/data/admin-settings";
import { defineAction } from "./define-action";
import { ok } from "./result";

/**
 * Saves the settings form (/admin/settings) in one call: admin_update_settings checks every value again, saves
 * all or nothing, refuses a plain admin's change to a money setting (super_admin_required) and audits each
 * change with its old and new value. Only the settings whose fields were edited are sent, and the money
 * settings only when the form showed them.
 */
export const saveSettings = defineAction({ schema: settingsFormSchema, role: "admin" }, async (changes) => {
  if (Object.keys(changes).length === 0) return ok(undefined, "Nothing changed.");
  const result = await updateAdminSettings(changes);
  revalidatePath("/admin/settings");
  // The launch countdown on the home page; the postal address and stamp parity on competition pages.
  revalidateCompetitionPages();
  if (result.changed.length === 0) return ok(undefined, "Nothing changed.");
  const names = result.changed.map((key) => SETTING_LABELS[key] ?? key);
  return ok(undefined, `Saved: ${names.join(", ")}. Each change is in the activity log.`);
});
