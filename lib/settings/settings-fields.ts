import { z } from "zod";
import { londonLocalToIso } from "@/lib/time/london";
import { APPROVAL_MODES } from "@/lib/data/admin-users-options";

// The settings form's fields, checked with zod (one message per field) before admin_update_settings, which
// checks every value again and has the last word. Shared by the form (names, labels) and the action. Money
// stays as typed ("2.50") until it is handed to SQL as a number; nothing here adds or rounds it.

/** How many bonus-tier rows the form shows (empty rows are ignored; SQL allows up to 10). */
export const TIER_SLOTS = 5;

/** What each setting is called on the screen and in "Saved" messages. */
export const SETTING_LABELS: Record<string, string> = {
  approval_mode: "approval mode",
  sign_up_digest: "sign-up digest",
  top_up_min: "top-up minimum",
  top_up_max: "top-up maximum",
  bonus_enabled: "bonuses on or off",
  bonus_tiers: "bonus tiers",
  credit_card_monthly_cap: "credit-card monthly cap",
  large_adjustment_threshold: "large-adjustment threshold",
  stamp_price: "stamp price",
  postal_window_working_days: "postal window",
  postal_address: "postal address",
  launch_at: "launch countdown date",
  complaints_contact: "complaints contact",
  dispute_resolution_body: "dispute-resolution body",
  spinner_enabled: "LabSpinner on or off",
  skill_answer_cooldown_minutes: "wait after a wrong answer",
  promoter_name: "promoter's name",
  promoter_address: "promoter's address",
  referral_credit: "referral credit",
  referral_monthly_cap: "referrals credited a month",
  instant_win_max_live_percent: "instant-win share of live competitions",
  site_url: "site URL",
  limit_increase_delay_hours: "wait before a higher monthly limit",
};

/** The setting each form field belongs to: the form sends only the settings whose fields were edited. */
export const FIELD_SETTING = {
  approvalMode: "approval_mode",
  signUpDigest: "sign_up_digest",
  topUpMin: "top_up_min",
  topUpMax: "top_up_max",
  bonusEnabled: "bonus_enabled",
  tierFrom: "bonus_tiers",
  tierPercent: "bonus_tiers",
  cardCap: "credit_card_monthly_cap",
  largeAdjustment: "large_adjustment_threshold",
  stampPrice: "stamp_price",
  postalWindow: "postal_window_working_days",
  postalAddress: "postal_address",
  launchAt: "launch_at",
  complaintsContact: "complaints_contact",
  disputeName: "dispute_resolution_body",
  disputeUrl: "dispute_resolution_body",
  spinnerEnabled: "spinner_enabled",
  skillCooldown: "skill_answer_cooldown_minutes",
  instantWinShare: "instant_win_max_live_percent",
  promoterName: "promoter_name",
  promoterAddress: "promoter_address",
  referralCredit: "referral_credit",
  referralCap: "referral_monthly_cap",
  siteUrl: "site_url",
  limitIncreaseDelay: "limit_increase_delay_hours",
} as const;

const MONEY = /^\d{1,6}(\.\d{1,2})?$/;
const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;
// A UK postcode somewhere in the address (SQL looks for it the same way, at the end).
const POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b/i;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const HTTPS_URL = /^https:\/\/[^\s/]+\.[^\s/]+(\/\S*)?$/;
/** The site's address alone: https (http only for this machine), no path (SQL checks the same). */
const SITE_ORIGIN = /^(https:\/\/[a-z0-9.-]+|http:\/\/(localhost|127\.0\.0\.1))(:\d{1,5})?\/?$/;

// No field transforms its value: a failed check inside a transform would stop the checks across fields
// (superRefine below) from running, and every field's message should show at once. The final transform
// turns the text into what SQL takes.
const text = z.string().prefault("");
/** The address as lines, blank ones dropped. */
const addressLines = (v: string) =>
  v
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
/** A repeated field: the form sends a list, or one value when there is one box. */
const list = z.preprocess(
  (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string()),
);
const checkbox = z.preprocess((value) => value === "on", z.boolean());

