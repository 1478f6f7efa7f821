"use client";

import { useEffect, useRef, useState } from "react";
import { FormFooter } from "@/components/forms/form-footer";
import { FormStatus } from "@/components/forms/form-status";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { previewMailAction, sendMailAction, type PreviewedMail } from "@/lib/actions/admin-mail";
import type { ActionResult } from "@/lib/actions/result";
import { LABELS } from "@/lib/labels";
import { MAIL_LIMITS, segmentText } from "@/lib/mail/mail-fields";

export type ComposeCompetition = { id: string; title: string; status: string };

const players = (n: number) => (n === 1 ? "1 player" : `${n.toLocaleString("en-GB")} players`);

/**
 * Compose → preview → send. "Preview" checks the form and asks SQL who the segment reaches now and how the
 * message reads; the preview is the confirmation step, and "Send to N players" sends exactly what it shows.
 * Changing any field hides the preview, so nothing unseen is sent.
 */
export function MailComposer({ competitions }: { competitions: ComposeCompetition[] }) {
  const { result, errors, formErrors, pending, form } = useFormAction(previewMailAction);
  const [segment, setSegment] = useState("all_players");
  const [shown, setShown] = useState<ActionResult<PreviewedMail> | null>(null);
  const [stale, setStale] = useState(false);
  if (result !== shown) {
    setShown(result);
    setStale(false);
  }
  const previewed = result?.ok && !stale ? result.data : null;

  return (
    <div className="flex flex-col gap-6">
      <form {...form} onChange={() => setStale(true)} className="flex flex-col gap-4" aria-label="Compose mail">
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            id="mail-kind"
            label="Kind"
            hint="Marketing goes only to players who agreed to it and are not on a break, self-excluded or closed. A service notice (about their entries or account) goes to the whole segment."
            errors={errors?.kind}
            name="kind"
            defaultValue="marketing"
            options={LABELS.mail_kind}
          />
          <SelectField
            id="mail-segment"
            label="Send to"
            hint="Only approved players with a verified age are ever mailed."
            errors={errors?.segment}
            name="segment"
            defaultValue="all_players"
            onChange={(event) => setSegment(event.currentTarget.value)}
            options={LABELS.mail_segment}
          />
        </div>
        {segment === "competition_entrants" ? (
          <Field
            id="mail-competition"
            label="Competition"
            hint="Everyone who entered it, refunded entries included."
            errors={errors?.competitionId}
          >
            {(control) => (
              <Select {...control} name="competitionId" defaultValue="">
                <option value="">Choose a competition</option>
                {competitions.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.title} ({c.status.replace("_", " ")})
                  </option>
                ))}
              </Select>
            )}
          </Field>
        ) : null}
        <Field
          id="mail-subject"
          label="Subject"
          hint={`${MAIL_LIMITS.subject.min} to ${MAIL_LIMITS.subject.max} characters, one line.`}
          errors={errors?.subject}
        >
          {(control) => <Input {...control} name="subject" maxLength={MAIL_LIMITS.subject.max} autoComplete="off" />}
        </Field>
        <Field
          id="mail-body"
          label="Message"
          hint={`Plain text, ${MAIL_LIMITS.body.min} to 5,000 characters. Each player's mail starts "Hello <first name>," and ends with a footer: for marketing, why they get it and how to stop.`}
          errors={errors?.body}
        >
          {(control) => <Textarea {...control} name="body" rows={8} maxLength={MAIL_LIMITS.body.max} />}
        </Field>
        {result && !result.ok ? <FormStatus result={result} formErrors={formErrors} /> : null}
        <div>
          <Button type="submit" disabled={pending} aria-disabled={pending}>
            {pending ? "Counting recipients…" : "Preview"}
          </Button>
        </div>
      </form>
      {previewed ? <MailPreviewPanel key={previewed.requestId} previewed={previewed} /> : null}
    </div>
  );
}

function MailPreviewPanel({ previewed }: { previewed: PreviewedMail }) {
  const { draft, preview, requestId } = previewed;
  const { result, pending, form } = useFormAction(sendMailAction);
  const heldBack = preview.held_back.no_consent + preview.held_back.protected;
  // A new preview takes the focus, so keyboard and screen-reader users land on the count and the message.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <section aria-labelledby="mail-preview-title" className="flex flex-col gap-4 rounded-xl border border-border p-5">
      <h2 id="mail-preview-title" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
        Preview
      </h2>
      <p>
        This {LABELS.mail_kind[preview.kind].toLowerCase()} goes to <strong>{players(preview.recipients)}</strong>:{" "}
        {segmentText(preview.segment, preview.competition)}, as of now.
      </p>
      {preview.kind === "marketing" && heldBack > 0 ? (
        <p className="text-sm text-muted-foreground">
          {players(heldBack)} in the segment will not get it: {preview.held_back.no_consent} did not agree to marketing,{" "}
          {preview.held_back.protected} on a break, self-excluded or closed.
        </p>
      ) : null}
      {preview.sample ? (
        <div className="flex flex-col gap-2">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted-foreground">To</dt>
            <dd>
              {preview.sample.name} &lt;{preview.sample.email}&gt; (as each player gets it, with their own name)
            </dd>
            <dt className="text-muted-foreground">Subject</dt>
            <dd className="font-medium">{preview.subject}</dd>
          </dl>
          <pre className="rounded-md border border-border bg-muted p-4 font-sans text-sm break-words whitespace-pre-wrap">
            {preview.rendered}
          </pre>
        </div>
      ) : null}
      {preview.recipients === 0 ? (
        <Alert variant="warning">
          Nobody in this segment may receive this mail now, so there is nothing to send. Choose another segment or kind.
        </Alert>
      ) : (
        <form {...form} className="flex flex-col gap-3" aria-label="Send mail">
          <input type="hidden" name="kind" value={draft.kind} />
          <input type="hidden" name="segment" value={draft.segment} />
          <input type="hidden" name="competitionId" value={draft.competitionId ?? ""} />
          <input type="hidden" name="subject" value={draft.subject} />
          <input type="hidden" name="body" value={draft.body} />
          <input type="hidden" name="requestId" value={requestId} />
          <FormFooter result={result} pending={pending} pendingLabel="Sending…">
            {`Send to ${players(preview.recipients)}`}
          </FormFooter>
        </form>
      )}
    </section>
  );
}
