"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { getAccount } from "@/lib/auth/session";
import { CompetitionError, enterCompetition, type EntryResult } from "@/lib/data/competitions";
import { fail, invalid, type ActionResult } from "./result";

const enterSchema = z.object({
  competitionId: z.string().uuid("Unknown competition"),
  quantity: z.coerce
    .number({ error: "Choose how many tickets you want" })
    .int("Choose a whole number of tickets")
    .min(1, "Choose at least one ticket")
    .max(1_000_000, "Choose fewer tickets"),
  answer: z.string().trim().max(300, "That answer is too long").optional(),
});

/** Buys tickets: validate → signed in → enter_competition (one transaction) → refresh the page's data. */
export async function enterCompetitionAction(_prev: ActionResult<EntryResult> | null, form: FormData): Promise<ActionResult<EntryResult>> {
  const parsed = enterSchema.safeParse({
    competitionId: form.get("competitionId"),
    quantity: form.get("quantity"),
    answer: form.get("answer") ?? undefined,
  });
  if (!parsed.success) return invalid(parsed.error.issues);

  const account = await getAccount();
  if (!account) return fail("Sign in to enter");

  try {
    const data = await enterCompetition(parsed.data.competitionId, parsed.data.quantity, parsed.data.answer);
    // Sold count, the caller's tickets, the balance in the header and (on a sell-out) the draw.
    refresh();
    return { ok: true, data };
  } catch (e) {
    if (e instanceof CompetitionError) return fail(e.message);
    // The purchase may have gone through even if its answer could not be read: say so, never guess.
    console.error("enter_competition failed", e);
    refresh();
    return fail("We could not confirm your entry. Check My Entries before trying again.");
  }
}
