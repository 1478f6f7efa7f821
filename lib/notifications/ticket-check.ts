import { z } from "zod";

/** check_ticket's answer: the result for one ticket number, never who holds it. */
export const ticketCheckSchema = z.object({
  result: z.enum(["won", "not_won", "not_drawn", "no_such_ticket"]),
  number: z.number().int(),
  title: z.string(),
  draw_id: z.string().optional(),
  winning_number: z.number().int().optional(),
  /** Once drawn: the prize this ticket won (else the first prize), and how many prizes the draw had. */
  prize_position: z.number().int().optional(),
  prize_description: z.string().optional(),
  prizes: z.number().int().optional(),
});
export type TicketCheck = z.infer<typeof ticketCheckSchema>;
