"use client";

import { useCallback, useEffect, useRef } from "react";
import { Link } from "@/components/ui/link";
import { askAssistant } from "@/lib/actions/assistant";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { PROMPT_MAX } from "@/lib/assistant/prompt-limit";
import type { AssistantAnswer } from "@/lib/assistant/answer";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";

const linkClasses = "font-medium text-primary-text underline underline-offset-4";

/** The help assistant's prompt and its answer (lib/actions/assistant.ts). */
export function HelpAssistantForm() {
  const { result, errors, formErrors, pending, form } = useFormAction(askAssistant);
  // On a phone the answer arrives below the fold: its start is brought into view, as a chat shows its reply
  // ("nearest": nothing moves when it is already in sight).
  const lead = useRef<HTMLElement | null>(null);
  const setLead = useCallback((element: HTMLElement | null) => {
    lead.current = element;
  }, []);
  useEffect(() => {
    if (result?.ok) lead.current?.scrollIntoView({ block: "nearest" });
  }, [result]);
  return (
    <div className="flex flex-col gap-4">
      <form {...form} className="flex flex-col gap-3">
        <Field
          id="assistant-prompt"
          label="Ask about LabCash"
          hint={`Answers come from our documentation. Up to ${PROMPT_MAX} characters.`}
          errors={errors?.prompt}
        >
          {(control) => <Textarea {...control} name="prompt" rows={2} />}
        </Field>
        <div>
          <SubmitButton pending={pending} pendingLabel="Looking it up…" variant="outline">
            Send prompt
          </SubmitButton>
        </div>
        <FormStatus result={result} formErrors={formErrors} />
      </form>
      {result?.ok ? <Answer reply={result.data} lead={setLead} /> : null}
    </div>
  );
}

/** One answer; `lead` gets its first part, the one that answers. */
function Answer({ reply, lead }: { reply: AssistantAnswer; lead: (element: HTMLElement | null) => void }) {
  // aria-live: the answer is announced when it arrives, as a chat reply would be.
  return (
    <div aria-live="polite" className="flex flex-col gap-3 text-sm">
      {reply.kind === "account" ? (
        <p ref={lead}>
          I can&apos;t see your account, so I never answer about it. {reply.pointer.text}{" "}
          <Link href={reply.pointer.href} className={linkClasses}>
            Go to {reply.pointer.place}
          </Link>
        </p>
      ) : reply.kind === "none" ? (
        <p ref={lead}>
          I couldn&apos;t find that in our documentation. Try other words, browse{" "}
          <Link href="/docs" className={linkClasses}>
            the docs
          </Link>
          , or{" "}
          <Link href="/complaints" className={linkClasses}>
            contact us
          </Link>
          .
        </p>
      ) : (
        <>
          {reply.phrased ? (
            // The model's text as plain text: any link it wrote stays inert; the links are the passages' below.
            <figure ref={lead} className="flex flex-col gap-1">
              <figcaption className="text-xs text-muted-foreground">
                Written by an AI model from the pages below. Check them for the details.
              </figcaption>
              <p className="whitespace-pre-line">{reply.phrased}</p>
            </figure>
          ) : null}
          <p>From our documentation:</p>
          {/* The best passage is the answer, in full; the others follow, shorter, for a question it leaves open. */}
          <ol aria-label="Passages used" className="flex flex-col gap-3 break-words">
            {reply.passages.map((passage, i) => (
              <li
                key={passage.href}
                ref={i === 0 && !reply.phrased ? lead : undefined}
                className="rounded-md border border-border p-3"
              >
                <Link href={passage.href} className={linkClasses}>
                  {[...passage.trail, passage.title].join(" › ")}
                </Link>
                <p className={i === 0 ? "mt-1" : "mt-1 line-clamp-2 text-muted-foreground"}>{passage.text}</p>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
