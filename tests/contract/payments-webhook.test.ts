// The Stripe webhook and the one confirmation path, against the real embedded backend through
// real supabase-js: events signed with the stripe package's own test helper, the service-role
// client the route uses. This machine cannot reach Stripe, so the few API calls the webhook makes
// (card funding, refunds) go to a stand-in StripeApi; the test checkout's adapter is the real one.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { callRpcWith } from "@/lib/data/rpc";
import { createdTopUpSchema, myTopUp } from "@/lib/data/payments-schema";
import type { Funding } from "@/lib/payments/provider";
import { attachCheckoutSession, confirmPayment } from "@/lib/payments/confirm";
import type { StripeApi } from "@/lib/payments/stripe";
import { testCheckoutAdapter, testPaymentId } from "@/lib/payments/test-checkout";
import { handleStripeWebhook, type WebhookDeps } from "@/lib/payments/webhook";
import {
  adminClient,
  birthDateYearsAgo,
  DEMO_PASSWORD,
  signIn,
  signInAtAal2,
  startTestServer,
  uniqueEmail,
  type Client,
  type TestServer,
} from "./helpers";

const SECRET = "whsec_contract_test_secret";

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startTestServer();
  admin = adminClient(server);
});
afterAll(() => server?.stop());

/** A new approved player, signed in. */
async function newPlayer(): Promise<Client> {
  const email = uniqueEmail("payer");
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password: DEMO_PASSWORD,
    email_confirm: true,
    user_metadata: { name: "Paula Payer", date_of_birth: birthDateYearsAgo(30) },
  });
  if (error || !data.user) throw error ?? new Error("no user");
  const { client: approver } = await signInAtAal2(server, "admin@labcash.test");
  const approved = await approver.rpc("admin_approve_user", { p_user_id: data.user.id });
  if (approved.error) throw new Error(approved.error.message);
  return (await signIn(server, email)).client;
}

const balanceSchema = z.object({ credits: z.coerce.number() });
const webhookRefusalsSchema = z.array(z.object({ hour: z.string(), refusals: z.number() }));
const ledgerSchema = z.object({
  rows: z.array(z.object({ kind: z.string(), amount: z.coerce.number(), reference: z.string().nullable() })),
  totals: z.object({ net: z.coerce.number() }),
});

async function balanceOf(player: Client): Promise<number> {
  return (await callRpcWith(player, "get_my_account", {}, balanceSchema)).credits;
}

/** The player's ledger rows for one top-up, and whether the balance equals the whole ledger. */
async function ledgerOf(player: Client, topUpId: string) {
  const page = await callRpcWith(player, "get_my_ledger_page", { p_limit: 500 }, ledgerSchema);
  return {
    rows: page.rows.filter((r) => r.reference === `top_up:${topUpId}`).map((r) => [r.kind, r.amount]),
    balanceMatchesLedger: page.totals.net === (await balanceOf(player)),
  };
}

/** A pending Stripe top-up with its checkout session attached, as startTopUpAction leaves it. */
async function stripeTopUp(player: Client, amount: number) {
  const topUp = await callRpcWith(
    player,
    "create_top_up",
    { p_amount: amount, p_provider: "stripe" },
    createdTopUpSchema,
  );
  const sessionId = `cs_test_${topUp.id.replaceAll("-", "")}`;
  await attachCheckoutSession(admin, topUp.id, sessionId);
  return { ...topUp, sessionId, paymentId: `pi_${topUp.id.replaceAll("-", "").slice(0, 24)}` };
}

/** The stand-in for Stripe's API: what the webhook asks of it, and a record of the refunds made. */
function fakeStripe(
  options: {
    funding?: Funding;
    /** What a full refund gives back, in pence (Stripe refunds the whole payment by default). */
    refundPence?: number;
    refunds?: Record<string, { id: string; amount: number }[]>;
  } = {},
) {
  const made: string[] = [];
  const api: StripeApi = {
    createCheckoutSession: async () => {
      throw new Error("not used by the webhook");
    },
    cardFunding: async () => options.funding ?? "debit",
    refundPayment: async (paymentIntentId, idempotencyKey) => {
      made.push(idempotencyKey);
      return { id: `re_${idempotencyKey}`, amount: options.refundPence ?? 0 };
    },
    listRefunds: async (chargeId) => (options.refunds?.[chargeId] ?? []).map((r) => ({ ...r, status: "succeeded" })),
  };
  return { api, made };
}

