import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeAdapter, type StripeApi } from "@/lib/payments/stripe";

// What the Stripe adapter asks of Stripe's API (which this machine cannot reach): the Checkout
// Session it opens for a top-up, and the refund it makes for one over the credit-card cap.
function recordingApi() {
  const sessions: Stripe.Checkout.SessionCreateParams[] = [];
  const refunds: [string, string][] = [];
  const api: StripeApi = {
    async createCheckoutSession(params) {
      sessions.push(params);
      return { id: "cs_test_1", url: "https://checkout.stripe.com/c/pay/cs_test_1" };
    },
    cardFunding: async () => "debit",
    async refundPayment(paymentIntentId, idempotencyKey) {
      refunds.push([paymentIntentId, idempotencyKey]);
      return { id: "re_1", amount: 30000 };
    },
    listRefunds: async () => [],
  };
  return { api, sessions, refunds };
}

const TOP_UP = "6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5";

describe("stripeAdapter", () => {
  it("opens a GBP Checkout Session for the top-up's amount in pence, tied to the top-up", async () => {
    const { api, sessions } = recordingApi();
    const before = Math.floor(Date.now() / 1000);

    const opened = await stripeAdapter(api).startCheckout({ id: TOP_UP, amount: 61.5 }, "https://labcash.example");

    expect(opened).toEqual({ sessionId: "cs_test_1", url: "https://checkout.stripe.com/c/pay/cs_test_1" });
    const [session] = sessions;
    expect(session).toMatchObject({
      mode: "payment",
      currency: "gbp",
      line_items: [{ quantity: 1, price_data: { currency: "gbp", unit_amount: 6150 } }],
      client_reference_id: TOP_UP,
      metadata: { top_up_id: TOP_UP },
      payment_intent_data: { metadata: { top_up_id: TOP_UP } },
      success_url: `https://labcash.example/purchase-success?top_up=${TOP_UP}`,
      cancel_url: "https://labcash.example/credit",
    });
    // Stripe's shortest allowed lifetime (30 minutes), so an abandoned top-up stops counting soon.
    expect(session.expires_at! - before).toBeGreaterThanOrEqual(30 * 60);
    expect(session.expires_at! - before).toBeLessThanOrEqual(30 * 60 + 5);
  });

  it("refunds the whole payment with an idempotency key per top-up, and reports it in pounds", async () => {
    const { api, refunds } = recordingApi();
    const adapter = stripeAdapter(api);

    const refund = await adapter.refund({ topUpId: TOP_UP, paymentId: "pi_1", amount: 300 });
    await adapter.refund({ topUpId: TOP_UP, paymentId: "pi_1", amount: 300 });

    expect(refund).toEqual({ refundId: "re_1", amount: 300 });
    expect(refunds).toEqual([
      ["pi_1", `card-cap-refund-${TOP_UP}`],
      ["pi_1", `card-cap-refund-${TOP_UP}`],
    ]);
  });
});
