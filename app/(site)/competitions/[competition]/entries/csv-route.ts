import {
  CSV_CHUNK_ROWS,
  csvStream,
  getCompetitionDates,
  getEntrantsCsvChunk,
  getTicketListCsvChunk,
  getTicketListHash,
} from "@/lib/data/entry-list";
import { DRAW_ALGORITHM_V2 } from "@/lib/draws/verify";
import { formatDateTime } from "@/lib/format";
import type { RouteInput } from "@/lib/http/define-route";

// The two entry-list downloads, streamed from SQL CSV_CHUNK_ROWS rows at a time, so a
// 1,000,000-ticket list (about 45 MB) is never whole in the server's memory. Once the competition
// is drawn the ticket list can never change, so it is immutable (and its ETag is the draw's
// ticket-list hash); the entrants file may still change a name (a player can choose initials only
// at any time), so it is cached for an hour. Before the draw postal entries may still arrive and
// both are revalidated on every request.

type Kind = "ticket-list" | "entrants";

const plain = (status: number, message: string) =>
  new Response(`${message}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

export function csvRoute(kind: Kind) {
  return async function GET({ request, params }: RouteInput<{ competition: string }, undefined>): Promise<Response> {
    const slug = decodeURIComponent(params.competition);
    // get_competition, not get_entry_list: it says the same (unknown, cancelled, not open yet, drawn)
    // without counting a million tickets before the first byte.
    const competition = await getCompetitionDates(slug);
    if (!competition) return plain(404, "There is no such competition.");
    if (!competition.entry_list_open) {
      return plain(
        409,
        competition.status === "cancelled"
          ? "This competition was cancelled, so it has no entry list."
          : `The entry list is published when online sales end, on ${formatDateTime(competition.closes_at)}.`,
      );
    }
    const { draw } = competition;

    const headers = new Headers({
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="labcash-${slug}-${kind}.csv"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": !draw
        ? "public, max-age=0, must-revalidate"
        : kind === "ticket-list"
          ? "public, max-age=31536000, immutable"
          : "public, max-age=3600",
    });
    const hash =
      kind === "ticket-list" && draw?.algorithm === DRAW_ALGORITHM_V2 ? await getTicketListHash(draw.id) : null;
    if (hash) {
      const etag = `"${hash}"`;
      headers.set("ETag", etag);
      if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    }

    const fetchChunk = kind === "ticket-list" ? getTicketListCsvChunk : getEntrantsCsvChunk;
    return new Response(
      csvStream((after) => fetchChunk(slug, after, CSV_CHUNK_ROWS)),
      { headers },
    );
  };
}
