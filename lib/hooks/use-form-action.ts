"use client";

import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent } from "react";
import type { ActionHandler } from "@/lib/actions/action";
import { placeRefusal, type FieldForCode } from "@/lib/actions/result";

/**
 * The one way a form runs its action (docs/decisions/011). The form gets both
 * `action` and `onSubmit` (`<form {...form}>`): before the page's script has loaded the browser posts the
 * form to the action (progressive enhancement); afterwards onSubmit stops that and dispatches the same data
 * in a transition. React resets a form's uncontrolled fields after an `action` it runs itself, even after a
 * refusal, which wiped sign-up; dispatched like this nothing is reset, so what was typed stays (React's docs,
 * `<form>`: "override the default reset behaviour").
 *
 * After a refusal each message goes beside its field (`errors`, for `Field`), what no visible field can show
 * goes to the form-level message (`formErrors`, for `FormStatus`), and focus moves to the first field marked
 * invalid. `clearOnSuccess` empties a form that makes something new (a complaint, an adjustment) once it is
 * made; other forms keep the values they saved.
 */
export function useFormAction<T>(
  action: ActionHandler<T>,
  { fieldFor, clearOnSuccess = false }: { fieldFor?: FieldForCode; clearOnSuccess?: boolean } = {},
) {
  const [result, dispatch, pending] = useActionState(action, null);
  const ref = useRef<HTMLFormElement>(null);
  // The fields the form showed when it was sent: a message for any other field has nowhere else to go.
  const [shown, setShown] = useState<ReadonlySet<string>>(() => new Set());
  const { beside: errors, formErrors } = placeRefusal(result, shown, fieldFor);

  useEffect(() => {
    const form = ref.current;
    if (!form || !result) return;
    if (result.ok) {
      if (clearOnSuccess) form.reset();
      return;
    }
    // Radios carry data-invalid: aria-invalid is not for role radio (their group is described by the message).
    form.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid]')?.focus();
  }, [result, clearOnSuccess]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setShown(shownFieldNames(form));
    const data = new FormData(form, (event.nativeEvent as SubmitEvent).submitter);
    startTransition(() => dispatch(data));
  }

  return { result, errors, formErrors, pending, form: { ref, action: dispatch, onSubmit, noValidate: true } };
}

/**
 * The keys of the messages the form can show beside a control: each visible, enabled control's name, or its
 * `data-error-key` where one name repeats down a list and each row's messages have their own key.
 */
function shownFieldNames(form: HTMLFormElement): Set<string> {
  const names = new Set<string>();
  for (const element of Array.from(form.elements)) {
    if (!(
      element instanceof HTMLInputElement ||
      element instanceof HTMLSelectElement ||
      element instanceof HTMLTextAreaElement
    ))
      continue;
    const key = element.dataset.errorKey ?? element.name;
    if (element.type !== "hidden" && !element.disabled && key) names.add(key);
  }
  return names;
}
