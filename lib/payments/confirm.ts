// The one server path every payment confirms through, from the Stripe webhook and from the test
// checkout alike: confirm_top_up (idempotent on the payment and the top-up, under a row lock), and
// when SQL refuses a credit-card top-up over the monthly cap, the refund through the adapter and
// its record (record_top_up_refund, idempotent on the refund's id). It takes the service-role
// client it is given, so the contract tests run it against the real backend.
import { z } from "zod";
import { confirmResultSchema, type ConfirmResult } from "@/lib/data/payments-schema";
import { callRpcWith, noResult, type RpcClient } from "@/lib/data/rpc";
import type { Funding, PaymentAdapter } from "./provider";

export type PaymentConfirmation = {
  topUpId: string;
  /** The provider's payment id (Stripe's PaymentIntent): the key a replay is recognised by. */
  paymentId: string;
  funding: Funding;
  /** What the provider says was paid, in pounds; SQL refuses anything but the top-up's amount. */
  amountPaid: number;
};

export async function confirmPayment(
  client: RpcClient,
  adapter: Pick<PaymentAdapter, "refund">,
  payment: PaymentConfirmation,
): Promise<ConfirmResult> {
  const result = await callRpcWith(
    client,
    "confirm_top_up",
    {
      p_top_up_id: payment.topUpId,
      p_payment_id: payment.paymentId,
      p_funding: payment.funding,
      p_amount_paid: payment.amountPaid,
    },
    confirmResultSchema,
  );
  if (result.status !== "refund_required") return result;
  const refund = await adapter.refund({
    topUpId: payment.topUpId,
    paymentId: payment.paymentId,
    amount: payment.amountPaid,
  });
  await recordRefund(client, { paymentId: payment.paymentId, ...refund });
  return { ...result, status: "refunded" };
}

/** Records a refund the provider made (ours for the card cap, or one made in Stripe's dashboard). */
export async function recordRefund(
  client: RpcClient,
  refund: { paymentId: string; refundId: string; amount: number },
): Promise<void> {
  await callRpcWith(
    client,
    "record_top_up_refund",
    { p_payment_id: refund.paymentId, p_refund_id: refund.refundId, p_amount: refund.amount },
    noResult,
  );
}

/** A checkout that ended without payment: declined ('failed') or abandoned ('expired'). A no-op unless pending. */
export async function failTopUp(client: RpcClient, topUpId: string, status: "failed" | "expired"): Promise<void> {
  await callRpcWith(client, "fail_top_up", { p_top_up_id: topUpId, p_status: status }, noResult);
}

/** Links a top-up to its checkout session, so the webhook can find it. */
export async function attachCheckoutSession(client: RpcClient, topUpId: string, sessionId: string): Promise<void> {
  await callRpcWith(client, "attach_checkout_session", { p_top_up_id: topUpId, p_session_id: sessionId }, noResult);
}

/** The top-up a checkout session belongs to, or null for a session this site did not make. */
export async function findTopUpBySession(client: RpcClient, sessionId: string): Promise<string | null> {
  return callRpcWith(client, "find_top_up_by_session", { p_session_id: sessionId }, z.string().uuid().nullable());
}
