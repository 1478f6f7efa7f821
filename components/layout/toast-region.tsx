"use client";

import { Toaster as Sonner } from "sonner";
import { useTheme } from "next-themes";

// Spec §9: bottom-right, 5000 ms, gap 16 px, at most 5 kept; a close button and a progress bar
// (app/globals.css). Sonner's swipe threshold is fixed at 45 px in sonner 2 (see DECISIONS.md).
export function ToastRegion() {
  const { resolvedTheme } = useTheme();
  return (
    <Sonner
      theme={resolvedTheme === "dark" ? "dark" : "light"}
      position="bottom-right"
      duration={5000}
      gap={16}
      visibleToasts={5}
      closeButton
      swipeDirections={["right", "bottom"]}
      containerAriaLabel="Notifications"
      toastOptions={{ closeButtonAriaLabel: "Close notification" }}
    />
  );
}
