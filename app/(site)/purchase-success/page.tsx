import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";

export const metadata: Metadata = { title: "Purchase complete", robots: { index: false } };

export default function PurchaseSuccessPage() {
  return (
    <ComingSoon title="Purchase complete" links={[{ label: "Credit Balance", href: "/account/credits" }]}>
      <p>
        Payments are not live yet, so nothing has been charged. When they are, this page will confirm your top-up and
        the credit added to your balance.
      </p>
    </ComingSoon>
  );
}
