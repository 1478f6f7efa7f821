import type { NextRequest } from "next/server";
import { adminEntriesCsvChunks } from "@/lib/data/admin-competitions";
import { csvRefusal, refuseNonAdmin, streamAdminCsv } from "@/lib/http/admin-csv";
import { createClient } from "@/lib/supabase/server";
import { handleErrors } from "@/lib/http/route-handler";

// A competition's entries as CSV for admins: one line per order or postal entry with the buyer's name and
// e-mail and the postal address (admin_competition_entries_csv). Served here rather than by linking the public
// ticket-list and entrants CSVs, because those open only once online sales end, never for a cancelled
// competition, and deliberately name nobody; an admin needs every entry, in any state, with who to contact.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function get(_request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const refused = await refuseNonAdmin();
  if (refused) return refused;
  const { id } = await params;
  if (!UUID.test(id)) return csvRefusal(404, "Competition not found");
  const chunks = adminEntriesCsvChunks(await createClient(), id);
  return streamAdminCsv(chunks, `labcash-entries-${id}.csv`, { competition_not_found: 404 });
}

export const GET = handleErrors("html", get);
