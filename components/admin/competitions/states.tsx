import { Badge, type BadgeVariant } from "@/components/ui/badge";
import type { CompetitionStatus } from "@/lib/data/competitions";

// Where a competition stands for the admin lists: its status, with a live one past its close counted as
// awaiting its draw (the status stays live until run_due_draws draws it at the draw time).

export const ADMIN_STATES = [
  { key: "draft", label: "Drafts", badge: "Draft", variant: "neutral" },
  { key: "live", label: "Live", badge: "Live", variant: "success" },
  { key: "awaiting_draw", label: "Sold out / awaiting draw", badge: "Awaiting draw", variant: "warning" },
  { key: "drawn", label: "Drawn", badge: "Drawn", variant: "primary" },
  { key: "closed", label: "Closed", badge: "Closed", variant: "outline" },
  { key: "cancelled", label: "Cancelled", badge: "Cancelled", variant: "destructive" },
] as const satisfies readonly { key: string; label: string; badge: string; variant: BadgeVariant }[];

export type AdminState = (typeof ADMIN_STATES)[number]["key"];

export const isAdminState = (value: unknown): value is AdminState => ADMIN_STATES.some((s) => s.key === value);

export function adminState(c: { status: CompetitionStatus; closes_at: string }, now: number): AdminState {
  switch (c.status) {
    case "live":
      return Date.parse(c.closes_at) <= now ? "awaiting_draw" : "live";
    case "sold_out":
      return "awaiting_draw";
    default:
      return c.status;
  }
}

export function StateBadge({ state }: { state: AdminState }) {
  const s = ADMIN_STATES.find((x) => x.key === state)!;
  return <Badge variant={s.variant}>{s.badge}</Badge>;
}
