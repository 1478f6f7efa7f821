import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/**
 * A 6-digit code field (`code`): an authenticator app's or an e-mail's. Digits, with the space some apps show
 * in the middle; phones offer the code from a message they have just received (`one-time-code`).
 */
export function CodeField({ label, hint, errors }: { label: string; hint?: string; errors?: string[] }) {
  return (
    <Field id="field-code" label={label} hint={hint} errors={errors}>
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
  );
}
