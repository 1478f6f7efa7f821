"use client";

import type { ReactNode, Ref } from "react";
import { useActionState } from "react";
import { signOut } from "@/lib/actions/auth";

/**
 * The one way to sign out: a POST form on this site running the signOut action (a GET of /logout only
 * asks). Works without JavaScript too. `children` is its button; the header menu gives none and submits
 * it through `ref` (its menu item is not inside the form).
 */
export function SignOutForm({
  children,
  className,
  ref,
}: {
  children?: ReactNode;
  className?: string;
  ref?: Ref<HTMLFormElement>;
}) {
  const [result, action] = useActionState(signOut, null);
  return (
    <form action={action} ref={ref} className={className}>
      {children}
      {result && !result.ok ? (
        <p role="alert" className="text-sm text-destructive">
          {result.error}
        </p>
      ) : null}
    </form>
  );
}
