// The payment adapter: Stripe Checkout when STRIPE_SECRET_KEY is set, otherwise the built-in test
// checkout (lib/env.ts allows that in production only with PAYMENTS=test). Both start a checkout
// for a pending top-up and refund a payment; neither credits anything itself: every confirmation
// goes through ./confirm.ts (confirm_top_up in SQL).
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { env } from "@/lib/env";

/** How the card was funded, as Stripe reports it (and as top_ups.funding records it). */
export const fundingSchema = z.enum(ENUM_VALUES.card_funding);
export type Funding = z.infer<typeof fundingSchema>;

export type Provider = "stripe" | "test";

/** A refund the provider made: its id (the idempotency key in SQL) and its amount in pounds. */
export type ProviderRefund = { refundId: string; amount: number };

export interface PaymentAdapter {
  readonly provider: Provider;
  /** Opens a checkout for `topUp` and returns where to send the player, and the session id to attach. */
  startCheckout(topUp: { id: string; amount: number }, origin: string): Promise<{ sessionId: string; url: string }>;
  /** Refunds the whole of `paymentId` (a credit-card top-up over the monthly cap). Safe to repeat. */
  refund(payment: { topUpId: string; paymentId: string; amount: number }): Promise<ProviderRefund>;
}

/**
 * Whether the built-in test checkout is on (lib/env.ts: no Stripe keys, and in production only
 * with PAYMENTS=test). Its page and its action answer nothing otherwise.
 */
export function testPayments(): boolean {
  return env().payments === "test";
}

/** The adapter this deployment uses. */
export async function paymentAdapter(): Promise<PaymentAdapter> {
  const { STRIPE_SECRET_KEY, payments } = env();
  if (payments === "stripe" && STRIPE_SECRET_KEY) {
    const { stripeAdapter, stripeApi } = await import("./stripe");
    return stripeAdapter(stripeApi(STRIPE_SECRET_KEY));
  }
  const { testCheckoutAdapter } = await import("./test-checkout");
  return testCheckoutAdapter;
}
