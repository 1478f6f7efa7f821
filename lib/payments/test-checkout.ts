// The embedded default when Stripe is not configured: a checkout page on this site
// (/payment/test-checkout/<id>) that says it is a test, takes no card and lets the tester choose
// the outcome. Its ids are derived from the top-up, so a repeated click is the same payment and
// the same refund (both idempotent in SQL), just as Stripe's are.
import type { PaymentAdapter } from "./provider";

/** The outcomes the test checkout offers. */
export const TEST_OUTCOMES = ["debit", "credit", "decline", "abandon"] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

/** The payment a test checkout "takes" for a top-up: one per top-up, as a Checkout Session has one PaymentIntent. */
export function testPaymentId(topUpId: string): string {
  return `test_pay_${topUpId}`;
}

export const testCheckoutAdapter: PaymentAdapter = {
  provider: "test",
  async startCheckout(topUp) {
    return { sessionId: `test_cs_${topUp.id}`, url: `/payment/test-checkout/${topUp.id}` };
  },
  async refund({ paymentId, amount }) {
    // Nothing was taken, so nothing goes back; the refund is recorded as Stripe's would be.
    return { refundId: `test_re_${paymentId}`, amount };
  },
};
