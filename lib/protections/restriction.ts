import type { Protections } from "@/lib/data/protections";
import { formatDate } from "@/lib/format";
import { LABELS } from "@/lib/labels";

/** A break, self-exclusion or closure in a few words ("On a break until 1 January 2027"); null when none. */
export function restrictionLabel(protections: Pick<Protections, "state" | "break_until">): string | null {
  const until = protections.break_until ? ` until ${formatDate(protections.break_until)}` : "";
  if (protections.state === "active") return null;
  const words = LABELS.protection_state[protections.state];
  return protections.state === "closed" ? words : `${words}${until}`;
}
