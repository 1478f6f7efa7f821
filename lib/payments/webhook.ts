// Stripe's webhook: the signature is checked on the raw body, then one small handler per event.
// Every handler is safe to repeat (Stripe delivers at least once, in any order): the SQL it calls
// is idempotent on the payment, the refund and the top-up.
//
// Answers: 400 for a bad or missing signature or a malformed event (nothing read; only counted,
// per hour); 404 for a checkout session this site did not make (nothing written: Stripe retries
// and the dashboard shows the failure, which is right for money taken against no top-up);
// 422 when the amount paid is not the top-up's (nothing credited, a person must look);
// 500 for anything else, so Stripe tries again; 200 once handled, and for events we ignore.
import Stripe from "stripe";
import { DbError } from "@/lib/data/errors";
import { callRpcWith, noResult, type RpcClient } from "@/lib/data/rpc";
import { log } from "@/lib/observability/log";
import { confirmPayment, failTopUp, findTopUpBySession, recordRefund } from "./confirm";
import { fromPence } from "./minor-units";
import { stripeAdapter, type StripeApi } from "./stripe";

export type WebhookDeps = {
  /** The service-role client (confirm_top_up and the others are server-only). */
  client: RpcClient;
  api: StripeApi;
  /** STRIPE_WEBHOOK_SECRET (whsec_…). */
  secret: string;
};

export type WebhookResponse = { status: number; body: { received: true; ignored?: true } | { error: string } };

const handled = (): WebhookResponse => ({ status: 200, body: { received: true } });
const failure = (status: number, error: string): WebhookResponse => ({ status, body: { error } });

class UnknownSession extends Error {}

export async function handleStripeWebhook(
  deps: WebhookDeps,
  rawBody: string,
  signature: string | null,
): Promise<WebhookResponse> {
  if (!signature) return refused(deps.client, "missing Stripe-Signature header");
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, deps.secret);
  } catch {
    return refused(deps.client, "invalid signature");
  }
  const response = await answer(deps, event);
  await recordDelivery(deps.client, event, response);
  return response;
}

/**
 * A call without a good signature names no event we can trust, so it is only counted, per hour (the System page
 * shows it; many in an hour raise an alert): a wrongly rotated signing secret refuses every real delivery this
 * way. A failure to count is logged and never changes the answer.
 */
async function refused(client: RpcClient, error: string): Promise<WebhookResponse> {
  try {
    await callRpcWith(client, "record_webhook_refusal", { p_provider: "stripe" }, noResult);
  } catch (e) {
    log("error", "webhook_refusal_not_counted", { error: e });
  }
  log("warn", "stripe_webhook_refused", { reason: error });
  return failure(400, error);
}

/**
 * Every signed event is recorded by id with how it was answered (webhook_deliveries): /admin/system lists the
 * failed and mismatched ones, and the same event failing a third time raises an alert. A failure to record is
 * logged and never changes the answer Stripe gets.
 */
async function recordDelivery(client: RpcClient, event: Stripe.Event, response: WebhookResponse): Promise<void> {
  const status = response.status < 300 ? "handled" : response.status === 422 ? "mismatch" : "failed";
  try {
    await callRpcWith(
      client,
      "record_webhook_delivery",
      {
        p_provider: "stripe",
        p_event_id: event.id,
        p_event_type: event.type,
        p_status: status,
        p_http_status: response.status,
        p_error: "error" in response.body ? response.body.error : null,
      },
      noResult,
    );
  } catch (e) {
    log("error", "webhook_delivery_not_recorded", { event_id: event.id, error: e });
  }
}

async function answer(deps: WebhookDeps, event: Stripe.Event): Promise<WebhookResponse> {
  try {
    switch (event.type) {
      case "checkout.session.completed":
        await onSessionCompleted(deps, event.data.object);
        return handled();
      case "checkout.session.async_payment_succeeded":
        await confirmSession(deps, event.data.object);
        return handled();
      case "checkout.session.async_payment_failed":
        await failTopUp(deps.client, await topUpOf(deps, event.data.object), "failed");
        return handled();
      case "checkout.session.expired":
        await failTopUp(deps.client, await topUpOf(deps, event.data.object), "expired");
        return handled();
      case "charge.refunded":
        await onChargeRefunded(deps, event.data.object);
        return handled();
      default:
        return { status: 200, body: { received: true, ignored: true } };
    }
  } catch (e) {
    if (e instanceof UnknownSession) return failure(404, "unknown checkout session");
    if (e instanceof DbError && e.code === "payment_mismatch") {
      log("error", "stripe_payment_mismatch", { event_id: event.id, event_type: event.type, error: e });
      return failure(422, "payment does not match the top-up");
    }
    log("error", "stripe_webhook_failed", { event_id: event.id, event_type: event.type, error: e });
    return failure(500, "could not process the event");
  }
}

/** The top-up behind a session, found by the session id attached when the checkout was opened. */
async function topUpOf(deps: WebhookDeps, session: Stripe.Checkout.Session): Promise<string> {
  const topUpId = await findTopUpBySession(deps.client, session.id);
  if (!topUpId) throw new UnknownSession(session.id);
  return topUpId;
}

async function onSessionCompleted(deps: WebhookDeps, session: Stripe.Checkout.Session) {
  // A delayed payment method completes the session unpaid; async_payment_succeeded confirms it later.
  if (session.payment_status !== "paid") {
    await topUpOf(deps, session);
    return;
  }
  await confirmSession(deps, session);
}

async function confirmSession(deps: WebhookDeps, session: Stripe.Checkout.Session) {
  const topUpId = await topUpOf(deps, session);
  const paymentId = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
  if (!paymentId || session.amount_total === null) throw new Error(`session ${session.id} is paid but has no payment`);
  await confirmPayment(deps.client, stripeAdapter(deps.api), {
    topUpId,
    paymentId,
    funding: await deps.api.cardFunding(paymentId),
    amountPaid: fromPence(session.amount_total),
  });
}

async function onChargeRefunded(deps: WebhookDeps, charge: Stripe.Charge) {
  const paymentId = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
  if (!paymentId) return; // not a Checkout payment
  for (const refund of await deps.api.listRefunds(charge.id)) {
    // A pending card refund is on its way back to the player; only a failed or cancelled one is not.
    if (refund.status !== "succeeded" && refund.status !== "pending") continue;
    await recordRefund(deps.client, { paymentId, refundId: refund.id, amount: fromPence(refund.amount) });
  }
}
