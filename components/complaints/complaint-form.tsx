"use client";

import { useActionState, useState } from "react";
import { SecondStepLink } from "@/components/forms/second-step-link";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { submitComplaintAction } from "@/lib/actions/complaints";
import type { ActionResult } from "@/lib/actions/result";
import type { Complaint } from "@/lib/data/complaints";
import { formatDate } from "@/lib/format";
import { COMPLAINT_LIMITS } from "./complaint-rules";

type Values = { subject: string; reference: string; details: string };
const EMPTY: Values = { subject: "", reference: "", details: "" };

/**
 * The complaint form for a signed-in player. The fields are controlled so a refused submission keeps what was
 * typed (React resets uncontrolled fields after every action); a saved complaint clears them and shows its
 * reference and deadlines.
 */
export function ComplaintForm({ contact }: { contact: string }) {
  const [result, action] = useActionState(submitComplaintAction, null);
  const [values, setValues] = useState<Values>(EMPTY);
  const [shown, setShown] = useState<ActionResult<Complaint> | null>(null);
  if (result !== shown) {
    setShown(result);
    if (result?.ok) setValues(EMPTY);
  }
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  const set = (field: keyof Values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));
  const { subject, reference, details } = COMPLAINT_LIMITS;

  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <Field
        id="field-complaint-subject"
        label="Subject"
        hint={`What the complaint is about, in ${subject.min} to ${subject.max} characters.`}
        errors={errors?.subject}
      >
        {(control) => <Input {...control} name="subject" value={values.subject} onChange={set("subject")} />}
      </Field>
      <Field
        id="field-complaint-reference"
        label="Competition or payment reference (optional)"
        hint="The competition's name, a ticket number or a reference from your credit history, if it is about one."
        errors={errors?.reference}
      >
        {(control) => (
          <Input
            {...control}
            name="reference"
            autoComplete="off"
            maxLength={reference.max}
            value={values.reference}
            onChange={set("reference")}
          />
        )}
      </Field>
      <Field
        id="field-complaint-details"
        label="Details"
        hint={`What happened and what you would like us to do, in ${details.min} to ${details.max.toLocaleString("en-GB")} characters.`}
        errors={errors?.details}
      >
        {(control) => (
          <Textarea {...control} name="details" rows={8} value={values.details} onChange={set("details")} />
        )}
      </Field>
      {result ? <Outcome result={result} contact={contact} /> : null}
      <div>
        <SubmitButton pendingLabel="Sending…">Send complaint</SubmitButton>
      </div>
    </form>
  );
}

function Outcome({ result, contact }: { result: ActionResult<Complaint>; contact: string }) {
  if (result.ok) {
    const complaint = result.data;
    return (
      <Alert variant="success">
        <AlertTitle>Your reference is {complaint.reference}</AlertTitle>
        <p className="mt-1">
          We will acknowledge your complaint by {formatDate(complaint.acknowledge_by)} and send you our final answer by{" "}
          {formatDate(complaint.respond_by)}. We have e-mailed you a confirmation.
        </p>
      </Alert>
    );
  }
  switch (result.code) {
    case "rate_limited":
      return (
        <Alert variant="destructive">
          <p>{result.error}</p>
          <p className="mt-1">
            If it cannot wait, e-mail{" "}
            <a href={`mailto:${contact}`} className="font-medium underline underline-offset-4">
              {contact}
            </a>{" "}
            and we will add it to your complaints.
          </p>
        </Alert>
      );
    default:
      return (
        <Alert variant="destructive">
          <p>{result.error}</p>
          <SecondStepLink code={result.code} />
        </Alert>
      );
  }
}
