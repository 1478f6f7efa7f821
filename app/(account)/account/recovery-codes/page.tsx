import type { Metadata } from "next";
import { NewRecoveryCodesForm } from "@/components/auth/two-step-forms";
import { recoveryCodesPath, safeNextPath } from "@/lib/auth/paths";
import { requireAdmin } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Recovery codes" };

// Right after an admin sets up an authenticator without recovery codes (their first, or the first after a
// recovery): ten one-time codes, made and shown once at the press of a button, then on to where they were going.
export default async function RecoveryCodesPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[] }>;
}) {
  const { next: rawNext } = await searchParams;
  const next = safeNextPath(typeof rawNext === "string" ? rawNext : undefined, "/admin");
  await requireAdmin(recoveryCodesPath(next));
  return (
    <section className="flex max-w-lg flex-col gap-6">
      <h1 className="text-2xl font-bold">Recovery codes</h1>
      <p>
        Your authenticator app is set up. Now make your recovery codes: ten codes, each working once, that let you
        replace your authenticator with your password if you lose your phone. We show them only once.
      </p>
      <NewRecoveryCodesForm next={next} submitLabel="Make my recovery codes" />
    </section>
  );
}
