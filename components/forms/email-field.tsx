import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/**
 * The visitor's own e-mail address (`email`), as the sign-in, sign-up and reset forms ask for it; `defaultValue` when
 * the site already knows which (the sign-in code page).
 */
export function EmailField({
  id = "field-email",
  label = "E-mail",
  errors,
  defaultValue,
}: {
  id?: string;
  label?: string;
  errors?: string[];
  defaultValue?: string;
}) {
  return (
    <Field id={id} label={label} errors={errors}>
      {(control) => (
        <Input {...control} name="email" type="email" autoComplete="email" defaultValue={defaultValue} required />
      )}
    </Field>
  );
}
