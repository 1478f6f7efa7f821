"use client";

import { useState, type ReactNode } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { buttonClasses } from "@/components/ui/button";
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
import type { ActionHandler } from "@/lib/actions/action";
import type { Protections } from "@/lib/data/protections";

/**
 * A protection that cannot be undone early (a break, self-exclusion, closure): the button opens a
 * dialog that says so, holds the choice (`children`) and asks for confirmation. On success the
 * dialog closes and the page, refreshed by the action, shows the new state.
 */
export function ConfirmProtectionDialog({
  trigger,
  title,
  description,
  confirm,
  action,
  children,
}: {
  trigger: string;
  title: string;
  description: ReactNode;
  confirm: string;
  action: ActionHandler<Protections>;
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const { result, pending, form } = useFormAction(action);
  const [seen, setSeen] = useState(result);
  if (result !== seen) {
    setSeen(result);
    if (result?.ok) setOpen(false);
  }
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger className={buttonClasses("outline", "md", "self-start")}>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form {...form} className="flex flex-col gap-4">
          {children}
          <p className="text-sm font-semibold">This cannot be undone early.</p>
          {/* Every refusal here: the choice (`children`) comes from the page without a place for a message. */}
          {result && !result.ok ? <FormStatus result={result} /> : null}
          <DialogFooter>
            <DialogClose className={buttonClasses("outline", "md")}>Cancel</DialogClose>
            <SubmitButton pending={pending} pendingLabel="Please wait…">
              {confirm}
            </SubmitButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
