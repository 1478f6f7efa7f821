import { env } from "@/lib/env";
import { stripeApi } from "@/lib/payments/stripe";
import { handleStripeWebhook } from "@/lib/payments/webhook";
import { createAdminClient } from "@/lib/supabase/admin";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";

// Stripe's webhook endpoint (https://<domain>/api/webhooks/stripe; README "Stripe in production").
// The signature is over the exact bytes Stripe sent, so the body is read as text, never parsed first.
// Receipts the confirmation queues go out with the rest of the mail queue (the cron's delivery).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function post({ request }: RouteInput<undefined, undefined>) {
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } = env();
  if (!STRIPE_SECRET_KEY || !STRIPE_WEBHOOK_SECRET) {
    return Response.json({ error: "Stripe is not configured on this site" }, { status: 404 });
  }
  const result = await handleStripeWebhook(
    { client: createAdminClient(), api: stripeApi(STRIPE_SECRET_KEY), secret: STRIPE_WEBHOOK_SECRET },
    await request.text(),
    request.headers.get("stripe-signature"),
  );
  return Response.json(result.body, { status: result.status });
}

export const POST = defineRoute({ kind: "json" }, post);