/** An address on 2 to 8 lines ending with a UK postcode (SQL checks the same). */
const ukAddress = (label: string) =>
  text.superRefine((v, ctx) => {
    // The first problem only: one message per field.
    const lines = addressLines(v);
    const message =
      lines.length < 2 || lines.length > 8
        ? `Give the ${label} on 2 to 8 lines`
        : lines.some((line) => line.length > 100)
          ? "Keep each line of the address to 100 characters"
          : POSTCODE.test(lines.at(-1) ?? "")
            ? null
            : `End the ${label} with a UK postcode`;
    if (message) ctx.addIssue({ code: "custom", message });
  });

const pounds = (label: string, min: number, max: number, example: string) =>
  z
    .string()
    .trim()
    .regex(MONEY, `Enter the ${label} in pounds and pence, such as ${example}`)
    .refine(
      (v) => !MONEY.test(v) || (Number(v) >= min && Number(v) <= max),
      `The ${label} must be from £${min} to £${max.toLocaleString("en-GB")}`,
    )
    .prefault("");

// Every field an admin may change.
const baseSchema = z.object({
  approvalMode: z.enum(APPROVAL_MODES, { error: "Choose manual or automatic approval" }),
  stampPrice: pounds("stamp price", 0.01, 10, "0.87"),
  postalWindow: z
    .string()
    .trim()
    .refine(
      (v) => /^\d{1,2}$/.test(v) && Number(v) >= 1 && Number(v) <= 20,
      "Enter a whole number of working days from 1 to 20",
    )
    .prefault(""),
  skillCooldown: z
    .string()
    .trim()
    .refine(
      (v) => /^\d{1,4}$/.test(v) && Number(v) <= 1440,
      "Enter a whole number of minutes from 0 to 1440 (0: no wait)",
    )
    .prefault(""),
  // Code of practice 1.10: instant-win competitions are never the majority of live ones (SQL: 0 to 50).
  instantWinShare: z
    .string()
    .trim()
    .refine(
      (v) => /^\d{1,2}$/.test(v) && Number(v) <= 50,
      "Enter a whole percent from 0 to 50 (instant-win competitions are never the majority of live ones)",
    )
    .prefault(""),
  postalAddress: ukAddress("postal address"),
  promoterName: z
    .string()
    .trim()
    .min(2, "Enter the promoter's name (2 to 200 characters)")
    .max(200, "Enter the promoter's name (2 to 200 characters)")
    .prefault(""),
  promoterAddress: ukAddress("promoter's address"),
  launchAt: text.refine(
    (v) => v.trim() === "" || londonLocalToIso(v.trim()) !== null,
    "Enter a date and time, or leave it empty for no countdown",
  ),
  complaintsContact: z
    .string()
    .trim()
    .refine(
      (v) => v.length <= 254 && EMAIL.test(v),
      "Enter an e-mail address of at most 254 characters, such as complaints@labcash.example",
    )
    .prefault(""),
  disputeName: z
    .string()
    .trim()
    .min(2, "Enter the dispute-resolution body's name (2 to 200 characters)")
    .max(200, "Enter the dispute-resolution body's name (2 to 200 characters)")
    .prefault(""),
  disputeUrl: z
    .string()
    .trim()
    .refine(
      (v) => v.length <= 500 && HTTPS_URL.test(v),
      "Enter a web address starting with https:// (at most 500 characters)",
    )
    .prefault(""),
  spinnerEnabled: checkbox,
  signUpDigest: checkbox,
  siteUrl: z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => SITE_ORIGIN.test(v), "Enter the site's address alone, such as https://labcash.example")
    .prefault(""),
  limitIncreaseDelay: z
    .string()
    .trim()
    .refine(
      (v) => /^\d{1,3}$/.test(v) && Number(v) >= 24 && Number(v) <= 168,
      "Enter a whole number of hours from 24 to 168",
    )
    .prefault(""),
  /**
   * The settings whose fields were edited, comma-separated: only those are sent, so a save never puts back
   * an old value over another admin's change to a setting this admin did not touch.
   */
  edited: text,
  /** Present when the form shows the money settings (super admins only). */
  money: z.literal("1").optional(),
  topUpMin: text,
  topUpMax: text,
  bonusEnabled: checkbox,
  tierFrom: list,
  tierPercent: list,
  cardCap: text,
  largeAdjustment: text,
  referralCredit: text,
  referralCap: text,
});

