"use client";

import dynamic from "next/dynamic";
import { WhenIdle } from "./when-idle";

const ToastRegion = dynamic(() => import("./toast-region").then((m) => m.ToastRegion), { ssr: false });

// Sonner loads after the page. A toast raised before that is not lost: sonner replays the
// active toasts to a Toaster when it subscribes.
export function Toaster() {
  return (
    <WhenIdle>
      <ToastRegion />
    </WhenIdle>
  );
}
