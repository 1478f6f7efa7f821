"use client";

import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { twoStepPath } from "@/lib/auth/paths";
import type { DbErrorCode } from "@/lib/data/errors";

/**
 * The one way a refusal offers the code step: under any refusal whose code is `aal2_required` (a
 * session with two-step on that has not given its code, or an admin at aal1), a link to
 * /account/two-step that comes back to this page. Nothing for any other code.
 */
export function SecondStepLink({ code, className }: { code?: DbErrorCode; className?: string }) {
  const pathname = usePathname();
  if (code !== "aal2_required") return null;
  return (
    <Link
      href={twoStepPath(pathname || "/account")}
      className={className ?? "inline-flex pt-1 text-sm font-medium underline underline-offset-4"}
    >
      Enter your two-step code
    </Link>
  );
}
