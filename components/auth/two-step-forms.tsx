"use client";

import { useActionState } from "react";
import { CodeField } from "@/components/forms/code-field";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { RecoveryCodesPanel } from "./recovery-codes";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import type { ActionHandler } from "@/lib/actions/action";
import { EMAIL_CODE_LENGTH, EMAIL_CODE_LIFE } from "@/lib/validation/email-code";
import {
  confirmInboxCode,
  finishTwoStepSetup,
  makeNewRecoveryCodes,
  proveAuthenticator,
  redeemRecoveryCode,
  removeLostAuthenticator,
  sendInboxCode,
  startTwoStepSetup,
  turnOffTwoStep,
  verifyTwoStep,
} from "@/lib/actions/two-step";

/** A code field and its button, for any action that takes a code: an authenticator app's unless told otherwise. */
function CodeForm({
  action: handler,
  next,
  factorId,
  submitLabel,
  label = "6-digit code",
  hint = "The code your authenticator app shows for LabCash. It changes every 30 seconds.",
  digits,
  factors,
}: {
  action: ActionHandler<undefined>;
  next?: string;
  factorId?: string;
  submitLabel: string;
  label?: string;
  hint?: string;
  digits?: number;
  factors?: { id: string; name: string }[];
}) {
  // A wrong code stays in the field, focused, to be corrected or typed over.
  const { result, errors, formErrors, pending, form } = useFormAction(handler);
  return (
    <form {...form} className="flex flex-col gap-4">
      {next !== undefined && <input type="hidden" name="next" value={next} />}
      {factorId && <input type="hidden" name="factorId" value={factorId} />}
      {factors && (
        <Field id="field-factor" label="Authenticator" errors={errors?.factorId}>
          {(control) => (
            <Select {...control} name="factorId" className="max-w-sm">
              {factors.map((factor) => (
                <option key={factor.id} value={factor.id}>
                  {factor.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
      )}
      <CodeField label={label} hint={hint} errors={errors?.code} digits={digits} />
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Checking…">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

/** After signing in, when two-step verification is on; someone with several authenticators picks the one in hand. */
export function TwoStepCodeForm({ next, factors = [] }: { next: string; factors?: { id: string; name: string }[] }) {
  return (
    <CodeForm
      action={verifyTwoStep}
      next={next}
      submitLabel="Verify"
      factors={factors.length > 1 ? factors : undefined}
    />
  );
}

/**
 * Setting up: a button that makes the key (after a name for it, when `askName`: an admin's further
 * authenticator), then its QR code, the key as text, and the first code.
 */
export function TwoStepSetup({ next, askName = false }: { next: string; askName?: boolean }) {
  const { result: started, errors, formErrors, pending, form } = useFormAction(startTwoStepSetup);
  if (!started?.ok) {
    return (
      <form {...form} className="flex flex-col gap-4">
        {askName && (
          <Field
            id="field-name"
            label="Name of this authenticator"
            hint="So you can tell your authenticators apart, e.g. “Work phone”."
            errors={errors?.name}
          >
            {(control) => <Input {...control} name="name" maxLength={40} required className="max-w-sm" />}
          </Field>
        )}
        <FormStatus result={started} formErrors={formErrors} />
        <SubmitButton pending={pending} pendingLabel="Preparing…">
          Set up authenticator app
        </SubmitButton>
      </form>
    );
  }
  const { factorId, qrCode, secret } = started.data;
  return (
    <ol className="flex list-decimal flex-col gap-6 pl-5">
      <li className="flex flex-col gap-3">
        <p>
          Scan this QR code with your authenticator app (for example Google Authenticator, Microsoft Authenticator or
          1Password).
        </p>
        {/* A data: URI the auth server made; next/image has nothing to optimise in it. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img
          src={qrCode}
          alt="QR code that adds LabCash to an authenticator app"
          width={180}
          height={180}
          className="rounded-md border bg-white p-2"
        />
        <p className="text-sm">
          Can&apos;t scan it? Add an account by hand with this key:{" "}
          <code aria-label="Set-up key" className="rounded bg-muted px-1.5 py-0.5 font-mono text-sm break-all">
            {secret}
          </code>
        </p>
      </li>
      <li className="flex flex-col gap-3">
        <p>Enter the code the app now shows, to check it is set up.</p>
        <CodeForm
          action={finishTwoStepSetup}
          next={next}
          factorId={factorId}
          submitLabel="Turn on two-step verification"
        />
      </li>
    </ol>
  );
}

/** On the profile, for players who have it on: the app's current code confirms it. */
export function TurnOffTwoStepForm() {
  return <CodeForm action={turnOffTwoStep} submitLabel="Turn off two-step verification" />;
}

/** Before an admin's set-up: a code e-mailed to them, asked for with a button and typed below. */
export function InboxConfirmation({ next }: { next: string }) {
  const [sent, send] = useActionState(sendInboxCode, null);
  return (
    <div className="flex flex-col gap-6">
      <form action={send} className="flex flex-col gap-4">
        <FormStatus result={sent} />
        <SubmitButton pendingLabel="Sending…">E-mail me a code</SubmitButton>
      </form>
      <CodeForm
        action={confirmInboxCode}
        next={next}
        label="Code from the e-mail"
        hint={`The ${EMAIL_CODE_LENGTH}-digit code in the e-mail we sent you. It works for ${EMAIL_CODE_LIFE}.`}
        digits={EMAIL_CODE_LENGTH}
        submitLabel="Confirm it is me"
      />
    </div>
  );
}

/** An authenticator already verified in this session, with the e-mail confirmed: one click proves it. */
export function ProveAuthenticatorForm({ next }: { next: string }) {
  const [result, action] = useActionState(proveAuthenticator, null);
  return (
    <form action={action} className="flex flex-col gap-4">
      <input type="hidden" name="next" value={next} />
      <p>Your e-mail address is confirmed. Finish setting up to open the admin console.</p>
      <FormStatus result={result} />
      <SubmitButton pendingLabel="Finishing…">Finish setting up</SubmitButton>
    </form>
  );
}

/** At the code step, for an admin whose authenticator is lost: one of their recovery codes. */
export function RecoveryCodeForm({ next }: { next: string }) {
  const { result, errors, formErrors, pending, form } = useFormAction(redeemRecoveryCode);
  return (
    <form {...form} className="flex flex-col gap-4">
      <input type="hidden" name="next" value={next} />
      <Field
        id="field-recovery-code"
        label="Recovery code"
        hint="One of the codes you kept when you set up two-step verification, such as 1a2b-3c4d-5e6f."
        errors={errors?.recoveryCode}
      >
        {(control) => (
          <Input
            {...control}
            name="recoveryCode"
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
            required
            className="max-w-56 font-mono"
          />
        )}
      </Field>
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Checking…" variant="outline">
        Use recovery code
      </SubmitButton>
    </form>
  );
}

/** After a recovery code: removes one lost authenticator, named on its button. */
export function RemoveLostAuthenticatorForm({
  factorId,
  name,
  next,
}: {
  factorId: string;
  name: string;
  next: string;
}) {
  const { result, formErrors, pending, form } = useFormAction(removeLostAuthenticator);
  return (
    <form {...form} className="flex flex-col gap-2">
      <input type="hidden" name="factorId" value={factorId} />
      <input type="hidden" name="next" value={next} />
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Removing…" variant="destructive">
        Remove {name}
      </SubmitButton>
    </form>
  );
}

/** An admin's new set of recovery codes, shown once (then on to `next`, if given); the unused old ones stop working. */
export function NewRecoveryCodesForm({
  next,
  submitLabel = "Make new recovery codes",
}: {
  next?: string;
  submitLabel?: string;
}) {
  const [result, action] = useActionState(makeNewRecoveryCodes, null);
  if (result?.ok) return <RecoveryCodesPanel codes={result.data} next={next} />;
  return (
    <form action={action} className="flex flex-col gap-4">
      <FormStatus result={result} />
      <SubmitButton pendingLabel="Making codes…" variant={next ? "primary" : "outline"}>
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
