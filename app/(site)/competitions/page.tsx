import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";

export const metadata: Metadata = { title: "Competitions", description: "Prize draws for phones, laptops, consoles and more." };

export default function CompetitionsPage() {
  return (
    <ComingSoon title="Competitions" links={[{ label: "How it works", href: "/docs/how-it-works" }, { label: "Free postal entry", href: "/docs/competitions" }]}>
      <p>No competitions are live yet. Soon this page will list every live draw with its prize, ticket price, tickets sold and closing time.</p>
    </ComingSoon>
  );
}
