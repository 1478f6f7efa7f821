import type { Metadata } from "next";
import { connection } from "next/server";
import { AccessDenied } from "@/components/auth/access-denied";

// The proxy rewrites non-admin requests for /admin/** here with status 403, under the strict CSP of
// /admin: rendered per request, so Next stamps that request's nonce on its scripts.
export const metadata: Metadata = { title: "Access denied", robots: { index: false } };

export default async function AccessDeniedPage() {
  await connection();
  return <AccessDenied />;
}
