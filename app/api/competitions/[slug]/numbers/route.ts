import { z } from "zod";
import { getCompetition, getTicketNumbers } from "@/lib/data/competitions";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";

// A page of a pick competition's number grid, fetched by the grid on the client so the competition page
// stays cached: which numbers are sold or held, and the signed-in caller's own basket. Never cached.
export const dynamic = "force-dynamic";

const noStore = { "Cache-Control": "private, no-store" };

async function get({ params, query }: RouteInput<{ slug: string }, { from: number; to: number }>) {
  const competition = await getCompetition(params.slug);
  if (!competition || competition.ticket_numbering !== "pick") {
    return Response.json(null, { status: 404, headers: noStore });
  }
  return Response.json(await getTicketNumbers(competition.id, query.from, query.to), { headers: noStore });
}

const page = z.object({ from: z.coerce.number().int().min(1), to: z.coerce.number().int().min(1) });

export const GET = defineRoute({ kind: "json", params: z.object({ slug: z.string() }), query: page }, get);
