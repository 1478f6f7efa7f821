import type { Metadata } from "next";
import { AccessDenied } from "@/components/auth/access-denied";

// The proxy rewrites non-admin requests for /admin/** here with status 403.
export const metadata: Metadata = { title: "Access denied", robots: { index: false } };

export default function AccessDeniedPage() {
  return <AccessDenied />;
}
