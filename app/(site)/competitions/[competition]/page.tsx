import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";

export const metadata: Metadata = { title: "Competition" };

export default function CompetitionPage() {
  return (
    <ComingSoon title="Competition details" links={[{ label: "All competitions", href: "/competitions" }]}>
      <p>Competition pages are not live yet. Each will show the prize, tickets sold, the odds, a countdown to the close, the draw commitment and the free postal entry route.</p>
    </ComingSoon>
  );
}
