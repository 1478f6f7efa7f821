import { z } from "zod";
import { adminEntriesCsvChunks } from "@/lib/data/admin-competitions";
import { streamAdminCsv } from "@/lib/http/admin-csv";
import { defineRoute } from "@/lib/http/define-route";
import { createClient } from "@/lib/supabase/server";

// A competition's entries as CSV for admins: one line per order or postal entry with every ticket number, the
// buyer's name and e-mail and the postal address (admin_competition_entries_csv, docs/decisions/047). Served here
// rather than by linking the public ticket-list and entrants CSVs, because those open only once online sales end,
// never for a cancelled competition, and deliberately name nobody; an admin needs every entry, in any state, with
// who to contact.

export const GET = defineRoute(
  { kind: "html", auth: "admin", params: z.object({ id: z.string().uuid() }), notFound: "Competition not found" },
  async ({ params: { id } }) => {
    const chunks = adminEntriesCsvChunks(await createClient(), id);
    return streamAdminCsv(chunks, `labcash-entries-${id}.csv`, { competition_not_found: 404 });
  },
);
