import { Badge } from "@/components/ui/badge";
import { formatDateTime } from "@/lib/format";
import { identityCheckSummary, PRIZE_STATUS, prizeSteps, type PrizeStatus } from "@/lib/prizes/steps";
import { cn } from "@/lib/utils";

/** The prize's status in the words every page uses (lib/prizes/steps.ts). */
export function PrizeStatusBadge({ status }: { status: PrizeStatus }) {
  return <Badge variant={PRIZE_STATUS[status].variant}>{PRIZE_STATUS[status].label}</Badge>;
}

/**
 * Claimed → verified → delivered, each with the date SQL recorded (draws_prize_fulfilment_steps_check), the proof
 * reference beside "Delivered" when the viewer may see it, and beside "Verified" the identity check behind it for
 * admins.
 */
export function PrizeTimeline({
  prize,
  proof,
  identityCheck,
}: {
  prize: { claimed_at: string | null; verified_at: string | null; delivered_at: string | null };
  proof?: string | null;
  identityCheck?: Parameters<typeof identityCheckSummary>[0] & { note: string | null };
}) {
  return (
    <ol aria-label="Prize progress" className="grid gap-2 sm:grid-cols-3">
      {prizeSteps(prize).map((step) => (
        <li
          key={step.status}
          className={cn(
            "rounded-md border px-3 py-2 text-sm",
            step.at ? "border-success/40 bg-success-soft text-success-soft-foreground" : "border-border",
          )}
        >
          <span className="font-medium">{step.label}</span> <span>{step.at ? formatDateTime(step.at) : "not yet"}</span>
          {step.status === "verified" && step.at && identityCheck ? (
            <>
              <span className="block">{identityCheckSummary(identityCheck)}</span>
              {identityCheck.note ? <span className="block">{identityCheck.note}</span> : null}
            </>
          ) : null}
          {step.status === "delivered" && step.at && proof ? (
            <span className="block">Proof of delivery: {proof}</span>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
