import { Alert } from "@/components/ui/alert";
import type { ActionResult } from "@/lib/actions/result";
import { SecondStepLink } from "./second-step-link";

// The summary line under a form: the error (announced, with the code step's link when that is what it
// needs) or the success message.
export function FormStatus({ result }: { result: ActionResult<unknown> | null }) {
  if (!result) return null;
  if (result.ok) {
    return result.message ? <Alert variant="success">{result.message}</Alert> : null;
  }
  return (
    <Alert variant="destructive">
      <p>{result.error}</p>
      {result.reasons?.length ? (
        <ul className="mt-1 list-disc pl-5">
          {result.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
      <SecondStepLink code={result.code} />
    </Alert>
  );
}
