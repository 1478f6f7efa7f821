"use client";

import { useEffect, useMemo, useState } from "react";
import { Link } from "@/components/ui/link";
import { CircleAlert, CircleCheck, LoaderCircle } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { SpinHistory, SpinnerSeed } from "@/lib/data/spinner";
import { formatDateTime } from "@/lib/format";
import { verifySpin, type SpinVerification } from "@/lib/spinner/derive";
import { cn } from "@/lib/utils";

type Verdicts = ReadonlyMap<number, SpinVerification>;

const shortHash = (hash: string) => `${hash.slice(0, 12)}…`;
const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-GB")} ${n === 1 ? one : many}`;

/** "£1 credit (segment 3)": a segment as the table shows it. */
const segmentText = (label: string, position: number) => `${label} (segment ${position})`;

/**
 * Recomputes every spin of a revealed seed pair in this browser with WebCrypto (lib/spinner/derive.ts, the
 * same derivation as private.spin_derive in SQL) and shows each one's verdict beside the recorded segment.
 * Spins of the active pair cannot be checked until the player rotates it: its server seed is still secret.
 */
export function VerifySpins({ history }: { history: SpinHistory }) {
  const seedsById = useMemo(() => new Map(history.seeds.map((seed) => [seed.id, seed])), [history.seeds]);
  const [verdicts, setVerdicts] = useState<Verdicts | null>(null);

  useEffect(() => {
    let live = true;
    void (async () => {
      const results = new Map<number, SpinVerification>();
      for (const spin of history.spins) {
        const seed = seedsById.get(spin.seed_id);
        const wheel = history.wheels[String(spin.wheel_id)];
        if (!seed?.server_seed) continue;
        results.set(
          spin.id,
          wheel
            ? await verifySpin(spin, seed, wheel)
            : { ok: false, reasons: [`Wheel version ${spin.wheel_id} is missing`], computed: null },
        );
      }
      if (live) setVerdicts(results);
    })();
    return () => {
      live = false;
    };
  }, [history, seedsById]);

  const isRevealed = (seedId: number) => Boolean(seedsById.get(seedId)?.server_seed);
  const checkable = history.spins.filter((spin) => isRevealed(spin.seed_id)).length;
  const waiting = history.spins.length - checkable;
  const verified = verdicts ? [...verdicts.values()].filter((v) => v.ok).length : 0;
  const failed = verdicts ? verdicts.size - verified : 0;

  return (
    <section aria-labelledby="your-spins" className="flex flex-col gap-4">
      <h2 id="your-spins" className="text-xl font-bold">
        Your spins
      </h2>
      <div role="status" aria-live="polite" className="rounded-2xl border border-border bg-card p-4">
        {history.spins.length === 0 ? (
          <p className="text-muted-foreground">You have not spun the wheel yet, so there is nothing to verify.</p>
        ) : verdicts === null ? (
          <p className="flex items-center gap-2 text-muted-foreground">
            <LoaderCircle aria-hidden className="size-5 animate-spin motion-reduce:animate-none" />
            Recomputing your spins…
          </p>
        ) : (
          <p
            className={cn(
              "flex items-center gap-2 text-lg font-bold",
              failed > 0 ? "text-destructive" : checkable > 0 ? "text-primary-text" : "text-foreground",
            )}
          >
            {failed > 0 ? (
              <CircleAlert aria-hidden className="size-6 shrink-0" />
            ) : checkable > 0 ? (
              <CircleCheck aria-hidden className="size-6 shrink-0" />
            ) : null}
            <span>
              {checkable > 0
                ? `${verified.toLocaleString("en-GB")} of ${plural(checkable, "spin", "spins")} verified`
                : "No spins to verify yet"}
              {failed > 0 ? `; ${plural(failed, "spin does", "spins do")} not match` : ""}
              {waiting > 0 ? `. ${plural(waiting, "spin waits", "spins wait")} for you to rotate your seed.` : ""}
            </span>
          </p>
        )}
      </div>
      {waiting > 0 ? (
        <p className="text-sm text-muted-foreground">
          The server seed of your active pair stays secret until you rotate it, so those spins cannot be checked yet.{" "}
          <Link href="/labspinner" className="font-medium text-primary-text underline underline-offset-4">
            Rotate your seed on the LabSpinner page
          </Link>
          .
        </p>
      ) : null}

      {history.spins.length > 0 ? (
        <Table>
          <TableCaption visuallyHidden>Your spins, newest first, recomputed in this browser</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Spin</TableHead>
              <TableHead>Server seed hash</TableHead>
              <TableHead>Client seed</TableHead>
              <TableHead className="text-right">Nonce</TableHead>
              <TableHead>Recorded segment</TableHead>
              <TableHead>Recomputed segment</TableHead>
              <TableHead>Verdict</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {history.spins.map((spin) => {
              const seed = seedsById.get(spin.seed_id);
              const verdict = verdicts?.get(spin.id);
              const computed = verdict?.computed;
              return (
                <TableRow key={spin.id}>
                  <TableHead scope="row" className="font-normal text-foreground">
                    <span className="font-semibold">#{spin.id}</span>
                    <span className="block text-xs text-muted-foreground">{formatDateTime(spin.created_at)}</span>
                  </TableHead>
                  <TableCell className="font-mono" title={seed?.server_seed_hash}>
                    {seed ? shortHash(seed.server_seed_hash) : "unknown"}
                  </TableCell>
                  <TableCell className="font-mono break-all">{spin.client_seed}</TableCell>
                  <TableCell className="text-right tabular-nums">{spin.nonce}</TableCell>
                  <TableCell>{segmentText(spin.label, spin.segment_position)}</TableCell>
                  {!isRevealed(spin.seed_id) ? (
                    <>
                      <TableCell className="text-muted-foreground">Not yet</TableCell>
                      <TableCell className="text-muted-foreground">Rotate your seed to verify</TableCell>
                    </>
                  ) : !verdict ? (
                    <>
                      <TableCell className="text-muted-foreground">Computing…</TableCell>
                      <TableCell className="text-muted-foreground">Checking…</TableCell>
                    </>
                  ) : (
                    <>
                      <TableCell>
                        {computed
                          ? segmentText(computed.segment?.label ?? "no such segment", computed.segmentPosition)
                          : "could not be computed"}
                      </TableCell>
                      <TableCell>
                        <Badge variant={verdict.ok ? "success" : "destructive"}>
                          {verdict.ok ? "Verified" : "Does not match"}
                        </Badge>
                        {verdict.ok ? null : (
                          <ul className="mt-1 list-disc pl-4 text-xs text-muted-foreground">
                            {verdict.reasons.map((reason) => (
                              <li key={reason} className="break-all">
                                {reason}
                              </li>
                            ))}
                          </ul>
                        )}
                      </TableCell>
                    </>
                  )}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      ) : null}
    </section>
  );
}

/** The player's seed pairs: the hash shown before spinning and, once rotated, the server seed itself. */
export function VerifySeedPairs({ seeds }: { seeds: readonly SpinnerSeed[] }) {
  if (seeds.length === 0) return null;
  return (
    <section aria-labelledby="seed-pairs" className="flex flex-col gap-4">
      <h2 id="seed-pairs" className="text-xl font-bold">
        Your seed pairs
      </h2>
      <ul className="flex flex-col gap-3">
        {seeds.map((seed) => (
          <li key={seed.id} className="rounded-2xl border border-border bg-card p-4 text-sm">
            <p className="font-semibold">
              {seed.revealed_at ? `Rotated ${formatDateTime(seed.revealed_at)}` : "Active pair"}
              <span className="font-normal text-muted-foreground">
                {" "}
                · started {formatDateTime(seed.created_at)} · {plural(seed.next_nonce, "spin", "spins")}
              </span>
            </p>
            <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
              <dt className="text-muted-foreground">Server seed hash (SHA-256)</dt>
              <dd className="font-mono break-all">{seed.server_seed_hash}</dd>
              <dt className="text-muted-foreground">Server seed</dt>
              <dd className="font-mono break-all">
                {seed.server_seed ?? (
                  <span className="font-sans text-muted-foreground">secret until you rotate this pair</span>
                )}
              </dd>
              <dt className="text-muted-foreground">Client seed</dt>
              <dd className="font-mono break-all">{seed.client_seed}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
