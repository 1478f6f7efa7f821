import type { Metadata } from "next";
import { ConfirmProtectionDialog } from "@/components/account/confirm-protection-dialog";
import { HelpLinks } from "@/components/account/help-links";
import { MonthlyLimitForm } from "@/components/account/monthly-limit-form";
import { BREAK_PERIODS, SELF_EXCLUSION_OPTIONS } from "@/lib/protections/options";
import { ProtectionSummary } from "@/components/account/protection-summary";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { requireUser } from "@/lib/auth/session";
import { closeAccountAction, selfExcludeAction, takeBreakAction } from "@/lib/actions/protections";
import { getMyProtections } from "@/lib/data/protections";

export const metadata: Metadata = { title: "Responsible play", robots: { index: false } };

// What a break, self-exclusion or closure stops (SQL enforces it), and what stays.
const STOPPED = "top up or enter competitions, and we send you no marketing e-mail";
const KEPT = "You can still sign in and see your entries and your credit history.";

export default async function ResponsiblePlayPage() {
  await requireUser("/account/responsible-play");
  const protections = await getMyProtections();
  const { state } = protections;
  return (
    <section className="flex max-w-3xl flex-col gap-8">
      <PageHeader
        title="Responsible play"
        description="Tools to keep competitions fun and your spending where you want it. Using them is always free."
      />
      <ProtectionSummary protections={protections} />

      {state !== "closed" ? (
        <Card>
          <CardHeader>
            <CardTitle>Monthly limit</CardTitle>
            <CardDescription>
              The most you can top up, and the most credit you can spend on entries, in a calendar month. A lower limit
              applies at once. A higher limit, or no limit, applies after {protections.limit_increase_delay_hours}{" "}
              hours, so the decision is never made in the heat of the moment.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <MonthlyLimitForm current={protections.monthly_limit} />
          </CardContent>
        </Card>
      ) : null}

      {state === "active" ? (
        <Card>
          <CardHeader>
            <CardTitle>Take a break</CardTitle>
            <CardDescription>
              For 1 week, 1 month or 3 months you cannot {STOPPED}. {KEPT}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ConfirmProtectionDialog
              trigger="Take a break…"
              title="Take a break"
              description={`During your break you cannot ${STOPPED}. ${KEPT} Your credit stays in your account.`}
              confirm="Start my break"
              action={takeBreakAction}
            >
              <Field id="field-break-period" label="How long">
                {(control) => (
                  <Select {...control} name="period" defaultValue={BREAK_PERIODS[0]}>
                    {BREAK_PERIODS.map((period) => (
                      <option key={period} value={period}>
                        {period}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
            </ConfirmProtectionDialog>
          </CardContent>
        </Card>
      ) : null}

      {state === "active" || state === "break" ? (
        <Card>
          <CardHeader>
            <CardTitle>Self-exclusion</CardTitle>
            <CardDescription>
              For 6 months or more you cannot {STOPPED}. {KEPT} If you are worried about how you play, this is the
              stronger choice.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ConfirmProtectionDialog
              trigger="Exclude myself…"
              title="Self-exclusion"
              description={`While you are excluded you cannot ${STOPPED}. ${KEPT} Your credit stays in your account.`}
              confirm="Exclude me"
              action={selfExcludeAction}
            >
              <Field id="field-exclusion-months" label="How long">
                {(control) => (
                  <Select {...control} name="months" defaultValue={String(SELF_EXCLUSION_OPTIONS[0].months)}>
                    {SELF_EXCLUSION_OPTIONS.map((option) => (
                      <option key={option.months} value={option.months}>
                        {option.label}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
            </ConfirmProtectionDialog>
          </CardContent>
        </Card>
      ) : null}

      {state !== "closed" ? (
        <Card>
          <CardHeader>
            <CardTitle>Close your account</CardTitle>
            <CardDescription>
              Closing is for good: you can never again {STOPPED}. {KEPT}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ConfirmProtectionDialog
              trigger="Close my account…"
              title="Close your account for good"
              description={`Once it is closed you can never again ${STOPPED}. ${KEPT} Credit is not paid out as cash.`}
              confirm="Close my account"
              action={closeAccountAction}
            />
          </CardContent>
        </Card>
      ) : null}

      <HelpLinks />
    </section>
  );
}
