import { csvRoute } from "../csv-route";

// The entrants of each ticket (ticket_number,ticket_id,entrant,town,route), joined to the ticket list by ticket id.
export const GET = csvRoute("entrants");
