"use client";

import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { CheckboxField, Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { ActionHandler } from "@/lib/actions/action";
import { updateProfile } from "@/lib/actions/auth";
import { setEmailNotificationsAction, setInitialsOnlyAction } from "@/lib/actions/profile";

export function ProfileForm({ name, town }: { name: string; town: string | null }) {
  const { result, errors, formErrors, pending, form } = useFormAction(updateProfile);
  return (
    <form {...form} className="flex flex-col gap-4">
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
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Saving…">
        Save profile
      </SubmitButton>
    </form>
  );
}

/** One tick box saved on its own: the choice with its hint, then the form's status and its button. */
function TickBoxForm({
  action,
  name,
  checked,
  label,
  hint,
  submitLabel,
}: {
  action: ActionHandler<undefined>;
  name: string;
  checked: boolean;
  label: string;
  hint: string;
  submitLabel: string;
}) {
  const { result, errors, formErrors, pending, form } = useFormAction(action);
  return (
    <form {...form} className="flex flex-col gap-4">
      <CheckboxField
        id={name}
        name={name}
        defaultChecked={checked}
        label={label}
        hint={hint}
        errors={errors?.[name]}
        className="items-center"
      />
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Saving…">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

/** The player's right to object to being named as a winner (CAP 8.28.5): initials only instead of name and town. */
export function InitialsOnlyForm({ initialsOnly }: { initialsOnly: boolean }) {
  return (
    <TickBoxForm
      action={setInitialsOnlyAction}
      name="initialsOnly"
      checked={initialsOnly}
      label="Show me as initials only if I win"
      hint="Entry lists follow your choice at once; a draw already made keeps the name it was published with."
      submitLabel="Save winner name choice"
    />
  );
}

/** The notification preference (email_notifications, on for a new account): separate from marketing consent. */
export function EmailNotificationsForm({ on }: { on: boolean }) {
  return (
    <TickBoxForm
      action={setEmailNotificationsAction}
      name="emailNotifications"
      checked={on}
      label="E-mail me my instant wins as well as showing them here"
      hint="Receipts, draw wins, refunds, complaint answers and account and security e-mails always come. This is not marketing."
      submitLabel="Save notification choice"
    />
  );
}
