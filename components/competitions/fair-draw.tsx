import Link from "next/link";
import { ShieldCheck } from "lucide-react";
import type { Competition } from "@/lib/data/competitions";

/** How the draw can be checked: the published seed commitment, any public randomness, and the links. */
export function FairDraw({ competition: c }: { competition: Competition }) {
  return (
    <section aria-labelledby="fair-title">
      <h2 id="fair-title" className="flex items-center gap-2 text-2xl font-bold tracking-tight">
        <ShieldCheck aria-hidden className="size-6 text-primary-text" />A draw you can check
      </h2>
      <p className="mt-3">
        The secret seed that decides the winner was made when this competition went live. Its SHA-256 fingerprint was
        published then, before any ticket was sold; the seed itself is revealed after the draw, so anyone can check it
        matches.
      </p>
      <p className="mt-4 text-sm font-medium">SHA-256 commitment</p>
      <p className="mt-1 rounded-lg bg-muted p-3 font-mono text-sm break-all" data-testid="seed-commitment">
        {c.seed_commitment ?? "Published when the competition goes live"}
      </p>
      {c.external_randomness ? (
        <p className="mt-3 text-sm text-muted-foreground">
          Public randomness fixed at publication: {String(c.external_randomness.source ?? "external")}
          {c.external_randomness.round ? `, round ${String(c.external_randomness.round)}` : ""}.
        </p>
      ) : null}
      <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2">
        {c.draw ? (
          <Link href={`/winners/${c.draw.id}`} className="font-semibold text-primary-text underline underline-offset-4">
            Verify this draw
          </Link>
        ) : null}
        <Link href="/docs/fair-draws" className="font-medium text-primary-text underline underline-offset-4">
          How fair draws work
        </Link>
      </p>
    </section>
  );
}
