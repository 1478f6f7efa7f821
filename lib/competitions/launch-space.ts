import type { Competition } from "@/lib/data/competitions";
import { phaseOf } from "./status";

// The home page's launch space: the launch countdown only while no competition has opened
// yet; from the first opening on, the next draw. Pure: the page decides it from the public list it reads.

export type LaunchSpace =
  { kind: "countdown"; launchAt: string } | { kind: "next-draw"; competition: Competition } | { kind: "none" };

/** Phases whose draw is still to come. */
const DRAW_AHEAD = new Set(["upcoming", "live", "postal_window", "awaiting_draw"]);

/** True once any published competition has reached its opening time (whatever happened to it since). */
export function anyCompetitionOpened(competitions: readonly Competition[], now: number): boolean {
  return competitions.some((c) => c.status !== "draft" && Date.parse(c.opens_at) <= now);
}

/** The competition drawn soonest among those not drawn yet (ties: the one closing first), or null. */
export function nextDraw(competitions: readonly Competition[], now: number): Competition | null {
  const ahead = competitions.filter((c) => DRAW_AHEAD.has(phaseOf(c, now)));
  ahead.sort(
    (a, b) => Date.parse(a.draw_at) - Date.parse(b.draw_at) || Date.parse(a.closes_at) - Date.parse(b.closes_at),
  );
  return ahead[0] ?? null;
}

/**
 * The countdown while the launch moment is ahead and nothing has opened; otherwise the next draw, if any.
 * A launch moment left in the settings after the first competition opened is ignored, so the page never says
 * "launch soon" above competitions already selling.
 */
export function launchSpace(competitions: readonly Competition[], launchAt: string | null, now: number): LaunchSpace {
  if (launchAt !== null && Date.parse(launchAt) > now && !anyCompetitionOpened(competitions, now))
    return { kind: "countdown", launchAt };
  const competition = nextDraw(competitions, now);
  return competition ? { kind: "next-draw", competition } : { kind: "none" };
}
