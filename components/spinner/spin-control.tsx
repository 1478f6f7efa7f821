"use client";

import { Link } from "@/components/ui/link";
import { useActionState, type ReactNode } from "react";
import { SecondStepLink } from "@/components/forms/second-step-link";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { celebrate } from "@/lib/ui/celebrate";
import { pendingApprovalPath } from "@/lib/auth/paths";
import { spinWheelAction } from "@/lib/actions/spinner";
import type { ActionResult } from "@/lib/actions/result";
import type { DbErrorCode } from "@/lib/data/errors";
import type { SpinResult } from "@/lib/data/spinner";
import { formatGBP } from "@/lib/format";
import { RevealSpin } from "./reveal-spin";
import { useSpinnerStage } from "./spinner-stage";

const alertLinkClass = "inline-flex pt-1 text-sm font-medium underline-offset-4 hover:underline";

/**
 * The Spin button (or, in its place, why there is none: `unavailable`) and the last result. The
 * server decides and pays first (spin_wheel); the wheel then turns to the recorded segment, and only
 * once it rests does the result show and `onSpun` re-read the balance, credits and recent spins
 * (which would otherwise give the result away early).
 */
export function SpinControl({ onSpun, unavailable }: { onSpun: () => void; unavailable: ReactNode }) {
  const stage = useSpinnerStage();
  const [result, action, pending] = useActionState(async (prev: ActionResult<SpinResult> | null, form: FormData) => {
    stage.bringIntoView();
    const next = await spinWheelAction(prev, form);
    if (next.ok) {
      await stage.spinTo(next.data.segment_position);
      if (next.data.prize_credits > 0) void celebrate();
    }
    onSpun();
    return next;
  }, null);

  return (
    <div className="flex flex-col gap-3">
      {/* The result first, where the eye and a screen reader are, above whatever replaces the button. */}
      <p role="status" aria-live="polite" className="font-semibold">
        {pending ? "The wheel is spinning…" : result?.ok ? spinOutcome(result.data) : null}
      </p>
      {result?.ok && !pending ? <RevealSpin key={result.data.id} spinId={result.data.id} onRevealed={onSpun} /> : null}
      {result && !result.ok ? <SpinRefusal message={result.error} code={result.code} /> : null}
      {/* The button stays while a spin is pending, so the result stays announced after it spends the last credit. */}
      {pending || !unavailable ? (
        <form action={action}>
          <Button type="submit" size="lg" disabled={pending} className="w-full">
            {pending ? "Spinning…" : "Spin the wheel"}
          </Button>
        </form>
      ) : (
        unavailable
      )}
    </div>
  );
}

/** The result, naming the spin's nonce so two spins in a row are told apart (and found on the verify page). */
function spinOutcome(spin: SpinResult): string {
  const outcome =
    spin.prize_credits > 0
      ? `The wheel stopped on ${spin.label}. You won ${formatGBP(spin.prize_credits)} in credit!`
      : `The wheel stopped on ${spin.label}. No prize this time.`;
  return `${outcome} (Spin nonce ${spin.nonce}.)`;
}

function SpinRefusal({ message, code }: { message: string; code?: DbErrorCode }) {
  return (
    <Alert variant="destructive">
      <AlertTitle>{message}</AlertTitle>
      {code === "no_spin_credits" ? (
        <Link href="/competitions" className={alertLinkClass}>
          See the live competitions
        </Link>
      ) : null}
      {code === "approval_pending" ? (
        // Back to the wheel once approved: the waiting page goes on here.
        <Link href={pendingApprovalPath("/labspinner")} className={alertLinkClass}>
          What happens next
        </Link>
      ) : null}
      {code === "on_break" || code === "self_excluded" ? (
        <Link href="/account/responsible-play" className={alertLinkClass}>
          Responsible play
        </Link>
      ) : null}
      <SecondStepLink code={code} className={alertLinkClass} />
    </Alert>
  );
}
