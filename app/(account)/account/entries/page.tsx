import type { Metadata } from "next";
import Image from "next/image";
import Link from "next/link";
import { Ticket } from "lucide-react";
import { formatTicketNumbers, plural } from "@/components/competitions/ticket-numbers";
import { buttonClasses } from "@/components/ui/button";
import { requireUser } from "@/lib/auth/session";
import { getMyEntries, type MyEntry } from "@/lib/data/competitions";
import { formatDateTime, formatGBP } from "@/lib/format";
import { cn } from "@/lib/utils";

export const metadata: Metadata = { title: "My entries", robots: { index: false } };

type Result = "won" | "not_won" | "pending" | "refunded";

const resultLabel: Record<Result, string> = { won: "Won", not_won: "Not won", pending: "Pending", refunded: "Refunded" };
const resultTone: Record<Result, string> = {
  won: "border-primary bg-primary-soft text-primary-text",
  not_won: "border-border bg-muted text-foreground",
  pending: "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50",
  refunded: "border-border bg-muted text-foreground",
};

const statusLabel: Record<MyEntry["competition"]["status"], string> = {
  draft: "Draft",
  live: "Live",
  sold_out: "Sold out",
  closed: "Closed",
  drawn: "Drawn",
  cancelled: "Cancelled",
};

type Group = { competition: MyEntry["competition"]; entries: MyEntry[]; result: Result; winningNumber: number | null; drawId: string | null };

/** Entries arrive newest first; group them by competition, keeping that order. */
function group(entries: MyEntry[]): Group[] {
  const groups = new Map<string, Group>();
  for (const e of entries) {
    let g = groups.get(e.competition.id);
    if (!g) {
      g = { competition: e.competition, entries: [], result: "pending", winningNumber: e.draw?.winning_number ?? null, drawId: e.draw?.id ?? null };
      groups.set(e.competition.id, g);
    }
    g.entries.push(e);
  }
  for (const g of groups.values()) {
    if (g.entries.every((e) => e.status !== "active")) g.result = "refunded";
    else if (g.entries.some((e) => e.draw?.won)) g.result = "won";
    else if (g.drawId) g.result = "not_won";
    else g.result = "pending";
  }
  return [...groups.values()];
}

export default async function EntriesPage() {
  await requireUser("/account/entries");
  const groups = group(await getMyEntries());
  return (
    <section className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold">My entries</h1>
        <p className="mt-1 text-muted-foreground">Every ticket you hold, by competition, with the result once drawn.</p>
      </div>
      {groups.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-border px-6 py-10 text-center">
          <Ticket aria-hidden className="mx-auto size-10 text-muted-foreground" />
          <p className="mt-3 font-semibold">You have not entered any competitions yet</p>
          <Link href="/competitions" className={buttonClasses("primary", "md", "mt-5")}>
            Browse competitions
          </Link>
        </div>
      ) : (
        <ul className="flex flex-col gap-5">
          {groups.map((g) => (
            <li key={g.competition.id}>
              <EntryGroup group={g} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function EntryGroup({ group: g }: { group: Group }) {
  const c = g.competition;
  const tickets = g.entries.filter((e) => e.status === "active").flatMap((e) => e.ticket_numbers);
  const headingId = `entry-${c.id}`;
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-4 rounded-2xl border border-border bg-card p-5 sm:flex-row">
      {c.image ? <Image src={c.image} alt="" width={160} height={120} unoptimized className="aspect-[4/3] w-full rounded-lg object-cover sm:w-40" /> : null}
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h2 id={headingId} className="text-lg font-semibold">
              <Link href={`/competitions/${c.slug}`} className="hover:underline">
                {c.title}
              </Link>
            </h2>
            <p className="text-sm text-muted-foreground">
              {statusLabel[c.status]} · {c.tickets_sold.toLocaleString("en-GB")} / {c.total_tickets.toLocaleString("en-GB")} sold ·{" "}
              {c.status === "live" ? "closes" : "closed"} {formatDateTime(c.closes_at)}
            </p>
          </div>
          <p className={cn("rounded-full border px-3 py-1 text-sm font-semibold", resultTone[g.result])}>
            <span className="sr-only">Result: </span>
            {resultLabel[g.result]}
          </p>
        </div>
        <p>
          <span className="text-muted-foreground">{g.result === "refunded" ? "Tickets (refunded)" : `Your ${tickets.length === 1 ? "ticket" : "tickets"}`}: </span>
          <span className="font-mono font-semibold">{formatTicketNumbers(g.result === "refunded" ? g.entries.flatMap((e) => e.ticket_numbers) : tickets)}</span>
        </p>
        {g.winningNumber !== null ? (
          <p className="text-sm">
            Winning ticket #{g.winningNumber}.{" "}
            <Link href={`/winners/${g.drawId}`} className="font-medium text-primary-text underline underline-offset-4">
              Verify the draw
            </Link>
          </p>
        ) : null}
        <details className="text-sm">
          <summary className="cursor-pointer text-muted-foreground">{plural(g.entries.length, "order")}</summary>
          <table className="mt-2 w-full text-left">
            <thead className="text-muted-foreground">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">Date</th>
                <th scope="col" className="py-1 pr-3 font-medium">Tickets</th>
                <th scope="col" className="py-1 pr-3 font-medium">Paid</th>
                <th scope="col" className="py-1 font-medium">Status</th>
              </tr>
            </thead>
            <tbody>
              {g.entries.map((e) => (
                <tr key={e.entry_id} className="border-t border-border">
                  <td className="py-1 pr-3">{formatDateTime(e.created_at)}</td>
                  <td className="py-1 pr-3 font-mono">{formatTicketNumbers(e.ticket_numbers)}</td>
                  <td className="py-1 pr-3">{e.kind === "postal" ? "Free (post)" : formatGBP(e.amount)}</td>
                  <td className="py-1">{e.status === "active" ? "Active" : e.status === "refunded" ? "Refunded" : "Void"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </div>
    </article>
  );
}
