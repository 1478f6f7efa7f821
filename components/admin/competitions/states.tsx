import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { phaseLabel, phaseOf, type Phase } from "@/lib/competitions/status";
import type { Competition } from "@/lib/data/competitions";

// Where a competition stands for the admin lists: the public site's phases (phaseOf, lib/competitions/status.ts;
// private.competition_phase in SQL for the dashboard's counts), so "Live" means the same in the console as on
// the site. The postal window and the wait for the draw are one state here, as on the public list.

export const ADMIN_STATES = [
  { key: "draft", label: "Drafts", badge: "Draft", variant: "neutral", phases: ["draft"] },
  { key: "upcoming", label: phaseLabel.upcoming, badge: phaseLabel.upcoming, variant: "outline", phases: ["upcoming"] },
  { key: "live", label: phaseLabel.live, badge: phaseLabel.live, variant: "success", phases: ["live"] },
  {
    key: "awaiting_draw",
    label: "Sold out / awaiting draw",
    badge: phaseLabel.awaiting_draw,
    variant: "warning",
    phases: ["postal_window", "awaiting_draw"],
  },
  { key: "drawn", label: phaseLabel.drawn, badge: phaseLabel.drawn, variant: "primary", phases: ["drawn"] },
  { key: "closed", label: phaseLabel.closed, badge: phaseLabel.closed, variant: "outline", phases: ["closed"] },
  {
    key: "cancelled",
    label: phaseLabel.cancelled,
    badge: phaseLabel.cancelled,
    variant: "destructive",
    phases: ["cancelled"],
  },
] as const satisfies readonly {
  key: string;
  label: string;
  badge: string;
  variant: BadgeVariant;
  phases: readonly Phase[];
}[];

export type AdminState = (typeof ADMIN_STATES)[number]["key"];

export const isAdminState = (value: unknown): value is AdminState => ADMIN_STATES.some((s) => s.key === value);

export function adminState(c: Competition, now: number): AdminState {
  const phase = phaseOf(c, now);
  return ADMIN_STATES.find((s) => (s.phases as readonly Phase[]).includes(phase))!.key;
}

export function StateBadge({ state }: { state: AdminState }) {
  const s = ADMIN_STATES.find((x) => x.key === state)!;
  return <Badge variant={s.variant}>{s.badge}</Badge>;
}
