import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";

export const metadata: Metadata = { title: "Buy credit", description: "Top up LabCash credit from £5 to £5,000." };

export default function CreditPage() {
  return (
    <ComingSoon
      title="Buy credit"
      links={[
        { label: "See pricing", href: "/pricing" },
        { label: "How credits work", href: "/docs/credits" },
      ]}
    >
      <p>
        Top-ups are not open yet. Here you will choose any amount from £5 to £5,000 and pay by card; top-ups of £50 or
        more earn bonus credit.
      </p>
    </ComingSoon>
  );
}
