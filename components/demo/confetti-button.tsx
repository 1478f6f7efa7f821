"use client";

import { useState } from "react";
import { PartyPopper } from "lucide-react";
import { celebrate } from "@/lib/ui/celebrate";
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
          await celebrate();
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
