import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";

export const metadata: Metadata = { title: "Winners", description: "Every LabCash winner, with a link to verify the draw." };

export default function WinnersPage() {
  return (
    <ComingSoon title="Winners" links={[{ label: "How draws are verified", href: "/docs/fair-draws" }]}>
      <p>No competitions have been drawn yet. Each winner will be listed here with the prize, the winning ticket and a link to verify the draw in your browser.</p>
    </ComingSoon>
  );
}
