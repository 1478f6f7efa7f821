import { csvRoute } from "../csv-route";
import { handleErrors } from "@/lib/http/route-handler";

// The ticket list exactly as labcash-draw-v2 hashes it: "ticket_number,ticket_id" then one line per ticket.
export const GET = handleErrors("html", csvRoute("ticket-list"));
