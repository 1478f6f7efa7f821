import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";

export const metadata: Metadata = { title: "Competitions demo", robots: { index: false } };

export default function CompetitionsDemoPage() {
  return (
    <ComingSoon title="Competitions demo" links={[{ label: "Competitions", href: "/competitions" }]}>
      <p>A walk-through of entering a competition with demo credit will live here. It is not built yet.</p>
    </ComingSoon>
  );
}
