"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const POLL_MS = 1_500;

/** Re-renders the page from the server every moment until it stops rendering this (the payment is settled). */
export function RefreshWhilePending() {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [router]);
  return null;
}
