import type { DbErrorCode } from "@/lib/data/errors";

// What every server action returns: a result a form can show, never a thrown error.
// A refusal from the database carries its stable code, so a form can act on it
// (link to "Add credit", to the approval page…) without reading the message.
export type ActionResult<T = undefined> =
  | { ok: true; data: T; message?: string }
  | { ok: false; error: string; code?: DbErrorCode; fieldErrors?: Record<string, string[]>; reasons?: string[] };

export type ActionFailure = Extract<ActionResult, { ok: false }>;

export function ok<T>(data: T, message?: string): ActionResult<T> {
  return message === undefined ? { ok: true, data } : { ok: true, data, message };
}

export function fail(error: string, extra: Omit<ActionFailure, "ok" | "error"> = {}): ActionFailure {
  return { ok: false, error, ...extra };
}

/** Field errors from a zod failure, plus the first message as the summary. */
export function invalid(issues: readonly { path: readonly PropertyKey[]; message: string }[]): ActionFailure {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? "form");
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fail(issues[0]?.message ?? "Please check the form", { fieldErrors });
}
