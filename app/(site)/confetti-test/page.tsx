import type { Metadata } from "next";
import { ConfettiButton } from "@/components/demo/confetti-button";
import { ForcedTheme } from "@/components/theme/forced-theme";

export const metadata: Metadata = { title: "Confetti test", robots: { index: false } };

// Shown in dark mode whatever the visitor chose: an example of a page forcing its colour mode.
export default function ConfettiTestPage() {
  return (
    <ForcedTheme theme="dark">
      <section className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
        <h1 className="text-4xl font-extrabold tracking-tight">Confetti test</h1>
        <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
          The celebration winners will see. It respects your device&apos;s reduced-motion setting. This page is always
          shown in dark mode.
        </p>
        <div className="mt-10">
          <ConfettiButton />
        </div>
      </section>
    </ForcedTheme>
  );
}
