"use client";

import { Dices } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/alert";
import { holdNumbersAction } from "@/lib/actions/competitions";
import type { TicketNumberPage } from "@/lib/data/competitions";
import { formatTicketNumbers } from "@/lib/competitions/ticket-numbers";
import { formatLondonTime } from "@/lib/format";
import { cn } from "@/lib/utils";

/** Numbers per page of the grid: ten rows of ten. */
const PAGE_SIZE = 100;

export type NumberPickerProps = {
  competitionId: string;
  slug: string;
  totalTickets: number;
  /** Changes after a purchase, so the grid reloads (the basket's numbers are sold now). */
  refreshKey: number;
  /** The basket as SQL holds it, after every change. */
  onBasket: (numbers: number[]) => void;
};

/**
 * The grid of a pick competition's numbers, a page at a time, with a search box and a lucky dip. Every
 * change to the basket goes to SQL (hold_ticket_numbers), which holds the numbers for a few minutes and
 * answers with the page as it now stands; the taken numbers come from a no-store route, never the
 * cached page. Loaded only on pick competitions.
 */
export function NumberPicker({ competitionId, slug, totalTickets, refreshKey, onBasket }: NumberPickerProps) {
  const ids = useId();
  const pages = Math.ceil(totalTickets / PAGE_SIZE);
  const [pageIndex, setPageIndex] = useState(0);
  const [grid, setGrid] = useState<TicketNumberPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [search, setSearch] = useState("");
  const focusNumber = useRef<number | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const from = pageIndex * PAGE_SIZE + 1;
  const to = Math.min(from + PAGE_SIZE - 1, totalTickets);

  const show = useCallback(
    (next: TicketNumberPage) => {
      setGrid(next);
      onBasket(next.mine);
    },
    [onBasket],
  );

  // The page as it stands: on each page turn, after a purchase, and after a refused change to the basket.
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    let current = true;
    fetch(`/api/competitions/${slug}/numbers?from=${from}&to=${to}`, { cache: "no-store" })
      .then(async (res) => {
        if (!res.ok) throw new Error(`numbers: ${res.status}`);
        const next = (await res.json()) as TicketNumberPage;
        if (current) show(next);
      })
      .catch(() => {
        if (current) setError("The numbers could not be loaded. Reload the page to try again.");
      });
    return () => {
      current = false;
    };
  }, [slug, from, to, show, refreshKey, reloads]);

  // After a search, the number found takes the focus once its page is shown.
  useEffect(() => {
    if (focusNumber.current === null || !grid) return;
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-number="${focusNumber.current}"]`)?.focus();
    focusNumber.current = null;
  }, [grid]);

  async function hold(numbers: number[], luckyDip: number) {
    setPending(true);
    setError(null);
    const form = new FormData();
    form.set("competitionId", competitionId);
    for (const n of numbers) form.append("numbers", String(n));
    form.set("luckyDip", String(luckyDip));
    form.set("from", String(from));
    form.set("to", String(to));
    const result = await holdNumbersAction(null, form);
    setPending(false);
    if (result.ok) show(result.data);
    else {
      setError(result.error);
      setReloads((n) => n + 1);
    }
  }

  const mine = grid?.mine ?? [];
  const toggle = (n: number) => hold(mine.includes(n) ? mine.filter((m) => m !== n) : [...mine, n], 0);

  function find(e: React.FormEvent) {
    e.preventDefault();
    const n = Number(search);
    if (!Number.isInteger(n) || n < 1 || n > totalTickets) {
      setError(`Numbers run from 1 to ${totalTickets.toLocaleString("en-GB")}`);
      return;
    }
    setError(null);
    focusNumber.current = n;
    const target = Math.floor((n - 1) / PAGE_SIZE);
    if (target === pageIndex) {
      gridRef.current?.querySelector<HTMLButtonElement>(`[data-number="${n}"]`)?.focus();
      focusNumber.current = null;
    } else setPageIndex(target);
  }

  const sold = new Set(grid?.sold ?? []);
  const held = new Set(grid?.held ?? []);

  return (
    <section aria-labelledby={`${ids}-title`} className="flex flex-col gap-3">
      <h3 id={`${ids}-title`} className="font-medium">
        Pick your numbers
      </h3>

      <div className="flex flex-wrap items-end gap-2">
        <Button type="button" variant="outline" onClick={() => hold(mine, 1)} disabled={pending}>
          <Dices aria-hidden /> Lucky dip
        </Button>
        <form onSubmit={find} className="flex items-end gap-2" role="search" aria-label="Search the numbers">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${ids}-find`} className="text-sm">
              Find a number
            </label>
            <input
              id={`${ids}-find`}
              type="number"
              inputMode="numeric"
              min={1}
              max={totalTickets}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className="h-10 w-28 rounded-md border border-border bg-background px-3 tabular-nums outline-none focus-visible:ring-2 focus-visible:ring-ring"
            />
          </div>
          <Button type="submit" variant="outline">
            Go
          </Button>
        </form>
      </div>

      {pages > 1 ? (
        <nav aria-label="Pages of numbers" className="flex items-center justify-between gap-2 text-sm">
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => setPageIndex(pageIndex - 1)}
            disabled={pageIndex === 0}
          >
            Previous
          </Button>
          <span aria-live="polite">
            {from.toLocaleString("en-GB")}–{to.toLocaleString("en-GB")} of {totalTickets.toLocaleString("en-GB")}
          </span>
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => setPageIndex(pageIndex + 1)}
            disabled={pageIndex === pages - 1}
          >
            Next
          </Button>
        </nav>
      ) : null}

      <div
        ref={gridRef}
        role="group"
        aria-label={`Numbers ${from} to ${to}`}
        aria-busy={!grid || pending}
        className="grid grid-cols-5 gap-1 sm:grid-cols-10"
      >
        {Array.from({ length: to - from + 1 }, (_, i) => from + i).map((n) => {
          const isMine = mine.includes(n);
          const taken = sold.has(n) || held.has(n);
          return (
            <button
              key={n}
              type="button"
              data-number={n}
              aria-pressed={isMine}
              aria-label={sold.has(n) ? `${n}, taken` : held.has(n) ? `${n}, in another basket` : String(n)}
              disabled={!grid || taken || pending}
              onClick={() => toggle(n)}
              className={cn(
                "h-10 rounded-md border text-sm font-semibold tabular-nums transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
                isMine
                  ? "border-primary bg-primary text-primary-foreground"
                  : sold.has(n)
                    ? "border-transparent bg-muted text-muted-foreground line-through"
                    : held.has(n)
                      ? "border-dashed border-border bg-muted text-muted-foreground"
                      : "border-border bg-background hover:bg-accent",
              )}
            >
              {n}
            </button>
          );
        })}
      </div>
      <p className="text-sm text-muted-foreground">
        Crossed out: sold. Dashed: in another player&apos;s basket for a few minutes.
      </p>

      <p aria-live="polite" className="text-sm">
        {mine.length > 0 && grid?.mine_expires_at ? (
          <>
            Your numbers: <span className="font-semibold">{formatTicketNumbers(mine)}</span>, held for you until{" "}
            {formatLondonTime(grid.mine_expires_at)}.
          </>
        ) : (
          "Choose numbers from the grid, or take a lucky dip."
        )}
      </p>
      {error ? <Alert variant="destructive">{error}</Alert> : null}
    </section>
  );
}
