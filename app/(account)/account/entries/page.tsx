import type { Metadata } from "next";
import Image from "next/image";
import { Link } from "@/components/ui/link";
import { Ticket } from "lucide-react";
import { formatTicketNumbers, plural } from "@/lib/competitions/ticket-numbers";
import { badgeClasses, type BadgeVariant } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { requireUserAnd } from "@/lib/auth/session";
import { getMyEntries, type MyEntry } from "@/lib/data/competitions";
import { formatDateTime, formatGBP, formatPounds } from "@/lib/format";
import { PrizeStatusBadge } from "@/components/prizes/prize-progress";
import { LABELS } from "@/lib/labels";
import { PRIZE_STATUS } from "@/lib/prizes/steps";

export const metadata: Metadata = { title: "My entries", robots: { index: false } };

type Result = "won" | "not_won" | "pending" | "refunded";

const resultLabel: Record<Result, string> = {
  won: "Won",
  not_won: "Not won",
  pending: "Pending",
  refunded: "Refunded",
};
const resultTone: Record<Result, BadgeVariant> = {
  won: "primary",
  not_won: "neutral",
  pending: "warning",
  refunded: "neutral",
};

type Group = {
  competition: MyEntry["competition"];
  entries: MyEntry[];
  result: Result;
  winningNumber: number | null;
  drawId: string | null;
  draw: MyEntry["draw"];
};

/** Entries arrive newest first; group them by competition, keeping that order. */
function group(entries: MyEntry[]): Group[] {
  const groups = new Map<string, Group>();
  for (const e of entries) {
    let g = groups.get(e.competition.id);
    if (!g) {
      g = {
        competition: e.competition,
        entries: [],
        result: "pending",
        winningNumber: e.draw?.winning_number ?? null,
        drawId: e.draw?.id ?? null,
        draw: e.draw,
      };
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
  const [, entries] = await requireUserAnd("/account/entries", getMyEntries);
  const groups = group(entries);
  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="My entries" description="Every ticket you hold, by competition, with the result once drawn." />
      {groups.length === 0 ? (
        <EmptyState icon={<Ticket />} title="You have not entered any competitions yet">
          <Link href="/competitions" className={buttonClasses("primary", "md")}>
            Browse competitions
          </Link>
        </EmptyState>
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
    <article
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-2xl border border-border bg-card p-5 sm:flex-row"
    >
      {c.image ? (
        <Image
          src={c.image}
          alt=""
          width={160}
          height={120}
          unoptimized
          className="aspect-[4/3] w-full rounded-lg object-cover sm:w-40"
        />
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h2 id={headingId} className="text-lg font-semibold">
              <Link href={`/competitions/${c.slug}`} className="hover:underline">
                {c.title}
              </Link>
            </h2>
            <p className="text-sm text-muted-foreground">
              {LABELS.competition_status[c.status]} · {c.tickets_sold.toLocaleString("en-GB")} /{" "}
              {c.total_tickets.toLocaleString("en-GB")} sold · {c.status === "live" ? "closes" : "closed"}{" "}
              {formatDateTime(c.closes_at)}
            </p>
          </div>
          <p className={badgeClasses(resultTone[g.result], "md")}>
            <span className="sr-only">Result: </span>
            {resultLabel[g.result]}
          </p>
        </div>
        <p>
          <span className="text-muted-foreground">
            {g.result === "refunded" ? "Tickets (refunded)" : `Your ${tickets.length === 1 ? "ticket" : "tickets"}`}
            :{" "}
          </span>
          <span className="font-mono font-semibold">
            {formatTicketNumbers(g.result === "refunded" ? g.entries.flatMap((e) => e.ticket_numbers) : tickets)}
          </span>
        </p>
        {g.winningNumber !== null ? (
          <p className="text-sm">
            Winning ticket #{g.winningNumber}.{" "}
            <Link href={`/winners/${g.drawId}`} className="font-medium text-primary-text underline underline-offset-4">
              Verify the draw
            </Link>
          </p>
        ) : null}
        {g.result === "won" && g.draw ? <PrizeClaim draw={g.draw} /> : null}
        <details className="text-sm">
          <summary className="cursor-pointer text-muted-foreground">{plural(g.entries.length, "order")}</summary>
          <DataTable
            className="mt-2"
            rows={g.entries}
            rowKey={(e) => e.entry_id}
            columns={[
              { header: "Date", cell: (e) => formatDateTime(e.created_at) },
              { header: "Tickets", className: "font-mono", cell: (e) => formatTicketNumbers(e.ticket_numbers) },
              { header: "Paid", cell: (e) => (e.kind === "postal" ? "Free (post)" : formatGBP(e.amount)) },
              { header: "Status", cell: (e) => LABELS.entry_status[e.status] },
            ]}
          />
        </details>
      </div>
    </article>
  );
}

/** The winner's prize on their entry: where it stands (the shared words) and the way to the claim. */
function PrizeClaim({ draw }: { draw: NonNullable<MyEntry["draw"]> }) {
  const status = PRIZE_STATUS[draw.prize_status];
  return (
    <div
      role="group"
      aria-labelledby={`prize-${draw.id}`}
      className="flex flex-col items-start gap-3 rounded-lg border border-border bg-muted/40 p-4"
    >
      <h3 id={`prize-${draw.id}`} className="flex flex-wrap items-center gap-2 font-semibold">
        Your prize <PrizeStatusBadge status={draw.prize_status} />
      </h3>
      <p className="text-sm">
        You won {draw.prize_description}
        {draw.cash_alternative === null ? "." : `, or ${formatPounds(draw.cash_alternative)} cash instead.`}{" "}
        {status.winner}
      </p>
      <Link
        href={`/account/prizes#prize-${draw.id}`}
        className={buttonClasses(draw.prize_status === "awaiting_claim" ? "primary" : "outline", "sm")}
      >
        {draw.prize_status === "awaiting_claim" ? "Claim your prize" : "See your prize"}
      </Link>
    </div>
  );
}
