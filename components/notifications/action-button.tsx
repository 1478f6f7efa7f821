"use client";

import { useActionState, type ReactNode } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { Button } from "@/components/ui/button";
import type { ActionHandler } from "@/lib/actions/action";

/** A one-button form (mark read, mark all read): hidden fields, the action, and its refusal if any. */
export function ActionButton<T>({
  action,
  fields,
  label,
  children,
}: {
  action: ActionHandler<T>;
  fields: Record<string, string>;
  /** The button's name when its words alone are ambiguous in a list. */
  label?: string;
  children: ReactNode;
}) {
  const [result, dispatch, pending] = useActionState(action, null);
  return (
    <form action={dispatch} className="space-y-2">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant="outline" size="sm" disabled={pending} aria-label={label}>
        {children}
      </Button>
      {result && !result.ok ? <FormStatus result={result} /> : null}
    </form>
  );
}
