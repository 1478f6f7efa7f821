"use client";

import { useState, type ReactNode } from "react";
import { FormFooter } from "@/components/forms/form-footer";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { Checkbox } from "@/components/ui/checkbox";
import { saveSettings } from "@/lib/actions/admin-settings";
import { APPROVAL_MODES, type ApprovalMode } from "@/lib/data/admin-users-options";
import { APPROVAL_MODE_HINTS } from "@/lib/labels";
import { LABELS } from "@/lib/labels";
import { FIELD_SETTING, TIER_SLOTS } from "@/lib/settings/settings-fields";

/** The form's values as text, as the inputs hold them. */
export type SettingsFormValues = {
  approvalMode: ApprovalMode;
  signUpDigest: boolean;
  topUpMin: string;
  topUpMax: string;
  bonusEnabled: boolean;
  tierFrom: string[];
  tierPercent: string[];
  cardCap: string;
  largeAdjustment: string;
  referralCredit: string;
  referralCap: string;
  stampPrice: string;
  postalWindow: string;
  postalAddress: string;
  launchAt: string;
  complaintsContact: string;
  disputeName: string;
  disputeUrl: string;
  spinnerEnabled: boolean;
  skillCooldown: string;
  instantWinShare: string;
  promoterName: string;
  promoterAddress: string;
  siteUrl: string;
  limitIncreaseDelay: string;
};

type TextKey = {
  [K in keyof SettingsFormValues]: SettingsFormValues[K] extends string ? K : never;
}[keyof SettingsFormValues];

function Group({ legend, description, children }: { legend: string; description?: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-4 rounded-lg border border-border bg-card p-4 text-card-foreground sm:p-5">
      <legend className="px-1 text-base font-semibold">{legend}</legend>
      {description ? <div className="-mt-2 text-sm text-muted-foreground">{description}</div> : null}
      {children}
    </fieldset>
  );
}

function SettingCheckbox({
  name,
  label,
  hint,
  checked,
  onChange,
}: {
  name: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex items-start gap-2 text-sm">
      <Checkbox name={name} checked={checked} onChange={(e) => onChange(e.target.checked)} className="mt-1" />
      <span>
        <span className="font-medium">{label}</span>
        <span className="block text-muted-foreground">{hint}</span>
      </span>
    </label>
  );
}

/**
 * Every operator setting in one form, saved all or nothing. Controlled, so only what this admin edits is
 * sent (`edited`). The money settings are inputs only for a super admin (`moneySettings` is then null); an admin sees
 * them as text (`moneySettings`), and the form does not send them.
 */
