"use client";

import { Link } from "@/components/ui/link";
import { useRouter } from "next/navigation";

/**
 * "Add credit" when an entry is short: to /payment/competition with the competition, the quantity
 * and, if one is chosen in the surrounding entry form, the answer (read when clicked; the page asks
 * for it otherwise).
 */
export function ShortfallLink({
  competitionId,
  quantity,
  className,
  children,
}: {
  competitionId: string;
  quantity: number;
  className?: string;
  children: React.ReactNode;
}) {
  const router = useRouter();
  const href = (answer: string | null) =>
    `/payment/competition?${new URLSearchParams({
      competition: competitionId,
      quantity: String(quantity),
      ...(answer ? { answer } : {}),
    })}`;
  return (
    <Link
      href={href(null)}
      className={className}
      onClick={(event) => {
        const form = event.currentTarget.closest("form");
        const answer = form ? new FormData(form).get("answer") : null;
        if (typeof answer !== "string" || !answer) return;
        event.preventDefault();
        router.push(href(answer));
      }}
    >
      {children}
    </Link>
  );
}
