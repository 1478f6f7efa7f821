import { connection } from "next/server";
import { AuthShell } from "@/components/layout/auth-shell";

// Rendered per request (/signup would otherwise be static), so every sign-in screen carries the
// strict, nonce-based Content-Security-Policy the proxy gives it: Next stamps the request's nonce on
// its scripts only when it renders the page (lib/http/security-headers.ts).
export default async function AuthLayout({ children }: { children: React.ReactNode }) {
  await connection();
  return <AuthShell>{children}</AuthShell>;
}
