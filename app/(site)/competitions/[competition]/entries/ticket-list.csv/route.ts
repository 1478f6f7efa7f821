import { csvRoute } from "../csv-route";

// The ticket list exactly as labcash-draw-v2 hashes it: "ticket_number,ticket_id" then one line per ticket.
export const GET = csvRoute("ticket-list");
