import { Link } from "@/components/ui/link";
import { ShieldCheck } from "lucide-react";

export type Promoter = { name: string; address: readonly string[] };

/**
 * What an entrant must know before entering (CAP code 8.17): who may enter (18 or over, living in the UK)
 * and who the promoter is, with an address. Above both ways to enter, on every competition page.
 */
export function WhoCanEnter({ promoter }: { promoter: Promoter }) {
  return (
    <div
      aria-label="Who can enter and who runs this competition"
      role="group"
      className="mt-4 flex max-w-3xl gap-3 rounded-xl border border-border bg-muted/40 p-4 text-sm"
    >
      <ShieldCheck aria-hidden className="mt-0.5 size-5 shrink-0 text-primary-text" />
      <div className="flex flex-col gap-1">
        <p>
          <strong>Open to UK residents aged 18 or over only.</strong> We may ask for proof of age and address, and must
          see it before a prize is sent.
        </p>
        {/* A div, not a p: an address inside a paragraph is invalid HTML, which the browser's parser "fixes" by closing
            the paragraph, so React's hydration found a different tree and rebuilt the page's section on the client. */}
        <div>
          Promoter: {promoter.name}, <address className="inline not-italic">{promoter.address.join(", ")}</address>.
          Full rules in the{" "}
          <Link
            href="/docs/legal/terms-and-conditions"
            className="font-medium text-primary-text underline underline-offset-4"
          >
            terms and conditions
          </Link>
          .
        </div>
      </div>
    </div>
  );
}
