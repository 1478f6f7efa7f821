"use client";

import { AlertDialog as Primitive } from "radix-ui";
import type { ReactNode } from "react";
import { Button, buttonClasses, type ButtonProps } from "@/components/ui/button";

/**
 * An action that destroys or refuses something (cancel a competition, reject an account, delete a user), always
 * behind this confirmation. The trigger is quiet (red text on an outline) so it never outweighs the ordinary action
 * beside it; the alert dialog names what is destroyed, is not dismissed by a stray click outside, puts focus on
 * the way out, and its red button is the one that acts. `children` is the form: its fields, then
 * `DestructiveDialogFooter`.
 */
export function DestructiveDialog({
  trigger,
  title,
  description,
  open,
  onOpenChange,
  size = "md",
  children,
}: {
  /** The trigger's words, e.g. "Cancel competition"; the trigger adds "…", since it only opens the confirmation. */
  trigger: string;
  /** Names what is destroyed: "Cancel Win a bike?". */
  title: string;
  /** What happens and what is kept, in words the operator can check. */
  description: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  size?: ButtonProps["size"];
  children: ReactNode;
}) {
  return (
    <Primitive.Root open={open} onOpenChange={onOpenChange}>
      <Primitive.Trigger className={buttonClasses("quietDestructive", size)}>{trigger}…</Primitive.Trigger>
      <Primitive.Portal>
        <Primitive.Overlay className="fixed inset-0 z-50 bg-overlay" />
        <Primitive.Content className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col gap-4 overflow-y-auto rounded-xl border border-border bg-card p-6 text-card-foreground shadow-2xl">
          <div className="flex flex-col gap-1.5">
            <Primitive.Title className="text-lg font-semibold">{title}</Primitive.Title>
            <Primitive.Description className="text-sm text-muted-foreground">{description}</Primitive.Description>
          </div>
          {children}
        </Primitive.Content>
      </Primitive.Portal>
    </Primitive.Root>
  );
}

/** The dialog's two buttons: keep (closes, and has the focus first) and the red one that submits the form. */
export function DestructiveDialogFooter({
  keepLabel,
  confirmLabel,
  pendingLabel,
  pending,
}: {
  keepLabel: string;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Primitive.Cancel className={buttonClasses("outline", "md")}>{keepLabel}</Primitive.Cancel>
      <Button type="submit" variant="destructive" disabled={pending} aria-disabled={pending}>
        {pending ? pendingLabel : confirmLabel}
      </Button>
    </div>
  );
}
