"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { revalidateCompetitionDetailPages } from "@/lib/cache/public-pages";
import { enterCompetition, holdTicketNumbers, type EntryResult } from "@/lib/data/competitions";
import { DbError } from "@/lib/data/errors";
import { formList } from "./action";
import { defineAction } from "./define-action";
import { fail, ok } from "./result";
import { log } from "@/lib/observability/log";

// SQL checks the range and repeats (check_chosen_numbers); this only makes them numbers.
const chosenNumbers = formList.pipe(
  z.array(
    z
      .string()
      .regex(/^[1-9][0-9]{0,6}$/, "Ticket numbers are whole numbers from 1")
      .transform(Number),
  ),
);

const enterSchema = z.object({
  competitionId: z.string().uuid("Unknown competition"),
  quantity: z.coerce
    .number({ error: "Choose how many tickets you want" })
    .int("Choose a whole number of tickets")
    .min(1, "Choose at least one ticket")
    .max(1_000_000, "Choose fewer tickets"),
  answer: z.string().trim().max(300, "That answer is too long").optional(),
  /** Chosen numbers (pick competitions); none means numbers in order, or a lucky dip on a pick competition. */
  numbers: chosenNumbers,
});

/** Buys tickets: enter_competition, made durable before it is answered (enterCompetition), then refresh the page's data. */
export const enterCompetitionAction = defineAction(
  { schema: enterSchema, role: "approved" },
  async ({ competitionId, quantity, answer, numbers }) => {
    let entry: EntryResult;
    try {
      entry = await enterCompetition(competitionId, quantity, answer, numbers.length > 0 ? numbers : null);
    } catch (e) {
      if (e instanceof DbError) throw e; // a refusal: the wrapper shows its message and code
      // The purchase may have gone through even if its answer could not be read, or it could not be made durable
      // (a crash may still undo it): say so, never guess.
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

const gridEdge = z.coerce
  .number({ error: "Choose a page of numbers" })
  .int("Choose a page of numbers")
  .min(1, "Choose a page of numbers")
  .max(1_000_000, "Choose a page of numbers");

const holdSchema = z.object({
  competitionId: z.string().uuid("Unknown competition"),
  numbers: chosenNumbers,
  luckyDip: z.coerce
    .number({ error: "Choose how many numbers to dip for" })
    .int("Choose a whole number of numbers")
    .min(0, "Choose how many numbers to dip for")
    .max(1_000_000, "Choose fewer numbers")
    .default(0),
  from: gridEdge,
  to: gridEdge,
});

/** Sets the player's basket of chosen numbers (held for a few minutes) and answers with the grid page shown. */
export const holdNumbersAction = defineAction(
  { schema: holdSchema, role: "approved" },
  async ({ competitionId, numbers, luckyDip, from, to }) =>
    ok(await holdTicketNumbers(competitionId, numbers, luckyDip, { from, to })),
);
