import "server-only";
import { phaseOf } from "@/lib/competitions/status";
import type { LiveDrawState } from "@/lib/draws/live-draw";
import { DRAW_ALGORITHM_V2 } from "@/lib/draws/verify";
import { formatWinner } from "@/lib/format";
import { getDraw, getPublicCompetition, type CompetitionPage } from "./competitions";

/**
 * A competition and where its draw stands, read as anon for the live draw page and its JSON route: both
 * are cached and the same for everyone. Only what get_competition and get_draw already publish (the seed
 * only once drawn). null when there is no published competition with this slug.
 */
export async function getLiveDraw(
  slug: string,
  now: number,
): Promise<{ competition: CompetitionPage; state: LiveDrawState } | null> {
  const competition = await getPublicCompetition(slug);
  if (!competition) return null;
  const base = { draw_at: competition.draw_at, tickets: competition.tickets_sold + competition.postal_tickets };
  const draw = competition.draw ? await getDraw(competition.draw.id) : null;
  if (draw) {
    const ticketListUrl =
      draw.algorithm === DRAW_ALGORITHM_V2 ? `/competitions/${competition.slug}/entries/ticket-list.csv` : null;
    return {
      competition,
      state: {
        ...base,
        tickets: draw.ticket_count,
        status: "drawn",
        draw: { ...draw, winner: formatWinner(draw), ticket_list_url: ticketListUrl },
      },
    };
  }
  const status =
    competition.status === "cancelled"
      ? "cancelled"
      : phaseOf(competition, now) === "closed"
        ? "no_tickets"
        : "waiting";
  return { competition, state: { ...base, status, draw: null } };
}
