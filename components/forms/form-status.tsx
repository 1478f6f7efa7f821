import type { ActionResult } from "@/lib/actions/result";

// The summary line under a form: the error (announced) or the success message.
export function FormStatus({ result }: { result: ActionResult<unknown> | null }) {
  if (!result) return null;
  if (result.ok) {
    return result.message ? (
      <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-900 dark:bg-green-950 dark:text-green-100">
        {result.message}
      </p>
    ) : null;
  }
  return (
    <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-100">
      <p>{result.error}</p>
      {result.reasons?.length ? (
        <ul className="mt-1 list-disc pl-5">
          {result.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
