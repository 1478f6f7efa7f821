"use client";

import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { submitComplaintAction } from "@/lib/actions/complaints";
import type { ActionResult } from "@/lib/actions/result";
import type { Complaint } from "@/lib/data/complaints";
import { formatDate } from "@/lib/format";
import { COMPLAINT_LIMITS } from "@/lib/complaints/complaint-rules";

/**
 * The complaint form for a signed-in player. A refused submission keeps what was typed, with each message beside
 * its field; a saved complaint clears the form and shows its reference and deadlines.
 */
export function ComplaintForm({ contact }: { contact: string }) {
  const { result, errors, formErrors, pending, form } = useFormAction(submitComplaintAction, { clearOnSuccess: true });
  const { subject, reference, details } = COMPLAINT_LIMITS;

  return (
    <form {...form} className="flex flex-col gap-4">
      <Field
        id="field-complaint-subject"
        label="Subject"
        hint={`What the complaint is about, in ${subject.min} to ${subject.max} characters.`}
        errors={errors?.subject}
      >
        {(control) => <Input {...control} name="subject" />}
      </Field>
      <Field
        id="field-complaint-reference"
        label="Competition or payment reference (optional)"
        hint="The competition's name, a ticket number or a reference from your credit history, if it is about one."
        errors={errors?.reference}
      >
        {(control) => <Input {...control} name="reference" autoComplete="off" maxLength={reference.max} />}
      </Field>
      <Field
        id="field-complaint-details"
        label="Details"
        hint={`What happened and what you would like us to do, in ${details.min} to ${details.max.toLocaleString("en-GB")} characters.`}
        errors={errors?.details}
      >
        {(control) => <Textarea {...control} name="details" rows={8} />}
      </Field>
      {result ? <Outcome result={result} formErrors={formErrors} contact={contact} /> : null}
      <div>
        <SubmitButton pending={pending} pendingLabel="Sending…">
          Send complaint
        </SubmitButton>
      </div>
    </form>
  );
}

function Outcome({
  result,
  formErrors,
  contact,
}: {
  result: ActionResult<Complaint>;
  formErrors: string[];
  contact: string;
}) {
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
      return <FormStatus result={result} formErrors={formErrors} />;
  }
}
