import "server-only";
import { z } from "zod";
import { APPROVAL_MODES } from "./admin-users-options";
import { callRpc } from "./server-rpc";

// The admin settings screen (supabase/migrations/*_admin_settings.sql): every operator setting in one read,
// saved all or nothing by admin_update_settings, which checks each value, refuses the money settings to plain
// admins (super_admin_required) and audits each change with its old and new value.

const money = z.coerce.number();

export const adminSettingsValuesSchema = z.object({
  approval_mode: z.enum(APPROVAL_MODES),
  top_up_min: money,
  top_up_max: money,
  bonus_enabled: z.boolean(),
  bonus_tiers: z.array(z.object({ from: money, percent: z.coerce.number() })),
  credit_card_monthly_cap: money,
  large_adjustment_threshold: money,
  stamp_price: money,
  postal_window_working_days: z.number().int(),
  postal_address: z.array(z.string()),
  /** ISO instant in UTC, or null for no countdown. */
  launch_at: z.string().nullable(),
  complaints_contact: z.string(),
  dispute_resolution_body: z.object({ name: z.string(), url: z.string() }),
  spinner_enabled: z.boolean(),
  /** Whether admins get the daily e-mail of accounts waiting for approval (public.queue_sign_up_digests). */
  sign_up_digest: z.boolean(),
  /** Minutes a wrong skill answer closes the question to that player (0: no wait). */
  skill_answer_cooldown_minutes: z.number().int(),
  /** Who runs the promotion and where (CAP code 8.17), shown on every competition page. */
  promoter_name: z.string(),
  promoter_address: z.array(z.string()),
  /** Credit each of the two players gets for a referral (money: super admins change it). */
  referral_credit: money,
  /** Referrals credited per inviter per London calendar month; 0 credits none. */
  referral_monthly_cap: z.number().int(),
  /** The most instant-win competitions may be of live ones at a publish, in percent (0 to 50). */
  instant_win_max_live_percent: z.number().int(),
  /** The site's public origin, where links in the site's own e-mails lead. */
  site_url: z.string(),
  /** Hours before a player's higher monthly limit applies (24 to 168; a decrease applies at once). */
  limit_increase_delay_hours: z.number().int(),
});
export type AdminSettingsValues = z.infer<typeof adminSettingsValuesSchema>;
export type SettingKey = keyof AdminSettingsValues;

const adminSettingsSchema = z.object({
  settings: adminSettingsValuesSchema,
  /** The settings only a super admin may change. */
  super_admin_keys: z.array(z.string()),
  can_change_money_settings: z.boolean(),
  /** Who changed a setting last and when (settings never changed since they were installed are missing). */
  updated: z.record(z.string(), z.object({ at: z.string(), by: z.string().nullable() })),
});
export type AdminSettings = z.infer<typeof adminSettingsSchema>;

/** Every setting of /admin/settings (admins only). */
export const getAdminSettings = () => callRpc("admin_get_settings", {}, adminSettingsSchema);

/** Saves the given settings in one transaction; answers the settings after and which keys changed. */
export const updateAdminSettings = (changes: Partial<AdminSettingsValues>) =>
  callRpc(
    "admin_update_settings",
    { p: changes as never },
    adminSettingsSchema.extend({ changed: z.array(z.string()) }),
  );
