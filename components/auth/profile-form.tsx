"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { updateProfile } from "@/lib/actions/auth";
import { setInitialsOnlyAction } from "@/lib/actions/profile";

export function ProfileForm({ name, town }: { name: string; town: string | null }) {
  const [result, action] = useActionState(updateProfile, null);
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <Field id="field-name" label="Name" errors={errors?.name}>
        {(control) => <Input {...control} name="name" autoComplete="name" defaultValue={name} required />}
      </Field>
      <Field
        id="field-town"
        label="Town (optional)"
        hint="If you win, we show your first name, last initial and this town, e.g. “Priya P., Leeds”, unless you choose initials only below."
        errors={errors?.town}
      >
        {(control) => <Input {...control} name="town" autoComplete="address-level2" defaultValue={town ?? ""} />}
      </Field>
      <FormStatus result={result} />
      <SubmitButton pendingLabel="Saving…">Save profile</SubmitButton>
    </form>
  );
}

/** The player's right to object to being named as a winner (CAP 8.28.5): initials only instead of name and town. */
export function InitialsOnlyForm({ initialsOnly }: { initialsOnly: boolean }) {
  const [result, action] = useActionState(setInitialsOnlyAction, null);
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <div className="flex items-center gap-2">
        <input
          id="initialsOnly"
          name="initialsOnly"
          type="checkbox"
          defaultChecked={initialsOnly}
          aria-describedby="initialsOnly-hint"
          className="size-4 accent-primary"
        />
        <label htmlFor="initialsOnly">Show me as initials only if I win</label>
      </div>
      <p id="initialsOnly-hint" className="-mt-2 text-xs text-muted-foreground">
        Entry lists follow your choice at once; a draw already made keeps the name it was published with.
      </p>
      <FormStatus result={result} />
      <SubmitButton pendingLabel="Saving…">Save winner name choice</SubmitButton>
    </form>
  );
}
