"use client";

import { Toaster as Sonner } from "sonner";
import { useTheme } from "next-themes";

// Spec §9: bottom-right, 5000 ms, gap 16 px, at most 5 kept; a close button and a progress bar
// (app/globals.css). Swipe-to-dismiss past 50 px comes from patches/sonner+2.0.8.patch (sonner hard-codes 45).
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
