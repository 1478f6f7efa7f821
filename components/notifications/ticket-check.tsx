"use client";

import { Link } from "@/components/ui/link";
import { useId } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { checkTicketAction } from "@/lib/actions/notifications";
import { useFormAction } from "@/lib/hooks/use-form-action";
import type { TicketCheck } from "@/lib/notifications/ticket-check";
import { ordinal } from "@/lib/format";

function answer(check: TicketCheck) {
  switch (check.result) {
    case "won":
      return (check.prizes ?? 1) > 1 ? (
        <>
          Ticket #{check.number} won the {ordinal(check.prize_position ?? 1)} prize in {check.title}:{" "}
          {check.prize_description}.
        </>
      ) : (
        <>
          Ticket #{check.number} won {check.title}.
        </>
      );
    case "not_won":
      return (check.prizes ?? 1) > 1 ? (
        <>
          Ticket #{check.number} did not win a prize in {check.title}: ticket #{check.winning_number} won the 1st prize.
        </>
      ) : (
        <>
          Ticket #{check.number} did not win {check.title}: ticket #{check.winning_number} did.
        </>
      );
    case "not_drawn":
      return <>{check.title} has not been drawn yet.</>;
    case "no_such_ticket":
      return (
        <>
          There is no ticket #{check.number} in {check.title}. Check the number on your receipt.
        </>
      );
  }
}

/**
 * "Did I win?" for one competition (or a choice of them on /winners): the answer comes from a server action,
 * so the page around it stays one cached document. It never says who holds a ticket.
 */
export function TicketCheckForm({ competitions }: { competitions: { slug: string; title: string }[] }) {
  const form = useFormAction(checkTicketAction);
  const id = useId();
  const check = form.result?.ok ? form.result.data : null;
  return (
    <form {...form.form} className="space-y-3" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-xl font-bold tracking-tight">
        Did I win?
      </h2>
      {competitions.length === 1 ? (
        <input type="hidden" name="slug" value={competitions[0].slug} />
      ) : (
        <Field id={`${id}-slug`} label="Competition" errors={form.errors?.slug}>
          {(control) => (
            <Select {...control} name="slug">
              {competitions.map((c) => (
                <option key={c.slug} value={c.slug}>
                  {c.title}
                </option>
              ))}
            </Select>
          )}
        </Field>
      )}
      <Field id={`${id}-number`} label="Ticket number" errors={form.errors?.number}>
        {(control) => <Input {...control} name="number" inputMode="numeric" autoComplete="off" />}
      </Field>
      <Button type="submit" size="sm" disabled={form.pending}>
        Check ticket
      </Button>
      <div role="status" aria-live="polite">
        {check ? (
          <p>
            {answer(check)}{" "}
            {check.draw_id ? (
              <Link
                href={`/winners/${check.draw_id}`}
                className="font-medium text-primary-text underline underline-offset-4"
              >
                Verify the draw
              </Link>
            ) : null}
          </p>
        ) : null}
      </div>
      <FormStatus result={form.result?.ok ? null : form.result} formErrors={form.formErrors} />
    </form>
  );
}
