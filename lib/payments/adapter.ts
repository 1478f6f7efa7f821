// Which payment adapter this deployment uses: Stripe Checkout when STRIPE_SECRET_KEY is set, otherwise the
// built-in test checkout (lib/env.ts allows that in production only with PAYMENTS=test). What an adapter does is
// ./provider.ts; the providers are loaded only when chosen, and import nothing from here.
import { env } from "@/lib/env";
import type { PaymentAdapter } from "./provider";

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
