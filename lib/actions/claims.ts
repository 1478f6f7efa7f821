"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { claimPrize, prizeChoiceSchema } from "@/lib/data/competitions";
import { DbError } from "@/lib/data/errors";
import { defineAction } from "./define-action";
import { ok } from "./result";

const claimSchema = z.object({
  drawId: z.uuid({ error: "That prize could not be found" }),
  choice: z.enum(prizeChoiceSchema.options, { error: "Choose the prize or the cash" }),
});

/**
 * The winner claims their prize, or its cash alternative where the competition offers one (claim_prize). The
 * choice can be changed until the prize is verified. The page re-renders with the choice, and also after
 * `claim_closed` or `cash_not_offered`, when what it showed was out of date.
 */
export const claimPrizeAction = defineAction({ schema: claimSchema, role: "user" }, async ({ drawId, choice }) => {
  try {
    const claim = await claimPrize(drawId, choice);
    refresh();
    return ok(claim);
  } catch (e) {
    if (e instanceof DbError && (e.code === "claim_closed" || e.code === "cash_not_offered")) refresh();
    throw e;
  }
});
