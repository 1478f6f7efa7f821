"use client";

import { startTransition, useActionState, useState, type FormEvent } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { publishCompetitionAction } from "@/lib/actions/admin-competitions";

/** What publishing fixes for good, already formatted by the page (UK times, pounds; "opens" says now when it will). */
export type PublishTerms = {
  title: string;
  opens: string;
  closes: string;
  postalDeadline: string;
  draw: string;
  ticketPrice: string;
  tickets: string;
  perPerson: string;
};

/**
 * Publishing cannot be undone: it fixes the dates and makes the secret draw seed whose commitment is published.
 * The dialog restates what is being fixed, and the button inside it is the one that publishes.
 */
export function PublishButton({ competitionId, terms }: { competitionId: string; terms: PublishTerms }) {
  const [open, setOpen] = useState(false);
  const [result, dispatch, pending] = useActionState(publishCompetitionAction, null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(() => dispatch(form));
  }

  const rows: [string, string][] = [
    ["Opens", terms.opens],
    ["Closes", terms.closes],
    ["Postal deadline", terms.postalDeadline],
    ["Draw", terms.draw],
    ["Ticket price", terms.ticketPrice],
    ["Tickets", terms.tickets],
    ["Tickets per person", terms.perPerson],
  ];

  return (
    <div className="flex flex-col gap-2">
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogTrigger asChild>
          <Button>Publish…</Button>
        </DialogTrigger>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Publish {terms.title}?</DialogTitle>
            <DialogDescription>
              Publishing cannot be undone. It makes the competition public with these dates and terms, fixed for good,
              and makes the secret draw seed whose SHA-256 commitment is published with it: the draw will use that seed.
            </DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="font-medium">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="text-sm text-muted-foreground">Times are UK time (Europe/London).</p>
          <form onSubmit={onSubmit} aria-label="Publish" className="flex flex-col gap-4">
            <input type="hidden" name="id" value={competitionId} />
            <FormStatus result={result} />
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  Keep as draft
                </Button>
              </DialogClose>
              <Button type="submit" disabled={pending} aria-disabled={pending}>
                {pending ? "Publishing…" : "Publish for good"}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
