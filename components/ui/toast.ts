"use client";

import { useEffect } from "react";
import { toast } from "sonner";
import { wantToastRegion } from "./toast-region-wanted";

/**
 * The one way to raise a toast: sonner's `toast`, from a component that has asked for the page's toast region. Pages
 * whose components raise none never load sonner (components/layout/toaster.tsx); asking at mount rather than at the
 * first toast puts the region's live region in the page before anything is announced in it.
 */
export function useToast() {
  useEffect(wantToastRegion, []);
  return toast;
}

export type Toast = typeof toast;
