import { z } from "zod";
import { csvRoute } from "../csv-route";
import { defineRoute } from "@/lib/http/define-route";

// The entrants of each ticket (ticket_number,ticket_id,entrant,town,route), joined to the ticket list by ticket id.
export const GET = defineRoute({ kind: "html", params: z.object({ competition: z.string() }) }, csvRoute("entrants"));
