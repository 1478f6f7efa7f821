import type { Metadata } from "next";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { isoToLondonLocal } from "@/lib/time/london";
import { SettingsForm, type SettingsFormValues } from "@/components/admin/settings/settings-form";
import { TIER_SLOTS } from "@/lib/settings/settings-fields";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin } from "@/lib/auth/session";
import { getAdminSettings, type AdminSettingsValues } from "@/lib/data/admin-settings";
import { formatDateTime, formatGBP } from "@/lib/format";

export const metadata: Metadata = { title: "Settings", robots: { index: false } };

/** Pounds as the inputs show them ("5.00", "0.87"): display only, SQL holds the value. */
const pounds = (amount: number) => amount.toFixed(2);

function formValues(s: AdminSettingsValues): SettingsFormValues {
  const pad = (list: string[]) => [...list, ...Array<string>(Math.max(0, TIER_SLOTS - list.length)).fill("")];
  return {
    approvalMode: s.approval_mode,
    topUpMin: pounds(s.top_up_min),
    topUpMax: pounds(s.top_up_max),
    bonusEnabled: s.bonus_enabled,
    tierFrom: pad(s.bonus_tiers.map((t) => pounds(t.from))),
    tierPercent: pad(s.bonus_tiers.map((t) => String(t.percent))),
    cardCap: pounds(s.credit_card_monthly_cap),
    largeAdjustment: pounds(s.large_adjustment_threshold),
    referralCredit: pounds(s.referral_credit),
    referralCap: String(s.referral_monthly_cap),
    stampPrice: pounds(s.stamp_price),
    postalWindow: String(s.postal_window_working_days),
    skillCooldown: String(s.skill_answer_cooldown_minutes),
    instantWinShare: String(s.instant_win_max_live_percent),
    postalAddress: s.postal_address.join("\n"),
    launchAt: isoToLondonLocal(s.launch_at),
    complaintsContact: s.complaints_contact,
    disputeName: s.dispute_resolution_body.name,
    disputeUrl: s.dispute_resolution_body.url,
    spinnerEnabled: s.spinner_enabled,
    signUpDigest: s.sign_up_digest,
    promoterName: s.promoter_name,
    promoterAddress: s.promoter_address.join("\n"),
    siteUrl: s.site_url,
    limitIncreaseDelay: String(s.limit_increase_delay_hours),
  };
}

/** The money settings as text, for an admin who may not change them. */
function MoneySettings({ s }: { s: AdminSettingsValues }) {
  const rows: [string, string][] = [
    ["Top-up minimum", formatGBP(s.top_up_min)],
    ["Top-up maximum", formatGBP(s.top_up_max)],
    ["Credit-card monthly cap", formatGBP(s.credit_card_monthly_cap)],
    ["Large-adjustment threshold", formatGBP(s.large_adjustment_threshold)],
    ["Referral credit (each)", formatGBP(s.referral_credit)],
    ["Referrals credited a month", String(s.referral_monthly_cap)],
    ["Bonuses", s.bonus_enabled ? "On" : "Off"],
    [
      "Bonus tiers",
      s.bonus_tiers.length ? s.bonus_tiers.map((t) => `${t.percent}% from ${formatGBP(t.from)}`).join("; ") : "None",
    ],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium">{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default async function AdminSettingsPage() {
  await requireAdmin("/admin/settings");
  const current = await getAdminSettings();
  const latest = Object.values(current.updated).sort((a, b) => b.at.localeCompare(a.at))[0];
  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/settings" />
        <PageHeader
          title="Settings"
          description={
            latest
              ? `Last changed ${formatDateTime(latest.at)}${latest.by ? ` by ${latest.by}` : ""}. Every change is in the activity log with its old and new value.`
              : "Every change is recorded in the activity log with its old and new value."
          }
        />
      </div>
      <SettingsForm
        initial={formValues(current.settings)}
        moneySettings={current.can_change_money_settings ? null : <MoneySettings s={current.settings} />}
      />
    </section>
  );
}
