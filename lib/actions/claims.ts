"use server";

import { refresh } from "next/cache";
import { revalidateCompetitionPages } from "@/lib/cache/public-pages";
import { z } from "zod";
import { plainNewlines } from "@/lib/competitions/competition-fields";
import { claimPrize, prizeChoiceSchema } from "@/lib/data/competitions";
import { DbError } from "@/lib/data/errors";
import { UK_POSTCODE } from "@/lib/validation/postcode";
import { defineAction } from "./define-action";
import { ok } from "./result";

const claimSchema = z
  .object({
    drawId: z.uuid({ error: "That prize could not be found" }),
    choice: z.enum(prizeChoiceSchema.options, { error: "Choose the prize or the cash" }),
    deliveryAddress: z
      .string()
      .overwrite(plainNewlines)
      .trim()
      .max(500, "Keep the address to 500 characters")
      .prefault(""),
  })
  .superRefine((v, ctx) => {
    if (v.choice === "prize" && !UK_POSTCODE.test(v.deliveryAddress)) {
      ctx.addIssue({
        code: "custom",
        path: ["deliveryAddress"],
        message: "Give the UK address to send the prize to, with its postcode",
      });
    }
  });

/**
 * The winner claims their prize (with the address to send it to), or its cash alternative where the competition
 * offers one (claim_prize). The claim can be changed until the prize is verified. The page re-renders with the
 * claim, and also after `claim_closed` or `cash_not_offered`, when what it showed was out of date.
 */
export const claimPrizeAction = defineAction(
  { schema: claimSchema, role: "user" },
  async ({ drawId, choice, deliveryAddress }) => {
    try {
      const claim = await claimPrize(drawId, choice, choice === "prize" ? deliveryAddress : null);
      // The winners pages show each prize's step.
      revalidateCompetitionPages();
      refresh();
      return ok(claim);
    } catch (e) {
      if (e instanceof DbError && (e.code === "claim_closed" || e.code === "cash_not_offered")) refresh();
      throw e;
    }
  },
);
