"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";
import type { HeaderSession } from "@/lib/auth/header-user";
import { usePersonal } from "@/lib/hooks/use-personal";

/** How often the waiting page asks while it is on screen: approval is usually quick, and someone is watching. */
const APPROVAL_REFRESH_MS = 15_000;

/**
 * The waiting page noticing the admin's decision: it asks the header's own route (the bell's mechanism, lib/hooks/
 * use-personal.ts) every few seconds while the tab is visible and at once when the player comes back to it. Once the
 * account is approved it says so and takes the player on to `goTo`, the page they came from; once it is turned down
 * it renders the page again, which then says so and why.
 */
export function ApprovalWatch({ goTo }: { goTo: string }) {
  const router = useRouter();
  const session = usePersonal<HeaderSession>("/api/session/header", goTo, APPROVAL_REFRESH_MS);
  const approved = session?.user.approved ?? false;
  const rejected = session?.user.rejected ?? false;
  useEffect(() => {
    if (approved) router.replace(goTo);
    else if (rejected) router.refresh();
  }, [approved, rejected, goTo, router]);
  return (
    <p
      role="status"
      className={
        approved
          ? "rounded-md border border-success/30 bg-success-soft p-3 font-semibold text-success-soft-foreground"
          : "sr-only"
      }
    >
      {approved ? "You're approved: taking you on…" : ""}
    </p>
  );
}
