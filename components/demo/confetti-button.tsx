"use client";

import { useState } from "react";
import { PartyPopper } from "lucide-react";
import { Button } from "@/components/ui/button";

export function ConfettiButton() {
  const [message, setMessage] = useState("");
  return (
    <div className="space-y-4">
      <Button
        size="lg"
        onClick={async () => {
          if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
            setMessage("Congratulations! (Confetti is off because your device asks for reduced motion.)");
            return;
          }
          const { default: confetti } = await import("canvas-confetti");
          const colors = ["#15803d", "#22c55e", "#86efac", "#facc15", "#ffffff"];
          await Promise.all([
            confetti({ particleCount: 120, spread: 70, origin: { y: 0.7 }, colors, disableForReducedMotion: true }),
            confetti({
              particleCount: 60,
              angle: 60,
              spread: 55,
              origin: { x: 0, y: 0.8 },
              colors,
              disableForReducedMotion: true,
            }),
            confetti({
              particleCount: 60,
              angle: 120,
              spread: 55,
              origin: { x: 1, y: 0.8 },
              colors,
              disableForReducedMotion: true,
            }),
          ]);
          setMessage("Congratulations!");
        }}
      >
        <PartyPopper aria-hidden />
        Celebrate a win
      </Button>
      <p role="status" className="min-h-6 text-muted-foreground">
        {message}
      </p>
    </div>
  );
}
