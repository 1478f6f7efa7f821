"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { revalidateCompetitionDetailPages } from "@/lib/cache/public-pages";
import { enterCompetition, type EntryResult } from "@/lib/data/competitions";
import { DbError } from "@/lib/data/errors";
import { defineAction } from "./define-action";
import { fail, ok } from "./result";
import { log } from "@/lib/observability/log";

const enterSchema = z.object({
  competitionId: z.string().uuid("Unknown competition"),
  quantity: z.coerce
    .number({ error: "Choose how many tickets you want" })
    .int("Choose a whole number of tickets")
    .min(1, "Choose at least one ticket")
    .max(1_000_000, "Choose fewer tickets"),
  answer: z.string().trim().max(300, "That answer is too long").optional(),
});

/** Buys tickets: enter_competition (one transaction), then refresh the page's data. */
export const enterCompetitionAction = defineAction(
  { schema: enterSchema, role: "approved" },
  async ({ competitionId, quantity, answer }) => {
    let entry: EntryResult;
    try {
      entry = await enterCompetition(competitionId, quantity, answer);
    } catch (e) {
      if (e instanceof DbError) throw e; // a refusal: the wrapper shows its message and code
      // The purchase may have gone through even if its answer could not be read: say so, never guess.
      log("error", "entry_unconfirmed", { competition_id: competitionId, quantity, error: e });
      revalidateCompetitionDetailPages();
      refresh();
      return fail("We could not confirm your entry. Check My Entries before trying again.");
    }
    // Sold count, the caller's tickets and (on a sell-out) the draw: the cached page is re-rendered.
    revalidateCompetitionDetailPages();
    refresh();
    return ok(entry);
  },
);