export function SettingsForm({ initial, moneySettings }: { initial: SettingsFormValues; moneySettings: ReactNode }) {
  const { result, errors, formErrors, pending, form } = useFormAction(saveSettings);
  const [values, setValues] = useState(initial);
  const canChangeMoney = moneySettings === null;
  // Compared with the page's values (which follow each save), so only what this admin edits is sent.
  const edited = [
    ...new Set(
      (Object.keys(FIELD_SETTING) as (keyof SettingsFormValues)[])
        .filter((field) => JSON.stringify(values[field]) !== JSON.stringify(initial[field]))
        .map((field) => FIELD_SETTING[field]),
    ),
  ].join(",");

  const set = <K extends keyof SettingsFormValues>(key: K, value: SettingsFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const text = (key: TextKey) => ({
    name: key,
    value: values[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });
  const setTier = (list: "tierFrom" | "tierPercent", i: number, value: string) =>
    setValues((v) => {
      const next = [...v[list]];
      next[i] = value;
      return { ...v, [list]: next };
    });

  return (
    <form {...form} aria-label="Settings" className="flex flex-col gap-6">
      <input type="hidden" name="edited" value={edited} />
      <Group legend="Sign-ups">
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Approval mode</legend>
          {APPROVAL_MODES.map((value) => ({
            value,
            label: LABELS.approval_mode[value],
            hint: APPROVAL_MODE_HINTS[value],
          })).map((option) => (
            <label key={option.value} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="approvalMode"
                value={option.value}
                checked={values.approvalMode === option.value}
                onChange={() => set("approvalMode", option.value)}
                data-invalid={errors?.approvalMode ? true : undefined}
                aria-describedby={errors?.approvalMode ? "settings-approval-mode-error" : undefined}
                className="mt-1 size-4 accent-primary"
              />
              <span>
                <span className="font-medium">{option.label}</span>
                <span className="block text-muted-foreground">{option.hint}</span>
              </span>
            </label>
          ))}
          {errors?.approvalMode ? (
            <p id="settings-approval-mode-error" className="text-sm text-destructive">
              {errors.approvalMode[0]}
            </p>
          ) : null}
        </fieldset>
        <SettingCheckbox
          name="signUpDigest"
          label="E-mail admins a daily digest of sign-ups waiting"
          hint="Each morning from 08:00 UK time, when anyone is waiting for approval, every admin is e-mailed the list. Each sign-up is also in the admins' notifications at once, whatever this says."
          checked={values.signUpDigest}
          onChange={(checked) => set("signUpDigest", checked)}
        />
      </Group>

      <Group
        legend="Money"
        description={
          canChangeMoney
            ? "Top-up limits, bonuses, the credit-card cap and the large-adjustment threshold. Only super admins can change these."
            : "Only a super admin can change these: they decide what players pay and receive."
        }
      >
        {canChangeMoney ? (
          <>
            <input type="hidden" name="money" value="1" />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id="settings-top-up-min" label="Top-up minimum (£)" errors={errors?.topUpMin}>
                {(control) => <Input {...control} {...text("topUpMin")} inputMode="decimal" />}
              </Field>
              <Field id="settings-top-up-max" label="Top-up maximum (£)" errors={errors?.topUpMax}>
                {(control) => <Input {...control} {...text("topUpMax")} inputMode="decimal" />}
              </Field>
              <Field
                id="settings-card-cap"
                label="Credit-card monthly cap (£)"
                hint="Credit-card top-ups a player may make in a calendar month (0 refuses credit cards)."
                errors={errors?.cardCap}
              >
                {(control) => <Input {...control} {...text("cardCap")} inputMode="decimal" />}
              </Field>
              <Field
                id="settings-large-adjustment"
                label="Large-adjustment threshold (£)"
                hint="Credit adjustments above this need a super admin."
                errors={errors?.largeAdjustment}
              >
                {(control) => <Input {...control} {...text("largeAdjustment")} inputMode="decimal" />}
              </Field>
              <Field
                id="settings-referral-credit"
                label="Referral credit (£)"
                hint="What the inviter and the friend each get once the friend is approved and makes a first paid entry."
                errors={errors?.referralCredit}
              >
                {(control) => <Input {...control} {...text("referralCredit")} inputMode="decimal" />}
              </Field>
              <Field
                id="settings-referral-cap"
                label="Referrals credited a month"
                hint="Per inviter, per calendar month (UK time); friends beyond it are refused, and 0 credits none."
                errors={errors?.referralCap}
              >
                {(control) => <Input {...control} {...text("referralCap")} inputMode="numeric" />}
              </Field>
            </div>
            <SettingCheckbox
              name="bonusEnabled"
              label="Bonuses on"
              hint="Top-ups from a tier's amount get that tier's percent as bonus credit."
              checked={values.bonusEnabled}
              onChange={(checked) => set("bonusEnabled", checked)}
            />
            <fieldset className="flex flex-col gap-3">
              <legend className="mb-1 text-sm font-medium">Bonus tiers</legend>
              <p className="-mt-1 text-xs text-muted-foreground">
                Leave a row empty to drop it. The highest tier a top-up reaches applies.
              </p>
              {Array.from({ length: TIER_SLOTS }, (_, i) => (
                <div key={i} className="grid gap-3 sm:grid-cols-2">
                  <Field
                    id={`settings-tier-${i + 1}-from`}
                    label={`Tier ${i + 1}: from (£)`}
                    errors={errors?.[`tierFrom${i + 1}`]}
                  >
                    {(control) => (
                      <Input
                        {...control}
                        name="tierFrom"
                        data-error-key={`tierFrom${i + 1}`}
                        inputMode="decimal"
                        value={values.tierFrom[i] ?? ""}
                        onChange={(e) => setTier("tierFrom", i, e.target.value)}
                      />
                    )}
                  </Field>
                  <Field
                    id={`settings-tier-${i + 1}-percent`}
                    label={`Tier ${i + 1}: bonus (%)`}
                    errors={errors?.[`tierPercent${i + 1}`]}
                  >
                    {(control) => (
                      <Input
                        {...control}
                        name="tierPercent"
                        data-error-key={`tierPercent${i + 1}`}
                        inputMode="decimal"
                        value={values.tierPercent[i] ?? ""}
                        onChange={(e) => setTier("tierPercent", i, e.target.value)}
                      />
                    )}
                  </Field>
                </div>
              ))}
            </fieldset>
          </>
        ) : (
          moneySettings
        )}
      </Group>

      <Group legend="Free postal entry">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="settings-stamp-price"
            label="Stamp price (£)"
            hint="A second-class stamp: a postal entry gets as many tickets as it buys."
            errors={errors?.stampPrice}
          >
            {(control) => <Input {...control} {...text("stampPrice")} inputMode="decimal" />}
          </Field>
          <Field
            id="settings-postal-window"
            label="Postal window (working days)"
            hint="The default time after a competition closes for postal entries to arrive."
            errors={errors?.postalWindow}
          >
            {(control) => <Input {...control} {...text("postalWindow")} inputMode="numeric" />}
          </Field>
        </div>
        <Field
          id="settings-postal-address"
          label="Postal address"
          hint="One line each, ending with the postcode. Shown on every competition page."
          errors={errors?.postalAddress}
        >
          {(control) => <Textarea {...control} {...text("postalAddress")} rows={5} />}
        </Field>
      </Group>

      <Group
        legend="Promoter"
        description="Who runs the competitions (CAP code 8.17): shown on every competition page before the entry form."
      >
        <Field id="settings-promoter-name" label="Promoter's name" errors={errors?.promoterName}>
          {(control) => <Input {...control} {...text("promoterName")} autoComplete="organization" />}
        </Field>
        <Field
          id="settings-promoter-address"
          label="Promoter's address"
          hint="One line each, ending with the postcode."
          errors={errors?.promoterAddress}
        >
          {(control) => <Textarea {...control} {...text("promoterAddress")} rows={5} />}
        </Field>
      </Group>

      <Group legend="Skill question">
        <Field
          id="settings-skill-cooldown"
          label="Wait after a wrong answer (minutes)"
          hint="After a wrong answer a player cannot answer that competition's question again until this many minutes have passed. 0: no wait."
          errors={errors?.skillCooldown}
        >
          {(control) => <Input {...control} {...text("skillCooldown")} inputMode="numeric" />}
        </Field>
      </Group>

      <Group legend="Instant wins">
        <Field
          id="settings-instant-win-share"
          label="Instant-win competitions, at most (% of live ones)"
          hint="Checked when a competition with instant wins is published: with it, instant-win competitions may be at most this share of live competitions. At most 50 (they are never the majority); 0: none can be published."
          errors={errors?.instantWinShare}
        >
          {(control) => <Input {...control} {...text("instantWinShare")} inputMode="numeric" className="sm:max-w-xs" />}
        </Field>
      </Group>

      <Group legend="Site address">
        <Field
          id="settings-site-url"
          label="Site URL"
          hint="Where links in the site's own e-mails (receipts, draw results, alerts) lead: the same address as the site's SITE_URL."
          errors={errors?.siteUrl}
        >
          {(control) => <Input {...control} {...text("siteUrl")} type="url" autoComplete="off" />}
        </Field>
      </Group>

      <Group legend="Monthly limits">
        <Field
          id="settings-limit-increase-delay"
          label="Wait before a higher monthly limit (hours)"
          hint="A player who raises or removes their monthly limit waits this long before it applies; a lower limit applies at once. From 24 to 168."
          errors={errors?.limitIncreaseDelay}
        >
          {(control) => (
            <Input {...control} {...text("limitIncreaseDelay")} inputMode="numeric" className="sm:max-w-xs" />
          )}
        </Field>
      </Group>

      <Group legend="Launch and LabSpinner">
        <Field
          id="settings-launch-at"
          label="Launch countdown date (UK time)"
          hint="The home page counts down to it. Leave it empty for no countdown."
          errors={errors?.launchAt}
        >
          {(control) => <Input {...control} {...text("launchAt")} type="datetime-local" className="sm:max-w-xs" />}
        </Field>
        <SettingCheckbox
          name="spinnerEnabled"
          label="LabSpinner on"
          hint="Whether players can spin the prize wheel (also switched on the LabSpinner page, where its segments are set)."
          checked={values.spinnerEnabled}
          onChange={(checked) => set("spinnerEnabled", checked)}
        />
      </Group>

      <Group legend="Complaints" description="Shown on the complaints page and in our answers to complaints.">
        <Field id="settings-complaints-contact" label="Complaints contact (e-mail)" errors={errors?.complaintsContact}>
          {(control) => <Input {...control} {...text("complaintsContact")} type="email" autoComplete="off" />}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="settings-dispute-name" label="Dispute-resolution body: name" errors={errors?.disputeName}>
            {(control) => <Input {...control} {...text("disputeName")} />}
          </Field>
          <Field id="settings-dispute-url" label="Dispute-resolution body: web address" errors={errors?.disputeUrl}>
            {(control) => <Input {...control} {...text("disputeUrl")} type="url" />}
          </Field>
        </div>
      </Group>

      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Saving…">
        Save settings
      </FormFooter>
    </form>
  );
}
