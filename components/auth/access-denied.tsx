import { Link } from "@/components/ui/link";

export function AccessDenied() {
  return (
    <section className="mx-auto flex max-w-lg flex-col items-start gap-4 py-16">
      <p className="text-sm font-semibold text-destructive">403</p>
      <h1 className="text-2xl font-bold">Access denied: Admin privileges required</h1>
      <p>This area is for LabCash administrators. If you think you should have access, ask a super admin.</p>
      <Link href="/account" className="font-medium underline">
        Go to your dashboard
      </Link>
    </section>
  );
}
