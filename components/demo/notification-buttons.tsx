"use client";

import { Button } from "@/components/ui/button";
import { useToast, type Toast } from "@/components/ui/toast";

const kinds = (toast: Toast): { label: string; fire: () => void }[] => [
  { label: "Default", fire: () => toast("Draw reminder", { description: "The MacBook Air draw closes in one hour." }) },
  {
    label: "Success",
    fire: () => toast.success("Credit added", { description: "£50.00 and £1.25 bonus credit are in your balance." }),
  },
  {
    label: "Info",
    fire: () => toast.info("New competition", { description: "A PlayStation 5 Pro competition is now live." }),
  },
  {
    label: "Warning",
    fire: () =>
      toast.warning("Monthly limit nearly reached", {
        description: "You have £20 of your £200 limit left this month.",
      }),
  },
  {
    label: "Error",
    fire: () => toast.error("Payment failed", { description: "Your card was declined. No credit was taken." }),
  },
  {
    label: "With action",
    fire: () =>
      toast("Ticket reserved", {
        description: "Ticket #42 in the iPhone 17 draw.",
        action: { label: "View", onClick: () => toast.info("This would open My Entries.") },
      }),
  },
  {
    label: "Promise",
    fire: () =>
      toast.promise(new Promise<void>((resolve) => setTimeout(resolve, 1500)), {
        loading: "Confirming your entry…",
        success: "Entry confirmed",
        error: "Entry failed",
      }),
  },
  {
    label: "Loading",
    fire: () => {
      const id = toast.loading("Drawing the winner…");
      setTimeout(() => toast.success("Winner drawn", { id, description: "Ticket #1234 wins." }), 2000);
    },
  },
];

export function NotificationButtons() {
  const toast = useToast();
  const buttons = kinds(toast);
  return (
    <div className="flex flex-wrap gap-3">
      {buttons.map((k) => (
        <Button key={k.label} variant="outline" onClick={k.fire}>
          {k.label}
        </Button>
      ))}
      <Button
        onClick={() => {
          for (const k of buttons.slice(0, 6)) k.fire();
        }}
      >
        Fire all
      </Button>
      <Button variant="ghost" onClick={() => toast.dismiss()}>
        Dismiss all
      </Button>
    </div>
  );
}
