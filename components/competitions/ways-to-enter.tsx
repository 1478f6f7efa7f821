import { Award, Ticket } from "lucide-react";
import type { EntryBlock } from "@/lib/competitions/status";
import type { Account } from "@/lib/data/account-schema";
import type { CompetitionPage } from "@/lib/data/competitions";
import { OnlineEntry } from "./online-entry";
import { PostalEntry } from "./postal-entry";

/** "Two ways to enter": paid online entry and free postal entry, side by side with equal weight. */
export function WaysToEnter({
  competition: c,
  account,
  block,
}: {
  competition: CompetitionPage;
  account: Account | null;
  block: EntryBlock | null;
}) {
  // A competition that has not opened yet will take letters; one that is closed, sold out or cancelled will not.
  const postalOpen = block === null || block.code === "competition_not_yet_open";
  return (
    <section aria-labelledby="enter-title" className="mt-14">
      <h2 id="enter-title" className="text-2xl font-bold tracking-tight">
        Two ways to enter
      </h2>
      <p className="mt-1 text-muted-foreground">Paid or free, every ticket has the same chance of winning.</p>
      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <article
          aria-labelledby="enter-online-title"
          className="flex flex-col gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm"
        >
          <h3 id="enter-online-title" className="flex items-center gap-2 text-xl font-bold">
            <Ticket aria-hidden className="size-5 text-primary-text" />
            Enter online
          </h3>
          <OnlineEntry competition={c} account={account} block={block} />
        </article>
        <article
          aria-labelledby="enter-post-title"
          className="flex flex-col gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm"
        >
          <h3 id="enter-post-title" className="flex items-center gap-2 text-xl font-bold">
            <Award aria-hidden className="size-5 text-primary-text" />
            Enter free by post
          </h3>
          {postalOpen ? (
            <PostalEntry title={c.title} question={c.skill_question} closesAt={c.closes_at} />
          ) : (
            <p className="rounded-lg border border-border bg-muted p-4 font-medium">
              Postal entries for this competition are closed too.
            </p>
          )}
        </article>
      </div>
    </section>
  );
}
