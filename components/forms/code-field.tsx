import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/**
 * A code field (`code`): an authenticator app's (6 digits, the default) or an e-mail's (`digits`). Digits, with the
 * space some apps show in the middle; phones offer the code from a message they have just received (`one-time-code`).
 */
export function CodeField({
  label,
  hint,
  errors,
  digits = 6,
}: {
  label: string;
  hint?: string;
  errors?: string[];
  digits?: number;
}) {
  return (
    <Field id="field-code" label={label} hint={hint} errors={errors}>
      {(control) => (
        <Input
          {...control}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]*"
          maxLength={digits + 1}
          required
          className="max-w-40 font-mono tracking-widest"
        />
      )}
    </Field>
  );
}
