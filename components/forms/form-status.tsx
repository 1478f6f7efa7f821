import { Alert } from "@/components/ui/alert";
import type { ActionResult } from "@/lib/actions/result";
import { SecondStepLink } from "./second-step-link";

/**
 * The form-level line under a form: the success message, or the refusal's messages that belong to no field
 * the form shows (`formErrors` from useFormAction; each its own line, with the code step's link when that is
 * what it needs). Messages about a field are beside that field, never repeated here. Without `formErrors`
 * (a form of buttons only) it shows the refusal's message.
 */
export function FormStatus({ result, formErrors }: { result: ActionResult<unknown> | null; formErrors?: string[] }) {
  if (!result) return null;
  if (result.ok) {
    return result.message ? <Alert variant="success">{result.message}</Alert> : null;
  }
  const messages = formErrors ?? [result.error];
  if (messages.length === 0) return null;
  return (
    <Alert variant="destructive">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
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
