import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "My entries" };

export default function EntriesPage() {
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">My entries</h1>
      <p>
        Your tickets, grouped by competition, will appear here once competitions open.{" "}
        <Link href="/competitions" className="underline">Browse competitions</Link>
      </p>
    </section>
  );
}
