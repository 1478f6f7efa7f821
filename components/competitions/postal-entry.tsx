import Link from "next/link";
import { Mail } from "lucide-react";

/**
 * Where free postal entries go. A placeholder until the operator has a real address: set it here
 * (and in content/docs/04.competitions.mdx, which says the address is on every competition page).
 */
export const POSTAL_ENTRY_ADDRESS = ["LabCash Free Entry", "PO Box 4021", "Manchester", "M60 1LC"] as const;

/** The free entry route, given the same space and weight as paid entry on every competition page. */
export function PostalEntry({
  title,
  question,
  closesAt,
}: {
  title: string;
  question: string | null;
  closesAt: string;
}) {
  return (
    <div className="flex flex-col gap-4">
      <p>
        You never have to pay to enter. Send one letter per person and you get one ticket, numbered in order with the
        paid ones: <strong>exactly the same odds</strong>.
      </p>
      <div>
        <p className="font-medium">Write to</p>
        <address className="mt-1 rounded-lg bg-muted p-4 not-italic">
          {POSTAL_ENTRY_ADDRESS.map((line) => (
            <span key={line} className="block">
              {line}
            </span>
          ))}
        </address>
      </div>
      <div>
        <p className="font-medium">Include</p>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          <li>the competition: &ldquo;{title}&rdquo;;</li>
          <li>your full name, postal address and the e-mail of your LabCash account;</li>
          {question ? <li>your answer to the question &ldquo;{question}&rdquo;.</li> : null}
        </ul>
      </div>
      <p className="text-sm text-muted-foreground">
        Letters, not postcards, first or second class, arriving before the close (
        <time dateTime={closesAt}>
          {new Intl.DateTimeFormat("en-GB", {
            dateStyle: "long",
            timeStyle: "short",
            timeZone: "Europe/London",
          }).format(new Date(closesAt))}
        </time>
        ).
      </p>
      <Link
        href="/docs/competitions#free-entry-by-post"
        className="mt-auto inline-flex items-center gap-2 font-semibold text-primary-text underline underline-offset-4"
      >
        <Mail aria-hidden className="size-4" />
        Free postal entry: the full rules
      </Link>
    </div>
  );
}
