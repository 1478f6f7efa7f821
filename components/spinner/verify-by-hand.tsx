"use client";

import { useId, useState, type FormEvent } from "react";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import type { SpinnerWheel } from "@/lib/data/spinner";
import { formatGBP } from "@/lib/format";
import { deriveSpin, segmentsInOrder, serverSeedHash, type DerivedSpin } from "@/lib/spinner/derive";

// The same rules as the database: a revealed server seed is 32 bytes of hex, a client seed 1-64 of
// A-Z a-z 0-9 _ - (private.check_client_seed), a nonce a non-negative integer (spinner_seeds.next_nonce).
const byHandSchema = z.object({
  serverSeed: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[0-9a-f]{64}$/, "Paste the 64 hex digits of a revealed server seed."),
  clientSeed: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "A client seed is 1 to 64 letters, digits, hyphens or underscores."),
  nonce: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, "The nonce is a whole number from 0.")
    .transform(Number)
    .refine((n) => n <= 2_147_483_647, "The nonce is at most 2,147,483,647."),
  wheelId: z.string().min(1, "Pick a wheel version."),
});
type FieldName = keyof z.input<typeof byHandSchema>;
type Errors = Partial<Record<FieldName, string[]>>;

type Result = DerivedSpin & { wheel: SpinnerWheel; hash: string };

/** Computes the segment for any server seed, client seed and nonce on a wheel version, to check a spin by hand. */
export function VerifyByHand({ wheels }: { wheels: Record<string, SpinnerWheel> }) {
  const id = useId();
  const versions = Object.values(wheels).sort((a, b) => b.wheel_id - a.wheel_id);
  const [errors, setErrors] = useState<Errors>({});
  const [result, setResult] = useState<Result | null>(null);

  if (versions.length === 0) return null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = byHandSchema.safeParse(Object.fromEntries(new FormData(event.currentTarget)));
    if (!parsed.success) {
      setErrors(z.flattenError(parsed.error).fieldErrors);
      setResult(null);
      return;
    }
    setErrors({});
    const { serverSeed, clientSeed, nonce, wheelId } = parsed.data;
    const wheel = wheels[wheelId];
    const derived = await deriveSpin({
      serverSeedHex: serverSeed,
      clientSeed,
      nonce,
      weights: segmentsInOrder(wheel).map((s) => s.weight),
    });
    setResult({ ...derived, wheel, hash: await serverSeedHash(serverSeed) });
  };

  const segment = result ? segmentsInOrder(result.wheel)[result.segmentPosition - 1] : null;

  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-2xl border border-border bg-card p-6 shadow-sm">
      <h2 id={`${id}-heading`} className="text-xl font-bold">
        Check a spin by hand
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Paste a revealed server seed, a client seed and a nonce: this page computes the segment they give, in your
        browser.
      </p>
      <form noValidate onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-server-seed`} label="Server seed" errors={errors.serverSeed} className="sm:col-span-2">
          {(control) => (
            <Input {...control} name="serverSeed" autoComplete="off" spellCheck={false} className="font-mono" />
          )}
        </Field>
        <Field id={`${id}-client-seed`} label="Client seed" errors={errors.clientSeed}>
          {(control) => (
            <Input {...control} name="clientSeed" autoComplete="off" spellCheck={false} className="font-mono" />
          )}
        </Field>
        <Field id={`${id}-nonce`} label="Nonce" errors={errors.nonce}>
          {(control) => <Input {...control} name="nonce" inputMode="numeric" defaultValue="0" />}
        </Field>
        <Field id={`${id}-wheel`} label="Wheel version" errors={errors.wheelId} className="sm:col-span-2">
          {(control) => (
            <Select {...control} name="wheelId" defaultValue={String(versions[0].wheel_id)}>
              {versions.map((wheel) => (
                <option key={wheel.wheel_id} value={String(wheel.wheel_id)}>
                  Version {wheel.wheel_id} ({wheel.segments.length} segments)
                </option>
              ))}
            </Select>
          )}
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit">Compute the segment</Button>
        </div>
      </form>
      <div role="status" aria-live="polite" className="mt-4">
        {result && segment ? (
          <div className="rounded-lg bg-muted p-4 text-sm">
            <p className="text-base font-semibold">
              Segment {result.segmentPosition}: {segment.label}
              {segment.prize_credits > 0 ? ` (${formatGBP(segment.prize_credits)} in credits)` : ""}
            </p>
            <p className="mt-1 text-muted-foreground">
              Value {result.value.toLocaleString("en-GB")} of a total weight of{" "}
              {result.wheel.total_weight.toLocaleString("en-GB")}, accepted at attempt {result.attempt}.
            </p>
            <p className="mt-2 text-muted-foreground">SHA-256 of this server seed (compare with the hash shown)</p>
            <p className="font-mono break-all">{result.hash}</p>
          </div>
        ) : null}
      </div>
    </section>
  );
}