function signed(event: object, secret = SECRET) {
  const payload = JSON.stringify(event);
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

let eventCounter = 0;
function sessionEvent(
  type: string,
  topUp: { sessionId: string; paymentId: string; id: string },
  amountPence: number,
  paymentStatus = "paid",
) {
  eventCounter += 1;
  return {
    id: `evt_${eventCounter}`,
    object: "event",
    type,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: topUp.sessionId,
        object: "checkout.session",
        payment_status: paymentStatus,
        payment_intent: topUp.paymentId,
        amount_total: amountPence,
        currency: "gbp",
        client_reference_id: topUp.id,
        metadata: { top_up_id: topUp.id },
      },
    },
  };
}

function chargeRefundedEvent(chargeId: string, paymentId: string) {
  eventCounter += 1;
  return {
    id: `evt_${eventCounter}`,
    object: "event",
    type: "charge.refunded",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: chargeId, object: "charge", payment_intent: paymentId } },
  };
}

async function deliver(deps: WebhookDeps, event: object, secret = SECRET) {
  const { payload, signature } = signed(event, secret);
  return handleStripeWebhook(deps, payload, signature);
}

const topUpOf = (player: Client, id: string) => callRpcWith(player, "get_top_up", { p_id: id }, myTopUp);

describe("the Stripe webhook", () => {
  it("credits a paid checkout once, with its bonus, and answers a replay with 200 and no second credit", async () => {
    const player = await newPlayer();
    const topUp = await stripeTopUp(player, 60);
    const deps = { client: admin, api: fakeStripe().api, secret: SECRET };
    const event = sessionEvent("checkout.session.completed", topUp, 6000);

    expect(await deliver(deps, event)).toEqual({ status: 200, body: { received: true } });
    expect(await deliver(deps, event)).toEqual({ status: 200, body: { received: true } });

    expect(await balanceOf(player)).toBe(61.5);
    expect(await topUpOf(player, topUp.id)).toMatchObject({ status: "credited", funding: "debit", balance: 61.5 });
    expect(await ledgerOf(player, topUp.id)).toEqual({
      rows: [
        ["bonus", 1.5],
        ["top_up", 60],
      ],
      balanceMatchesLedger: true,
    });
  });

  it("credits once when the same event arrives 100 times at once", async () => {
    const player = await newPlayer();
    const topUp = await stripeTopUp(player, 25);
    const deps = { client: admin, api: fakeStripe().api, secret: SECRET };
    const event = sessionEvent("checkout.session.completed", topUp, 2500);

    const answers = await Promise.all(Array.from({ length: 100 }, () => deliver(deps, event)));

    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    expect(await balanceOf(player)).toBe(25);
    expect((await ledgerOf(player, topUp.id)).rows).toEqual([["top_up", 25]]);
  });

  it("keeps the ledger consistent when the refund arrives before the completion", async () => {
    const player = await newPlayer();
    const topUp = await stripeTopUp(player, 10);
    const chargeId = `ch_${topUp.id.slice(0, 8)}`;
    const deps = {
      client: admin,
      api: fakeStripe({ refunds: { [chargeId]: [{ id: `re_${topUp.id.slice(0, 8)}`, amount: 1000 }] } }).api,
      secret: SECRET,
    };

    expect((await deliver(deps, chargeRefundedEvent(chargeId, topUp.paymentId))).status).toBe(200);
    expect(await balanceOf(player)).toBe(0);
    expect((await deliver(deps, sessionEvent("checkout.session.completed", topUp, 1000))).status).toBe(200);
    // The refund is delivered again (Stripe retries): recorded once.
    expect((await deliver(deps, chargeRefundedEvent(chargeId, topUp.paymentId))).status).toBe(200);

    expect(await topUpOf(player, topUp.id)).toMatchObject({ status: "refunded", balance: 0 });
    expect(await ledgerOf(player, topUp.id)).toEqual({
      rows: [
        ["top_up_reversal", -10],
        ["top_up", 10],
      ],
      balanceMatchesLedger: true,
    });
  });

  it("answers a bad signature with 400, changes nothing and counts the refusals per hour", async () => {
    const player = await newPlayer();
    const topUp = await stripeTopUp(player, 60);
    const deps = { client: admin, api: fakeStripe().api, secret: SECRET };
    const event = sessionEvent("checkout.session.completed", topUp, 6000);
    const { client: operator } = await signInAtAal2(server, "admin@labcash.test");
    const refusals = async () => {
      const hours = await callRpcWith(operator, "admin_webhook_refusals", {}, webhookRefusalsSchema);
      return hours.reduce((n, h) => n + h.refusals, 0);
    };
    const before = await refusals();

    expect(await deliver(deps, event, "whsec_someone_else")).toEqual({
      status: 400,
      body: { error: "invalid signature" },
    });
    const { payload, signature } = signed(event);
    expect((await handleStripeWebhook(deps, payload.replace("6000", "9000"), signature)).status).toBe(400);
    expect((await handleStripeWebhook(deps, payload, null)).status).toBe(400);

    expect(await topUpOf(player, topUp.id)).toMatchObject({ status: "pending", balance: 0 });
    expect((await ledgerOf(player, topUp.id)).rows).toEqual([]);
    // Each refused call is counted (an operator sees a wrongly rotated secret on the System page); a good one is not.
    expect(await refusals()).toBe(before + 3);
    expect((await handleStripeWebhook(deps, payload, signature)).status).toBe(200);
    expect(await refusals()).toBe(before + 3);
  });

  it("answers a session this site did not make with 404 and writes nothing", async () => {
    const player = await newPlayer();
    const topUp = await stripeTopUp(player, 60);
    const deps = { client: admin, api: fakeStripe().api, secret: SECRET };
    const stranger = { ...topUp, sessionId: "cs_test_not_ours" };

    expect(await deliver(deps, sessionEvent("checkout.session.completed", stranger, 6000))).toEqual({
      status: 404,
      body: { error: "unknown checkout session" },
    });
    expect(await topUpOf(player, topUp.id)).toMatchObject({ status: "pending", balance: 0 });
  });

  it("refuses a payment whose amount is not the top-up's (422, nothing credited)", async () => {
    const player = await newPlayer();
    const topUp = await stripeTopUp(player, 60);
    const deps = { client: admin, api: fakeStripe().api, secret: SECRET };

    expect((await deliver(deps, sessionEvent("checkout.session.completed", topUp, 600))).status).toBe(422);
    expect(await topUpOf(player, topUp.id)).toMatchObject({ status: "pending", balance: 0 });

    // A person must look: the System page lists it as a payment needing one.
    const { client: superAdmin } = await signInAtAal2(server, "superadmin@labcash.test");
    const { data, error } = await superAdmin.rpc("admin_system_overview");
    expect(error).toBeNull();
    const overview = data as {
      webhooks: { status: string; http_status: number; event_type: string }[];
      payments: { kind: string }[];
    };
    expect(overview.webhooks).toContainEqual(
      expect.objectContaining({ status: "mismatch", http_status: 422, event_type: "checkout.session.completed" }),
    );
    expect(overview.payments.some((p) => p.kind === "mismatch")).toBe(true);
  });

  it("waits for an unpaid (delayed) completion, then credits on async_payment_succeeded", async () => {
    const player = await newPlayer();
    const topUp = await stripeTopUp(player, 10);
    const deps = { client: admin, api: fakeStripe().api, secret: SECRET };

    expect((await deliver(deps, sessionEvent("checkout.session.completed", topUp, 1000, "unpaid"))).status).toBe(200);
    expect(await topUpOf(player, topUp.id)).toMatchObject({ status: "pending" });
    expect((await deliver(deps, sessionEvent("checkout.session.async_payment_succeeded", topUp, 1000))).status).toBe(
      200,
    );
    expect(await topUpOf(player, topUp.id)).toMatchObject({ status: "credited", balance: 10 });
  });

  it("marks failed and expired sessions, and answers events it ignores with 200", async () => {
    const player = await newPlayer();
    const failed = await stripeTopUp(player, 10);
    const expired = await stripeTopUp(player, 10);
    const deps = { client: admin, api: fakeStripe().api, secret: SECRET };

    expect((await deliver(deps, sessionEvent("checkout.session.async_payment_failed", failed, 1000))).status).toBe(200);
    expect((await deliver(deps, sessionEvent("checkout.session.expired", expired, 1000))).status).toBe(200);
    expect(await deliver(deps, { ...sessionEvent("customer.created", failed, 0) })).toEqual({
      status: 200,
      body: { received: true, ignored: true },
    });

    expect((await topUpOf(player, failed.id)).status).toBe("failed");
    expect((await topUpOf(player, expired.id)).status).toBe("expired");
    expect(await balanceOf(player)).toBe(0);
  });

  it("refunds a credit-card payment over the monthly cap through the adapter instead of crediting it", async () => {
    const player = await newPlayer();
    const topUp = await stripeTopUp(player, 300);
    const stripe = fakeStripe({ funding: "credit", refundPence: 30000 });
    const deps = { client: admin, api: stripe.api, secret: SECRET };

    expect((await deliver(deps, sessionEvent("checkout.session.completed", topUp, 30000))).status).toBe(200);

    expect(stripe.made).toEqual([`card-cap-refund-${topUp.id}`]);
    const after = await topUpOf(player, topUp.id);
    expect(after).toMatchObject({ status: "refused_card_cap", funding: "credit", balance: 0 });
    expect(after.refusal_reason).toMatch(/£250/);
    expect((await ledgerOf(player, topUp.id)).rows).toEqual([]);
  });
});