const moneySchema = z.object({
  topUpMin: pounds("top-up minimum", 1, 10000, "5"),
  topUpMax: pounds("top-up maximum", 1, 100000, "5000"),
  cardCap: pounds("credit-card monthly cap", 0, 100000, "250"),
  largeAdjustment: pounds("large-adjustment threshold", 0, 100000, "100"),
  referralCredit: pounds("referral credit", 0.01, 100, "2.50"),
  referralCap: z
    .string()
    .trim()
    .refine(
      (v) => /^\d{1,4}$/.test(v) && Number(v) <= 1000,
      "Enter a whole number of friends a month from 0 to 1000 (0: no referral credit)",
    ),
});

export type SettingsInput = z.output<typeof baseSchema>;

/** The changes as admin_update_settings takes them: {key: value}. */
export type SettingsChanges = Record<string, unknown>;

export const settingsFormSchema = baseSchema
  .superRefine(
    (input, ctx) => {
      if (!input.money) return;
      const money = moneySchema.safeParse(input);
      const tierFrom = Array.isArray(input.tierFrom) ? input.tierFrom : [];
      const tierPercent = Array.isArray(input.tierPercent) ? input.tierPercent : [];
      if (!money.success) for (const issue of money.error.issues) ctx.addIssue({ ...issue, code: "custom" });
      else if (Number(input.topUpMin) > Number(input.topUpMax))
        ctx.addIssue({
          code: "custom",
          path: ["topUpMin"],
          message: "The top-up minimum must not be more than the maximum",
        });
      const seen = new Set<string>();
      for (let i = 0; i < TIER_SLOTS; i++) {
        const from = (tierFrom[i] ?? "").trim();
        const percent = (tierPercent[i] ?? "").trim();
        if (!from && !percent) continue;
        const n = i + 1;
        if (!MONEY.test(from) || Number(from) < 1)
          ctx.addIssue({
            code: "custom",
            path: [`tierFrom${n}`],
            message: `Tier ${n}: enter the top-up amount it starts at, from £1, such as 50`,
          });
        else if (seen.has(String(Number(from))))
          ctx.addIssue({
            code: "custom",
            path: [`tierFrom${n}`],
            message: `Tier ${n}: another tier starts at £${from}`,
          });
        else seen.add(String(Number(from)));
        if (!PERCENT.test(percent) || Number(percent) <= 0 || Number(percent) > 100)
          ctx.addIssue({
            code: "custom",
            path: [`tierPercent${n}`],
            message: `Tier ${n}: enter a bonus percent above 0 and at most 100, such as 2.5`,
          });
      }
      // Run even when another field is already wrong, so every field's message shows at once.
    },
    { when: () => true },
  )
  .transform((input): SettingsChanges => {
    const changes: SettingsChanges = {
      approval_mode: input.approvalMode,
      sign_up_digest: input.signUpDigest,
      stamp_price: Number(input.stampPrice),
      postal_window_working_days: Number(input.postalWindow),
      postal_address: addressLines(input.postalAddress),
      launch_at: input.launchAt.trim() === "" ? null : londonLocalToIso(input.launchAt.trim()),
      complaints_contact: input.complaintsContact,
      dispute_resolution_body: { name: input.disputeName, url: input.disputeUrl },
      spinner_enabled: input.spinnerEnabled,
      skill_answer_cooldown_minutes: Number(input.skillCooldown),
      instant_win_max_live_percent: Number(input.instantWinShare),
      promoter_name: input.promoterName,
      promoter_address: addressLines(input.promoterAddress),
      site_url: input.siteUrl.replace(/\/$/, ""),
      limit_increase_delay_hours: Number(input.limitIncreaseDelay),
    };
    if (input.money) {
      Object.assign(changes, {
        top_up_min: Number(input.topUpMin),
        top_up_max: Number(input.topUpMax),
        bonus_enabled: input.bonusEnabled,
        bonus_tiers: input.tierFrom
          .slice(0, TIER_SLOTS)
          .map((from, i) => ({ from: from.trim(), percent: (input.tierPercent[i] ?? "").trim() }))
          .filter((tier) => tier.from || tier.percent)
          .map((tier) => ({ from: Number(tier.from), percent: Number(tier.percent) })),
        credit_card_monthly_cap: Number(input.cardCap),
        large_adjustment_threshold: Number(input.largeAdjustment),
        referral_credit: Number(input.referralCredit),
        referral_monthly_cap: Number(input.referralCap),
      });
    }
    const edited = new Set(input.edited.split(","));
    return Object.fromEntries(Object.entries(changes).filter(([key]) => edited.has(key)));
  });
