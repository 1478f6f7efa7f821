"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { getEntryQuote } from "@/lib/data/competitions";
import { createTopUp, getTopUp, getTopUpOptions, quoteTopUp } from "@/lib/data/payments";
import type { CreatedTopUp, TopUpQuote } from "@/lib/data/payments-schema";
import { paymentAdapter, testPayments } from "@/lib/payments/adapter";
import type { PaymentAdapter } from "@/lib/payments/provider";
import { attachCheckoutSession, confirmPayment, failTopUp } from "@/lib/payments/confirm";
import { TEST_OUTCOMES, testCheckoutAdapter, testPaymentId } from "@/lib/payments/test-checkout";
import { siteUrl } from "@/lib/site-url";
import { createAdminClient } from "@/lib/supabase/admin";
import { defineAction } from "./define-action";
import { fail, ok, type ActionResult } from "./result";
import { log } from "@/lib/observability/log";

/**
 * An amount in pounds as typed: digits with at most two decimals. The range (£5–£5,000 today) is
 * a setting that SQL checks and explains; this only refuses what is not an amount at all.
 */
const amountField = z
  .string({ error: "Enter an amount" })
  .trim()
  .superRefine((text, ctx) => {
    const problem =
      text === ""
        ? "Enter an amount"
        : text.startsWith("-")
          ? "The amount cannot be negative"
          : /^\d+\.\d{3,}$/.test(text)
            ? "Use at most two decimal places (pounds and pence)"
            : !/^\d{1,9}(?:\.\d{1,2})?$/.test(text)
              ? "Enter an amount in pounds, such as 25 or 12.50"
              : null;
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform(Number);

const amountSchema = z.object({ amount: amountField });

/** The live quote on /credit: bonus, credit landing, limit left, or SQL's refusal. Writes nothing. */
export const quoteTopUpAction = defineAction({ schema: amountSchema, role: "approved" }, async ({ amount }) =>
  ok<TopUpQuote>(await quoteTopUp(amount)),
);

/** Opens the adapter's checkout for a pending top-up and sends the player there. */
async function checkout(adapter: PaymentAdapter, topUp: CreatedTopUp): Promise<ActionResult> {
  const admin = createAdminClient();
  let url: string;
  try {
    const session = await adapter.startCheckout(topUp, await siteUrl());
    await attachCheckoutSession(admin, topUp.id, session.sessionId);
    url = session.url;
  } catch (e) {
    log("error", "checkout_not_opened", { top_up_id: topUp.id, error: e });
    await failTopUp(admin, topUp.id, "failed");
    return fail("We could not open the payment page. Nothing was charged: please try again in a moment.");
  }
  redirect(url);
}

/** "Continue" on /credit: create_top_up (every limit checked in SQL), then the checkout. */
export const startTopUpAction = defineAction(
  { schema: amountSchema, role: "approved", confirmSession: true },
  async ({ amount }) => {
    const adapter = await paymentAdapter();
    return checkout(adapter, await createTopUp(amount, adapter.provider));
  },
);

const competitionTopUpSchema = z.object({
  competitionId: z.string().uuid("Unknown competition"),
  quantity: z.coerce
    .number({ error: "Choose how many tickets you want" })
    .int("Choose a whole number of tickets")
    .min(1, "Choose at least one ticket")
    .max(1_000, "Choose fewer tickets"),
  answer: z.string().trim().max(300, "That answer is too long").optional(),
});

/**
 * /payment/competition: tops up what this entry is short of (get_entry_quote), or the minimum
 * top-up when that is less, with the entry as the top-up's purpose: confirm_top_up makes the entry.
 * Both amounts come from SQL; the larger is chosen here, nothing is added up.
 */
export const competitionTopUpAction = defineAction(
  { schema: competitionTopUpSchema, role: "approved", confirmSession: true },
  async ({ competitionId, quantity, answer }) => {
    const [quote, options] = await Promise.all([getEntryQuote(competitionId), getTopUpOptions()]);
    const shortfall = quote.shortfalls[quantity - 1];
    if (shortfall === undefined) return fail("Choose fewer tickets", { code: "invalid_input" });
    if (shortfall <= 0) return fail("You already have enough credit for this entry: go back and buy your tickets.");
    const amount = shortfall < options.min ? options.min : shortfall;
    const adapter = await paymentAdapter();
    const purpose = { competition_id: competitionId, quantity, answer: answer || null };
    return checkout(adapter, await createTopUp(amount, adapter.provider, purpose));
  },
);

const testCheckoutSchema = z.object({
  topUpId: z.string().uuid("Unknown top-up"),
  outcome: z.enum(TEST_OUTCOMES, { error: "Choose an outcome" }),
});

/**
 * The test checkout's outcome buttons. Only when payments are in test mode (lib/env.ts), only for the top-up's owner (get_top_up
 * answers the owner alone), and through the same confirmation path as Stripe's webhook.
 */
export const testCheckoutAction = defineAction(
  { schema: testCheckoutSchema, role: "approved", confirmSession: true },
  async ({ topUpId, outcome }) => {
    const topUp = testPayments() ? await getTopUp(topUpId) : null;
    if (!topUp || topUp.provider !== "test") return fail("Top-up not found", { code: "top_up_not_found" });
    const admin = createAdminClient();
    switch (outcome) {
      case "debit":
      case "credit":
        await confirmPayment(admin, testCheckoutAdapter, {
          topUpId,
          paymentId: testPaymentId(topUpId),
          funding: outcome,
          amountPaid: topUp.amount,
        });
        redirect(`/purchase-success?top_up=${topUpId}`);
      case "decline":
        await failTopUp(admin, topUpId, "failed");
        redirect(`/purchase-success?top_up=${topUpId}`);
      case "abandon":
        // What Stripe does when a checkout is left: the session expires and the top-up with it.
        await failTopUp(admin, topUpId, "expired");
        redirect("/credit");
    }
  },
);
