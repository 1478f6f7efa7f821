"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { ActionHandler } from "@/lib/actions/action";
import { finishTwoStepSetup, startTwoStepSetup, turnOffTwoStep, verifyTwoStep } from "@/lib/actions/two-step";

/** The 6-digit code field and its button, for either action that takes a code. */
function CodeForm({
  action: handler,
  next,
  factorId,
  submitLabel,
}: {
  action: ActionHandler<undefined>;
  next: string;
  factorId?: string;
  submitLabel: string;
}) {
  const [result, action] = useActionState(handler, null);
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <input type="hidden" name="next" value={next} />
      {factorId && <input type="hidden" name="factorId" value={factorId} />}
      <Field
        id="field-code"
        label="6-digit code"
        hint="The code your authenticator app shows for LabCash. It changes every 30 seconds."
        errors={errors?.code}
      >
        {(control) => (
          <Input
            {...control}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            maxLength={7}
            required
            className="max-w-40 font-mono tracking-widest"
          />
        )}
      </Field>
      <FormStatus result={result} />
      <SubmitButton pendingLabel="Checking…">{submitLabel}</SubmitButton>
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

/** On the profile, for players who have it on. */
export function TurnOffTwoStepForm() {
  const [result, action] = useActionState(turnOffTwoStep, null);
  return (
    <form action={action} className="flex flex-col gap-4">
      <FormStatus result={result} />
      <SubmitButton pendingLabel="Turning off…">Turn off two-step verification</SubmitButton>
    </form>
  );
}
