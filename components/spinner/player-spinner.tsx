import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";
import { PlayBlockNotice } from "@/components/account/play-block-notice";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { DataTable } from "@/components/ui/data-table";
import type { MySpinner, SpinCredits } from "@/lib/data/spinner";
import { formatDateTime, formatGBP } from "@/lib/format";
import { plural } from "@/lib/competitions/ticket-numbers";
import { ClientSeedForm, RotateSeed } from "./seed-controls";
import { SpinControl } from "./spin-control";

const cardClass = "flex flex-col gap-4 rounded-xl border border-border bg-card p-4 sm:p-5";
const linkClass = "font-medium text-primary-text underline underline-offset-4";

/** A signed-in player's wheel: credits and progress, what stops a spin (if anything), the seeds and the last spins. */
export function PlayerSpinner({ spinner, onChange }: { spinner: MySpinner; onChange: () => void }) {
  const { credits, seed } = spinner;
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="your-spins-heading" className={cardClass}>
        <h2 id="your-spins-heading" className="text-xl font-semibold">
          Your spins
        </h2>
        <dl className="grid grid-cols-2 gap-3">
          <div className="rounded-lg bg-muted p-3">
            <dt className="text-sm text-muted-foreground">Spin credits</dt>
            <dd className="text-2xl font-bold tabular-nums" data-testid="spin-credits">
              {credits.available}
            </dd>
          </div>
          <div className="rounded-lg bg-muted p-3">
            <dt className="text-sm text-muted-foreground">Your credit</dt>
            <dd className="text-2xl font-bold tabular-nums" data-testid="spinner-balance">
              {formatGBP(spinner.balance)}
            </dd>
          </div>
        </dl>
        {/* The button before the progress: on a phone it is on the first screen with the wheel. */}
        <SpinControl onSpun={onChange} unavailable={whyNoSpin(spinner)} />
        <SpendProgress credits={credits} />
      </section>

      <section aria-labelledby="your-seeds-heading" className={cardClass}>
        <h2 id="your-seeds-heading" className="text-xl font-semibold">
          Your seeds
        </h2>
        <p className="text-sm text-muted-foreground">
          Each spin comes from HMAC-SHA256 of your server seed and <em>client seed:nonce</em>. You see the server
          seed&apos;s SHA-256 now; rotate the pair to reveal the seed itself and check every spin it decided.
        </p>
        <dl className="flex flex-col gap-3 text-sm">
          <div>
            <dt className="font-medium">Server seed (SHA-256)</dt>
            <dd className="font-mono text-xs break-all" data-testid="server-seed-hash">
              {seed.server_seed_hash}
            </dd>
          </div>
          <div>
            <dt className="font-medium">Next nonce</dt>
            <dd className="font-mono" data-testid="next-nonce">
              {seed.next_nonce}
            </dd>
          </div>
        </dl>
        <ClientSeedForm clientSeed={seed.client_seed} onSaved={onChange} />
        <RotateSeed onRotated={onChange} />
        <Link href="/labspinner/verify" className={linkClass}>
          Verify your spins
        </Link>
      </section>

      <RecentSpins spins={spinner.recent_spins} />
    </div>
  );
}

/** Progress toward the next earned credit, as SQL counted it. */
function SpendProgress({ credits }: { credits: SpinCredits }) {
  const spent = `${formatGBP(credits.toward_next)} of ${formatGBP(credits.spend_per_spin)}`;
  const percent = Math.min(100, (credits.toward_next / credits.spend_per_spin) * 100);
  return (
    <div className="flex flex-col gap-2">
      <div
        role="progressbar"
        aria-label="Progress to your next spin credit"
        aria-valuemin={0}
        aria-valuemax={credits.spend_per_spin}
        aria-valuenow={credits.toward_next}
        aria-valuetext={spent}
        className="h-3 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm">{spent} spent toward your next spin</p>
      <p className="text-xs text-muted-foreground">
        {plural(credits.earned, "credit")} earned from tickets, {credits.granted} by post, {credits.used} spun.
      </p>
    </div>
  );
}

/** Why the player cannot spin now (shown instead of the Spin button), or null when they can. */
function whyNoSpin(spinner: MySpinner): ReactNode {
  if (!spinner.enabled) {
    return (
      <Alert variant="warning" announce={false}>
        <AlertTitle>The wheel is switched off, so you cannot spin.</AlertTitle>
        <p>Your spin credits stay yours until it is back on.</p>
      </Alert>
    );
  }
  if (spinner.block) {
    return <PlayBlockNotice block={spinner.block}>You cannot spin the wheel while this lasts.</PlayBlockNotice>;
  }
  if (spinner.credits.available < 1) {
    return (
      <Alert variant="info" announce={false}>
        <AlertTitle>You have no spin credits yet.</AlertTitle>
        <p>
          You earn 1 spin credit for every {formatGBP(spinner.credits.spend_per_spin)} you spend on tickets (
          {formatGBP(spinner.credits.to_next)} to go), or free by post: see{" "}
          <a href="#free-route" className="font-medium underline underline-offset-2">
            the free route
          </a>{" "}
          below.
        </p>
      </Alert>
    );
  }
  return null;
}

function RecentSpins({ spins }: { spins: MySpinner["recent_spins"] }) {
  return (
    <section aria-labelledby="recent-spins-heading" className={cardClass}>
      <h2 id="recent-spins-heading" className="text-xl font-semibold">
        Your recent spins
      </h2>

      <DataTable
        caption={`Your last ${plural(spins.length, "spin")}, newest first`}
        captionHidden
        rows={spins}
        rowKey={(spin) => spin.id}
        empty={<p className="text-muted-foreground">You have not spun the wheel yet.</p>}
        columns={[
          { header: "When", cell: (spin) => formatDateTime(spin.created_at) },
          { header: "Result", cell: (spin) => spin.label },
          {
            header: "Prize",
            numeric: true,
            cell: (spin) => (spin.prize_credits > 0 ? formatGBP(spin.prize_credits) : "–"),
          },
          { header: "Nonce", numeric: true, className: "font-mono", cell: (spin) => spin.nonce },
        ]}
      />
    </section>
  );
}
