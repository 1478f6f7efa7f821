// What every server action returns: a result a form can show, never a thrown error.
export type ActionResult<T = undefined> =
  | { ok: true; data: T; message?: string }
  | { ok: false; error: string; fieldErrors?: Record<string, string[]>; reasons?: string[] };

export const initialResult = null;

export function fail(error: string, extra: Omit<Extract<ActionResult, { ok: false }>, "ok" | "error"> = {}) {
  return { ok: false as const, error, ...extra };
}

/** Field errors from a zod failure, plus the first message as the summary. */
export function invalid(issues: { path: PropertyKey[]; message: string }[]) {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? "form");
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fail(issues[0]?.message ?? "Please check the form", { fieldErrors });
}
