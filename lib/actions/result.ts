import type { DbErrorCode } from "@/lib/data/errors";

/** A refusal's messages by field name: one message per field (see `invalid`). */
export type FieldErrors = Record<string, string[]>;

// What every server action returns: a result a form can show, never a thrown error.
// A refusal from the database carries its stable code, so a form can act on it
// (link to "Add credit", to the approval page…) without reading the message.
export type ActionResult<T = undefined> =
  | { ok: true; data: T; message?: string }
  | { ok: false; error: string; code?: DbErrorCode; fieldErrors?: FieldErrors; reasons?: string[] };

export type ActionFailure = Extract<ActionResult, { ok: false }>;

export function ok<T>(data: T, message?: string): ActionResult<T> {
  return message === undefined ? { ok: true, data } : { ok: true, data, message };
}

export function fail(error: string, extra: Omit<ActionFailure, "ok" | "error"> = {}): ActionFailure {
  return { ok: false, error, ...extra };
}

/** Where a refusal that is not about one field goes: the form-level message. */
export const FORM_KEY = "form";

/**
 * Field errors from a zod failure, plus the first message as the summary. Each field keeps only its first
 * message, the first check it failed in the schema's order (a missing date before "you must be 18"): two
 * messages under one field read as one sentence that makes no sense. A check on the whole object (no path)
 * goes under FORM_KEY.
 */
export function invalid(issues: readonly { path: readonly PropertyKey[]; message: string }[]): ActionFailure {
  const fieldErrors: FieldErrors = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? FORM_KEY);
    fieldErrors[key] ??= [issue.message];
  }
  return fail(issues[0]?.message ?? "Please check the form", { fieldErrors });
}

/** Database refusals that belong to one field, by code: `{ slug_taken: "slug" }`. */
export type FieldForCode = Partial<Record<DbErrorCode, string>>;

/**
 * A refusal as a form shows it: each message beside the field it is about, when the form shows that field
 * (`shown`, the names of its visible, enabled controls), and the rest as the form-level message. A
 * database refusal whose code belongs to a field (`fieldFor`) is shown beside that field like the schema's.
 */
export function placeRefusal(
  result: ActionResult<unknown> | null,
  shown: ReadonlySet<string>,
  fieldFor: FieldForCode = {},
): { beside?: FieldErrors; formErrors: string[] } {
  if (!result || result.ok) return { formErrors: [] };
  const field = result.code ? fieldFor[result.code] : undefined;
  const all = result.fieldErrors ?? (field ? { [field]: [result.error] } : undefined);
  if (!all) return { formErrors: [result.error] };
  const beside: FieldErrors = {};
  const formErrors: string[] = [];
  for (const [key, messages] of Object.entries(all)) {
    if (shown.has(key)) beside[key] = messages;
    else formErrors.push(...messages);
  }
  return { beside: Object.keys(beside).length ? beside : undefined, formErrors };
}
