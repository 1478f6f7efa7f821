// Stripe Checkout behind the payment adapter. The few Stripe API calls the app makes sit behind
// StripeApi, so the webhook and the confirmation path can be tested with signed events and a
// stand-in for the API (this machine cannot reach Stripe); stripeApi() is the real one.
import Stripe from "stripe";
import { fundingSchema, type Funding, type PaymentAdapter } from "./provider";
import { fromPence, toPence } from "./minor-units";

/** The Stripe calls the app makes; amounts in pence as Stripe counts them. */
export interface StripeApi {
  createCheckoutSession(params: Stripe.Checkout.SessionCreateParams): Promise<{ id: string; url: string | null }>;
  /** How the card behind a PaymentIntent was funded (its latest charge's payment_method_details.card.funding). */
  cardFunding(paymentIntentId: string): Promise<Funding>;
  /** A full refund of a PaymentIntent; the idempotency key makes a repeat return the same refund. */
  refundPayment(paymentIntentId: string, idempotencyKey: string): Promise<{ id: string; amount: number }>;
  /** The refunds of a charge (Stripe no longer embeds them in the charge, so charge.refunded must ask). */
  listRefunds(chargeId: string): Promise<Array<{ id: string; amount: number; status: string | null }>>;
}

/** The real API, on the version this package pins (stripe.API_VERSION). */
export function stripeApi(secretKey: string): StripeApi {
  const stripe = new Stripe(secretKey, { maxNetworkRetries: 2, appInfo: { name: "LabCash" } });
  return {
    async createCheckoutSession(params) {
      const session = await stripe.checkout.sessions.create(params);
      return { id: session.id, url: session.url };
    },
    async cardFunding(paymentIntentId) {
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge"] });
      const charge = intent.latest_charge;
      const funding = typeof charge === "object" ? charge?.payment_method_details?.card?.funding : null;
      // Wallets (Apple Pay, Google Pay) still report the underlying card's funding here.
      return fundingSchema.catch("unknown").parse(funding);
    },
    async refundPayment(paymentIntentId, idempotencyKey) {
      const refund = await stripe.refunds.create(
        { payment_intent: paymentIntentId, reason: "requested_by_customer" },
        { idempotencyKey },
      );
      return { id: refund.id, amount: refund.amount };
    },
    async listRefunds(chargeId) {
      const refunds = await stripe.refunds.list({ charge: chargeId, limit: 100 });
      return refunds.data.map((r) => ({ id: r.id, amount: r.amount, status: r.status }));
    },
  };
}

/** Checkout expires after Stripe's minimum, so an abandoned top-up stops counting against the monthly limit soon. */
const CHECKOUT_LIFETIME_SECONDS = 30 * 60;

export function stripeAdapter(api: StripeApi): PaymentAdapter {
  return {
    provider: "stripe",
    async startCheckout(topUp, origin) {
      const session = await api.createCheckoutSession({
        mode: "payment",
        currency: "gbp",
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: "gbp",
              unit_amount: toPence(topUp.amount),
              product_data: { name: "LabCash credit" },
            },
          },
        ],
        client_reference_id: topUp.id,
        metadata: { top_up_id: topUp.id },
        payment_intent_data: { metadata: { top_up_id: topUp.id } },
        success_url: `${origin}/purchase-success?top_up=${topUp.id}`,
        cancel_url: `${origin}/credit`,
        expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_LIFETIME_SECONDS,
      });
      if (!session.url) throw new Error("Stripe returned a Checkout Session without a URL");
      return { sessionId: session.id, url: session.url };
    },
    async refund({ topUpId, paymentId }) {
      const refund = await api.refundPayment(paymentId, `card-cap-refund-${topUpId}`);
      return { refundId: refund.id, amount: fromPence(refund.amount) };
    },
  };
}
