import { csvRoute } from "../csv-route";
import { handleErrors } from "@/lib/http/route-handler";

// The entrants of each ticket (ticket_number,ticket_id,entrant,town,route), joined to the ticket list by ticket id.
export const GET = handleErrors("html", csvRoute("entrants"));
