"use client";

import dynamic from "next/dynamic";
import { useSyncExternalStore } from "react";
import { toastRegionWanted } from "@/components/ui/toast-region-wanted";

const ToastRegion = dynamic(() => import("./toast-region").then((m) => m.ToastRegion), { ssr: false });

// Sonner loads only on a page with a component that raises toasts (useToast in components/ui/toast.ts), when that
// component mounts: a page load elsewhere never fetches or runs it. A toast raised before the region arrives is not
// lost: sonner replays the active toasts to a Toaster when it subscribes.
export function Toaster() {
  const wanted = useSyncExternalStore(toastRegionWanted.subscribe, toastRegionWanted.get, toastRegionWanted.getServer);
  return wanted ? <ToastRegion /> : null;
}
