import type { Protections } from "@/lib/data/protections";
import { formatDate } from "@/lib/format";

/** A break, self-exclusion or closure in a few words ("On a break until 1 January 2027"); null when none. */
export function restrictionLabel(protections: Pick<Protections, "state" | "break_until">): string | null {
  const until = protections.break_until ? ` until ${formatDate(protections.break_until)}` : "";
  switch (protections.state) {
    case "active":
      return null;
    case "break":
      return `On a break${until}`;
    case "self_exclusion":
      return `Self-excluded${until}`;
    case "closed":
      return "Account closed";
  }
}