describe("the test checkout's confirmation (the same path as the webhook)", () => {
  it("credits a debit payment once however often it is confirmed", async () => {
    const player = await newPlayer();
    const topUp = await callRpcWith(player, "create_top_up", { p_amount: 60, p_provider: "test" }, createdTopUpSchema);
    const payment = {
      topUpId: topUp.id,
      paymentId: testPaymentId(topUp.id),
      funding: "debit" as const,
      amountPaid: 60,
    };

    const results = await Promise.all(
      Array.from({ length: 5 }, () => confirmPayment(admin, testCheckoutAdapter, payment)),
    );

    expect(results.map((r) => r.status).sort()).toEqual([
      "already_credited",
      "already_credited",
      "already_credited",
      "already_credited",
      "credited",
    ]);
    expect(await balanceOf(player)).toBe(61.5);
  });

  it("refunds a credit-card top-up that would pass £250 in the month, and says why", async () => {
    const player = await newPlayer();
    const create = (amount: number) =>
      callRpcWith(player, "create_top_up", { p_amount: amount, p_provider: "test" }, createdTopUpSchema);
    const first = await create(200);
    const second = await create(60);
    const pay = (id: string, amount: number) =>
      confirmPayment(admin, testCheckoutAdapter, {
        topUpId: id,
        paymentId: testPaymentId(id),
        funding: "credit",
        amountPaid: amount,
      });

    expect((await pay(first.id, 200)).status).toBe("credited");
    expect((await pay(second.id, 60)).status).toBe("refunded");
    // A repeat asks for the same refund again, which is recorded once.
    expect((await pay(second.id, 60)).status).toBe("refunded");

    expect(await balanceOf(player)).toBe(210);
    const refused = await topUpOf(player, second.id);
    expect(refused.status).toBe("refused_card_cap");
    expect(refused.refusal_reason).toContain("Credit-card top-ups are limited to £250");
    expect((await ledgerOf(player, second.id)).rows).toEqual([]);
  });
});
