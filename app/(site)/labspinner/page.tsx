import type { Metadata } from "next";
import { ComingSoon } from "@/components/layout/coming-soon";

export const metadata: Metadata = {
  title: "LabSpinner",
  description: "The LabSpinner prize wheel: earn a spin for every £10 spent on tickets.",
};

export default function LabSpinnerPage() {
  return (
    <ComingSoon title="LabSpinner" links={[{ label: "How LabSpinner works", href: "/docs/labspinner" }]}>
      <p>
        The prize wheel is on its way. You will earn 1 spin credit for every £10 you spend on tickets, and the odds of
        every segment will be published here before you spin.
      </p>
    </ComingSoon>
  );
}
