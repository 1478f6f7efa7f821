// What a payment provider does for the site, apart from which one is chosen (./adapter.ts): start a checkout for a
// pending top-up and refund a payment. The providers (./stripe.ts, ./test-checkout.ts) implement it and the
// confirmation code (./confirm.ts) speaks it; none of them credits anything itself (confirm_top_up in SQL does).
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";

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
