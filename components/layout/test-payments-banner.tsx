import { env } from "@/lib/env";

/**
 * Says, on every page, that top-ups go through the built-in test checkout (no Stripe keys: locally,
 * or a deployment with PAYMENTS=test, lib/env.ts), so nobody takes the credit for real money. It
 * reads the environment only, never the request, so the cached public pages stay cached; a page is
 * built with the environment it is served with (Vercel builds and runs with the same variables).
 */
export function TestPaymentsBanner() {
  if (env().payments !== "test") return null;
  return (
    <aside
      aria-label="Test payments"
      data-test-payments=""
      className="border-b border-warning/40 bg-warning-soft px-4 py-1.5 text-center text-sm text-warning-soft-foreground"
    >
      <strong className="font-semibold">Test payments.</strong> Top-ups use a test checkout: no card is charged and the
      credit is not real money.
    </aside>
  );
}
