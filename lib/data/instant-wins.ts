import "server-only";
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { callPublicRpc } from "./public-rpc";

const money = z.coerce.number();

/** get_instant_wins: what anyone may see of a competition's instant wins (numbers and seed only after the draw). */
export const instantWinsSchema = z.object({
  commitment: z.string().nullable(),
  algorithm: z.string(),
  ticket_count: z.number().int(),
  prizes: z.array(
    z.object({
      position: z.number().int(),
      kind: z.enum(ENUM_VALUES.instant_win_kind),
      title: z.string(),
      credit_amount: money.nullable(),
      quantity: z.number().int(),
      won: z.number().int(),
    }),
  ),
  wins: z.array(
    z.object({
      ticket_number: z.number().int(),
      winning_number: z.number().int(),
      prize_position: z.number().int(),
      prize: z.string(),
      display_name: z.string(),
      ticket_id: z.string().uuid(),
      won_at: z.string(),
    }),
  ),
  seed_hex: z.string().nullable(),
  numbers: z
    .array(z.object({ slot: z.number().int(), number: z.number().int(), prize_position: z.number().int() }))
    .nullable(),
});
export type InstantWins = z.infer<typeof instantWinsSchema>;

/** get_instant_wins' answer, or null when the competition is unknown or has no instant wins. */
export const withPrizes = (data: InstantWins | null): InstantWins | null =>
  data && data.prizes.length > 0 ? data : null;

/** A published competition's instant wins; null for an unknown slug or one without instant wins. */
export async function getInstantWins(slug: string): Promise<InstantWins | null> {
  return withPrizes(await callPublicRpc("get_instant_wins", { p_slug: slug }, instantWinsSchema.nullable()));
}
