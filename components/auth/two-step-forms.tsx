"use client";

import { useActionState } from "react";
import { CodeField } from "@/components/forms/code-field";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import type { ActionHandler } from "@/lib/actions/action";
import { EMAIL_CODE_LENGTH, EMAIL_CODE_LIFE } from "@/lib/validation/auth";
import {
  confirmInboxCode,
  finishTwoStepSetup,
  proveAuthenticator,
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
}: {
  action: ActionHandler<undefined>;
  next?: string;
  factorId?: string;
  submitLabel: string;
  label?: string;
  hint?: string;
  digits?: number;
}) {
  // A wrong code stays in the field, focused, to be corrected or typed over.
  const { result, errors, formErrors, pending, form } = useFormAction(handler);
  return (
    <form {...form} className="flex flex-col gap-4">
      {next !== undefined && <input type="hidden" name="next" value={next} />}
      {factorId && <input type="hidden" name="factorId" value={factorId} />}
      <CodeField label={label} hint={hint} errors={errors?.code} digits={digits} />
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Checking…">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

/** After signing in, when two-step verification is on. */
export function TwoStepCodeForm({ next }: { next: string }) {
  return <CodeForm action={verifyTwoStep} next={next} submitLabel="Verify" />;
}

/** Setting up: a button that makes the key, then its QR code, the key as text, and the first code. */
export function TwoStepSetup({ next }: { next: string }) {
  const [started, start] = useActionState(startTwoStepSetup, null);
  if (!started?.ok) {
    return (
      <form action={start} className="flex flex-col gap-4">
        <FormStatus result={started} />
        <SubmitButton pendingLabel="Preparing…">Set up authenticator app</SubmitButton>
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
