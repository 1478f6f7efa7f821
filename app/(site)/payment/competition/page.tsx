import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";

export const metadata: Metadata = { title: "Payment", robots: { index: false } };

export default function CompetitionPaymentPage() {
  return (
    <ComingSoon title="Payment" links={[{ label: "Browse competitions", href: "/competitions" }]}>
      <p>
        Entering a competition is not open yet. This step will confirm your tickets and take their price from your
        credit balance; nothing is charged today.
      </p>
    </ComingSoon>
  );
}
