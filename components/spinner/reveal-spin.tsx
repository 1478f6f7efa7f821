"use client";

import { Link } from "@/components/ui/link";
import { useActionState } from "react";
import { CircleAlert, CircleCheck } from "lucide-react";
import { SecondStepLink } from "@/components/forms/second-step-link";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { revealSpinAction } from "@/lib/actions/spinner";
import type { ActionResult } from "@/lib/actions/result";
import type { SpinReveal } from "@/lib/data/spinner";
import { verifySpin, type SpinVerification } from "@/lib/spinner/derive";

type Checked = ActionResult<SpinReveal & { verification: SpinVerification }>;

const linkClass = "font-medium text-primary-text underline underline-offset-4";

/**
 * "Reveal and check this spin" in one click: SQL reveals the spin's seed pair (rotating it out when it is
 * still the active one, reveal_spinner_spin), and this browser recomputes the spin with the same code as
 * /labspinner/verify (lib/spinner/derive.ts). `onRevealed` re-reads the panel: the seeds have changed.
 */
export function RevealSpin({ spinId, onRevealed }: { spinId: number; onRevealed: () => void }) {
  const [checked, action, pending] = useActionState(async (prev: Checked | null, form: FormData): Promise<Checked> => {
    const revealed = await revealSpinAction(null, form);
    if (!revealed.ok) return revealed;
    const { spin, revealed: seed, wheel } = revealed.data;
    const verification = await verifySpin(spin, seed, wheel);
    onRevealed();
    return { ...revealed, data: { ...revealed.data, verification } };
  }, null);

  return (
    <div className="flex flex-col gap-3">
      {checked?.ok ? null : (
        <form action={action}>
          <input type="hidden" name="spinId" value={spinId} />
          <Button type="submit" variant="outline" disabled={pending}>
            {pending ? "Revealing and checking…" : "Reveal and check this spin"}
          </Button>
        </form>
      )}
      {/* Announced when the check is done; not a status role, so the spin's result stays the one status here. */}
      <div aria-live="polite">
        {checked?.ok ? <SpinCheck reveal={checked.data} verification={checked.data.verification} /> : null}
        {checked && !checked.ok ? (
          <Alert variant="destructive" announce={false}>
            <AlertTitle>{checked.error}</AlertTitle>
            <SecondStepLink code={checked.code} />
          </Alert>
        ) : null}
      </div>
    </div>
  );
}

function SpinCheck({ reveal, verification }: { reveal: SpinReveal; verification: SpinVerification }) {
  const { spin, revealed, seed } = reveal;
  const segment = verification.computed?.segment;
  return (
    <section
      aria-label="Spin check"
      className="flex flex-col gap-3 rounded-lg border border-border bg-muted p-4 text-sm"
      data-testid="spin-check"
    >
      {verification.ok ? (
        <p className="flex items-center gap-2 text-base font-bold text-success">
          <CircleCheck aria-hidden className="size-5 shrink-0" />
          This spin checks out
        </p>
      ) : (
        <p className="flex items-center gap-2 text-base font-bold text-destructive">
          <CircleAlert aria-hidden className="size-5 shrink-0" />
          This spin does not match
        </p>
      )}
      {verification.ok && segment ? (
        <p>
          The revealed server seed hashes to the SHA-256 shown before the spin, and HMAC-SHA256 of it with your client
          seed and nonce {spin.nonce} gives segment {segment.position}, {segment.label}: what the wheel showed.
        </p>
      ) : (
        <ul className="list-disc pl-5">
          {verification.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
      <dl className="flex flex-col gap-2">
        <div>
          <dt className="font-medium">Server seed (revealed)</dt>
          <dd className="font-mono text-xs break-all" data-testid="revealed-spin-seed">
            {revealed.server_seed}
          </dd>
        </div>
        <div>
          <dt className="font-medium">Its SHA-256, shown before the spin</dt>
          <dd className="font-mono text-xs break-all">{revealed.server_seed_hash}</dd>
        </div>
        <div>
          <dt className="font-medium">Client seed and nonce</dt>
          <dd className="font-mono text-xs break-all">
            {spin.client_seed}:{spin.nonce}
          </dd>
        </div>
      </dl>
      {seed.id !== revealed.id ? (
        <p>Your seed pair has been rotated: your next spins use a new server seed, with the same client seed.</p>
      ) : null}
      <Link href="/labspinner/verify" className={`${linkClass} self-start`}>
        Check all your spins
      </Link>
    </section>
  );
}
