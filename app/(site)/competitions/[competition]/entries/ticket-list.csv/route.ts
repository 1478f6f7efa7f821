import { z } from "zod";
import { csvRoute } from "../csv-route";
import { defineRoute } from "@/lib/http/define-route";

// The ticket list exactly as labcash-draw-v2 hashes it: "ticket_number,ticket_id" then one line per ticket.
export const GET = defineRoute(
  { kind: "html", params: z.object({ competition: z.string() }) },
  csvRoute("ticket-list"),
);
