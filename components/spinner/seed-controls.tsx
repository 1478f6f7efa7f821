"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { FormStatus } from "@/components/forms/form-status";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useToast } from "@/components/ui/toast";
import { rotateSeedAction, setClientSeedAction } from "@/lib/actions/spinner";
import type { ActionResult } from "@/lib/actions/result";
import type { SeedRotation, SpinnerSeed } from "@/lib/data/spinner";
import { useFormAction } from "@/lib/hooks/use-form-action";

/** Changes the client seed of the active pair (used from the next spin; the nonce carries on). */
export function ClientSeedForm({ clientSeed, onSaved }: { clientSeed: string; onSaved: () => void }) {
  const toast = useToast();
  // The one form hook, so a refused seed stays in the box to be corrected.
  const { errors, formErrors, pending, form } = useFormAction(
    async (prev: ActionResult<SpinnerSeed> | null, data: FormData) => {
      const next = await setClientSeedAction(prev, data);
      if (next.ok) {
        toast.success(next.message);
        onSaved();
      }
      return next;
    },
  );
  // The seed is the form's only field: every message sits beside it.
  const messages = errors?.clientSeed ?? (formErrors.length ? formErrors : undefined);

  return (
    <form {...form} className="flex flex-col gap-2">
      <Field
        id="spinner-client-seed"
        label="Client seed"
        hint="Any 1 to 64 letters, digits, hyphens or underscores. Change it whenever you like."
        errors={messages}
      >
        {(control) => (
          // Keyed by the saved seed, so the box shows the new one once the panel re-reads it.
          <Input
            key={clientSeed}
            {...control}
            name="clientSeed"
            defaultValue={clientSeed}
            autoComplete="off"
            spellCheck={false}
            maxLength={64}
            className="font-mono"
          />
        )}
      </Field>
      <Button type="submit" variant="outline" className="self-start" disabled={pending}>
        {pending ? "Saving…" : "Change client seed"}
      </Button>
    </form>
  );
}

/**
 * Reveals the active server seed and starts a fresh pair. The revealed seed is shown here, since the
 * panel moves on to the new pair; /labspinner/verify checks the spins it decided.
 */
export function RotateSeed({ onRotated }: { onRotated: () => void }) {
  const toast = useToast();
  const [result, action, pending] = useActionState(async (prev: ActionResult<SeedRotation> | null, form: FormData) => {
    const next = await rotateSeedAction(prev, form);
    if (next.ok) {
      toast.success(next.message);
      onRotated();
    }
    return next;
  }, null);

  return (
    <form action={action} className="flex flex-col gap-3">
      <Button type="submit" variant="outline" className="self-start" disabled={pending}>
        {pending ? "Rotating…" : "Rotate seed"}
      </Button>
      {result?.ok ? (
        <Alert variant="success" className="flex flex-col gap-2">
          <p className="font-semibold">Seed pair rotated: the spins it decided can now be checked.</p>
          <p id="revealed-server-seed-label">Revealed server seed</p>
          <output aria-labelledby="revealed-server-seed-label" className="font-mono text-xs break-all">
            {result.data.revealed.server_seed}
          </output>
          <p className="text-xs">
            Its SHA-256, shown before you spun:{" "}
            <span className="font-mono break-all">{result.data.revealed.server_seed_hash}</span>
          </p>
        </Alert>
      ) : null}
      {result && !result.ok ? <FormStatus result={result} /> : null}
    </form>
  );
}
