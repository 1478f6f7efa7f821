import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { formatGBP } from "@/lib/format";

export const metadata: Metadata = { title: "Dashboard" };

export default async function AccountPage() {
  const account = await requireUser("/account");
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Hello, {account.name}</h1>
      {!account.approved && (
        <p role="status" className="rounded-md border border-amber-400 bg-amber-50 p-3 text-amber-950 dark:bg-amber-950 dark:text-amber-50">
          Your account is waiting for approval. You can look around, but adding credit and entering competitions open up
          once our team has approved you. <Link href="/pending-approval" className="underline">What happens next</Link>
        </p>
      )}
      <dl className="grid gap-4 sm:grid-cols-3">
        <div className="rounded-lg border border-slate-200 p-4 dark:border-slate-700">
          <dt className="text-sm text-slate-600 dark:text-slate-400">Credit balance</dt>
          <dd className="text-2xl font-bold" data-testid="credit-balance">
            {formatGBP(account.credits)}
          </dd>
        </div>
        <div className="rounded-lg border border-slate-200 p-4 dark:border-slate-700">
          <dt className="text-sm text-slate-600 dark:text-slate-400">Tickets bought</dt>
          <dd className="text-2xl font-bold">{account.total_entries}</dd>
        </div>
        <div className="rounded-lg border border-slate-200 p-4 dark:border-slate-700">
          <dt className="text-sm text-slate-600 dark:text-slate-400">Account status</dt>
          <dd className="text-2xl font-bold">{account.approved ? "Approved" : "Awaiting approval"}</dd>
        </div>
      </dl>
      <nav aria-label="Account shortcuts" className="flex flex-wrap gap-4">
        <Link href="/account/credits" className="underline">Credit balance and history</Link>
        <Link href="/account/entries" className="underline">My entries</Link>
        <Link href="/account/profile" className="underline">Profile settings</Link>
      </nav>
    </section>
  );
}
