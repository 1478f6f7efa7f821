"use client";

import { Check, Dices } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/alert";
import { ChoiceButton } from "@/components/ui/choice-button";
import { holdNumbersAction } from "@/lib/actions/competitions";
import type { TicketNumberPage } from "@/lib/data/competitions";
import { formatTicketNumbers, plural } from "@/lib/competitions/ticket-numbers";
import { formatLondonTime } from "@/lib/format";
import { cn } from "@/lib/utils";

/** Numbers per page of the grid: ten rows of ten. */
const PAGE_SIZE = 100;
/** The lucky dip sizes offered as one tap; any other is typed. */
const DIP_SIZES = [1, 5, 10, 25];

export type NumberPickerProps = {
  competitionId: string;
  slug: string;
  totalTickets: number;
  /** How many numbers the player may still have in a basket: the cap left and the tickets left (from SQL). */
  room: number;
  /** Changes after a purchase, so the grid reloads (the basket's numbers are sold now). */
  refreshKey: number;
  /** The basket as the grid shows it, after every change (at once on a tap, then as SQL holds it). */
  onBasket: (numbers: number[]) => void;
};

type Sent = { numbers: number[]; luckyDip: number };

const sameNumbers = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((n, i) => n === b[i]);
const sorted = (numbers: readonly number[]) => [...numbers].sort((a, b) => a - b);

/**
 * The grid of a pick competition's numbers, a page at a time, with a search box and a lucky dip of any size. A
 * tap changes the basket on screen at once; SQL (hold_ticket_numbers) then holds the basket for a few minutes and
 * answers with the page as it stands, which confirms the tap, or undoes it with a calm word when the number went
 * to someone else. Taps made while a hold is on its way are sent together as the next basket, so the server sees
 * one change per round trip. The taken numbers come from a no-store route, never the cached page. Loaded only on
 * pick competitions.
 */
export function NumberPicker({ competitionId, slug, totalTickets, room, refreshKey, onBasket }: NumberPickerProps) {
  const ids = useId();
  const pages = Math.ceil(totalTickets / PAGE_SIZE);
  const [pageIndex, setPageIndex] = useState(0);
  // The last page the server sent, with the numbers it covers: a page turned since shows nothing taken until its own
  // answer comes (another page's sold numbers would mark the wrong buttons).
  const [shown, setShown] = useState<{ from: number; to: number; page: TicketNumberPage } | null>(null);
  // The basket as shown: changed at once by a tap, then set to what SQL holds.
  const [basket, setBasketState] = useState<number[]>([]);
  const [syncing, setSyncing] = useState(false);
  const [dipping, setDipping] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [landed, setLanded] = useState<number[]>([]);
  const [dipSize, setDipSize] = useState("1");
  const [search, setSearch] = useState("");
  const focusNumber = useRef<number | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  // What SQL last said the basket is, the next change waiting to be sent, and whether one is on its way.
  const confirmed = useRef<number[]>([]);
  const waiting = useRef<Sent | null>(null);
  const sending = useRef(false);
  // How many holds have been sent: a page asked for before the latest one was answered holds an older basket.
  const holdsSent = useRef(0);
  const from = pageIndex * PAGE_SIZE + 1;
  const to = Math.min(from + PAGE_SIZE - 1, totalTickets);
  const grid = shown && shown.from === from && shown.to === to ? shown.page : null;
  // The basket and its expiry are the whole basket's, whichever page the answer was for.
  const latest = shown?.page ?? null;
  // The page shown, for a hold's answer to carry (read after the round trip, when the page may have turned).
  const edges = useRef({ from, to });
  useEffect(() => {
    edges.current = { from, to };
  }, [from, to]);

  const setBasket = useCallback(
    (numbers: number[]) => {
      setBasketState(numbers);
      onBasket(numbers);
    },
    [onBasket],
  );

  // The page as it stands: on each page turn, after a purchase, and after a refused change to the basket.
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    let current = true;
    const holdsBefore = holdsSent.current;
    const holdOnItsWay = sending.current;
    fetch(`/api/competitions/${slug}/numbers?from=${from}&to=${to}`, { cache: "no-store" })
      .then(async (res) => {
        if (!res.ok) throw new Error(`numbers: ${res.status}`);
        const next = (await res.json()) as TicketNumberPage;
        if (!current) return;
        setShown({ from, to, page: next });
        // A hold on its way when this page was asked for, or sent since, answers with the basket too, and may have
        // been read after this page was: that newer basket stays. Otherwise, with no change on its way, the server's
        // basket is the one shown.
        const older = holdOnItsWay || holdsSent.current !== holdsBefore;
        if (!sending.current && !older) {
          confirmed.current = next.mine;
          setBasket(next.mine);
        }
      })
      .catch(() => {
        if (current) setLoadError("The numbers could not be loaded. Reload the page to try again.");
      });
    return () => {
      current = false;
    };
  }, [slug, from, to, setBasket, refreshKey, reloads]);

  // After a search or a jump to a lucky dip's number, that number takes the focus once its page is shown.
  useEffect(() => {
    if (focusNumber.current === null || !grid) return;
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-number="${focusNumber.current}"]`)?.focus();
    focusNumber.current = null;
  }, [grid]);

  function showNumber(n: number) {
    focusNumber.current = n;
    const target = Math.floor((n - 1) / PAGE_SIZE);
    // The page on screen now (edges), not when this was called: a hold's answer can come after a page turn.
    if (target === Math.floor((edges.current.from - 1) / PAGE_SIZE)) {
      gridRef.current?.querySelector<HTMLButtonElement>(`[data-number="${n}"]`)?.focus();
      focusNumber.current = null;
    } else setPageIndex(target);
  }

  /** Sends the waiting change, then any made meanwhile, one round trip at a time. */
  async function send() {
    if (sending.current) return;
    sending.current = true;
    setSyncing(true);
    try {
      await sendWaiting();
    } catch {
      // No answer came (the connection, the server): the hold may or may not have landed, so the grid reloads and
      // shows the basket SQL holds, and the player is told.
      waiting.current = null;
      setDipping(false);
      setBasket(confirmed.current);
      setNotice("We could not confirm your numbers: the grid now shows what is held for you.");
      setReloads((n) => n + 1);
    } finally {
      sending.current = false;
      setSyncing(false);
    }
  }

  async function sendWaiting() {
    while (waiting.current) {
      const sent = waiting.current;
      waiting.current = null;
      const form = new FormData();
      form.set("competitionId", competitionId);
      for (const n of sent.numbers) form.append("numbers", String(n));
      form.set("luckyDip", String(sent.luckyDip));
      const range = { ...edges.current };
      form.set("from", String(range.from));
      form.set("to", String(range.to));
      holdsSent.current += 1;
      const result = await holdNumbersAction(null, form);
      if (sent.luckyDip > 0) setDipping(false);
      if (result.ok) {
        confirmed.current = result.data.mine;
        // The page it answers with is the one the hold was sent from: shown only if it is still the one on screen
        // (a page turned meanwhile has its own answer coming, or already here).
        if (range.from === edges.current.from && range.to === edges.current.to)
          setShown({ ...range, page: result.data });
        const dipped = sent.luckyDip > 0 ? result.data.mine.filter((n) => !sent.numbers.includes(n)) : [];
        // (Read again: taps during the round trip set it; TypeScript cannot see that across the await.)
        const later = waiting.current as Sent | null;
        if (later) {
          // A tap made meanwhile is on screen and waiting: it keeps the numbers the dip just added.
          const next = sorted([...new Set([...later.numbers, ...dipped])]);
          waiting.current = { ...later, numbers: next };
          setBasket(next);
        } else setBasket(result.data.mine);
        if (dipped.length > 0) {
          setLanded(dipped);
          if (!dipped.some((n) => n >= edges.current.from && n <= edges.current.to)) showNumber(dipped[0]);
        }
      } else {
        // Undone: the basket goes back to what SQL holds (later taps were built on the refused one), and the grid
        // reloads to show who has the number now.
        waiting.current = null;
        setDipping(false);
        setBasket(confirmed.current);
        setNotice(sent.luckyDip > 0 ? result.error : `${result.error}, so your numbers are back as they were.`);
        setReloads((n) => n + 1);
      }
    }
  }

  function change(numbers: number[], luckyDip = 0) {
    setNotice(null);
    if (luckyDip === 0) setBasket(numbers);
    else setDipping(true);
    // A lucky dip not yet sent still goes with a tap made after it.
    waiting.current = { numbers, luckyDip: luckyDip || (waiting.current?.luckyDip ?? 0) };
    void send();
  }

  const toggle = (n: number) => change(basket.includes(n) ? basket.filter((m) => m !== n) : sorted([...basket, n]));

  const dipRoom = Math.max(room - basket.length, 0);
  const dipCount = /^\d+$/.test(dipSize.trim()) ? Number(dipSize.trim()) : NaN;
  const dipProblem =
    dipRoom < 1
      ? `Your basket is full: you can have ${plural(room, "number")} in it`
      : !Number.isInteger(dipCount) || dipCount < 1
        ? "Choose how many numbers to dip for"
        : dipCount > dipRoom
          ? `You can dip for up to ${plural(dipRoom, "more number")}`
          : null;

  function find(e: React.FormEvent) {
    e.preventDefault();
    const n = Number(search);
    if (!Number.isInteger(n) || n < 1 || n > totalTickets) {
      setNotice(`Numbers run from 1 to ${totalTickets.toLocaleString("en-GB")}`);
      return;
    }
    setNotice(null);
    showNumber(n);
  }

  const sold = new Set(grid?.sold ?? []);
  const held = new Set(grid?.held ?? []);
  const owned = new Set(grid?.owned ?? []);
  const inBasket = new Set(basket);
  const stillLanded = landed.filter((n) => inBasket.has(n));

  return (
    <section aria-labelledby={`${ids}-title`} className="flex flex-col gap-3">
      <h3 id={`${ids}-title`} className="font-medium">
        Pick your numbers
      </h3>

      <fieldset className="flex flex-col gap-2 rounded-lg border border-border p-3">
        <legend className="px-1 text-sm font-medium">Lucky dip: we pick free numbers for you</legend>
        <div className="flex flex-wrap items-end gap-2">
          <div role="group" aria-label="How many numbers" className="flex flex-wrap gap-2">
            {DIP_SIZES.filter((n) => n <= Math.max(dipRoom, 1)).map((n) => (
              <ChoiceButton key={n} pressed={dipCount === n} onClick={() => setDipSize(String(n))}>
                {n}
              </ChoiceButton>
            ))}
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${ids}-dip`} className="text-sm">
              Or type how many
            </label>
            <input
              id={`${ids}-dip`}
              type="number"
              inputMode="numeric"
              min={1}
              max={Math.max(dipRoom, 1)}
              value={dipSize}
              onChange={(e) => setDipSize(e.target.value)}
              aria-invalid={dipProblem && dipRoom > 0 ? true : undefined}
              aria-describedby={dipProblem ? `${ids}-dip-problem` : undefined}
              className="h-10 w-24 rounded-md border border-border bg-background px-3 tabular-nums outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive"
            />
          </div>
          <Button
            type="button"
            variant="outline"
            onClick={() => change(basket, dipCount)}
            disabled={dipping || dipProblem !== null || !grid}
          >
            <Dices aria-hidden />
            {dipping ? "Dipping…" : Number.isInteger(dipCount) && dipCount > 1 ? `Lucky dip ${dipCount}` : "Lucky dip"}
          </Button>
        </div>
        {dipProblem ? (
          <p id={`${ids}-dip-problem`} className="text-sm text-muted-foreground">
            {dipProblem}
          </p>
        ) : null}
        {stillLanded.length > 0 ? (
          <div className="flex flex-col gap-1">
            <p id={`${ids}-landed`} className="text-sm">
              Your lucky dip landed on {plural(stillLanded.length, "number")}. Tap one to see it in the grid:
            </p>
            <ul aria-labelledby={`${ids}-landed`} className="flex flex-wrap gap-1.5">
              {stillLanded.map((n) => (
                <li key={n}>
                  <button
                    type="button"
                    onClick={() => showNumber(n)}
                    aria-label={`Show #${n} in the grid`}
                    className="h-8 rounded-full border border-primary bg-primary-soft px-3 text-sm font-semibold tabular-nums hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    #{n}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </fieldset>

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
        aria-busy={!grid || syncing}
        className="grid grid-cols-5 gap-1 sm:grid-cols-10"
      >
        {Array.from({ length: to - from + 1 }, (_, i) => from + i).map((n) => {
          const isOwned = owned.has(n);
          const isMine = inBasket.has(n) && !sold.has(n);
          const taken = !isMine && (sold.has(n) || held.has(n));
          return (
            <button
              key={n}
              type="button"
              data-number={n}
              aria-pressed={isOwned || taken ? undefined : isMine}
              aria-label={
                isOwned
                  ? `${n}, your ticket`
                  : sold.has(n)
                    ? `${n}, taken`
                    : held.has(n) && !isMine
                      ? `${n}, in another basket`
                      : String(n)
              }
              disabled={!grid || isOwned || taken}
              onClick={() => toggle(n)}
              className={cn(
                "flex h-10 items-center justify-center gap-0.5 rounded-md border text-sm font-semibold tabular-nums transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
                isOwned
                  ? "border-2 border-primary bg-primary-soft text-primary-text"
                  : isMine
                    ? "border-primary bg-primary text-primary-foreground"
                    : sold.has(n)
                      ? "border-transparent bg-muted text-muted-foreground line-through"
                      : held.has(n)
                        ? "border-dashed border-border bg-muted text-muted-foreground"
                        : "border-border bg-background hover:bg-accent",
              )}
            >
              {isOwned ? <Check aria-hidden className="size-3.5 shrink-0" /> : null}
              {n}
            </button>
          );
        })}
      </div>
      <p className="text-sm text-muted-foreground">
        Ticked and outlined: your tickets. Filled: in your basket. Crossed out: sold. Dashed: in another player&apos;s
        basket for a few minutes.
      </p>

      {/* Empty while the basket is: the entry form's notice says what to do, once. */}
      <p aria-live="polite" className="text-sm">
        {basket.length > 0 ? (
          <>
            Your numbers: <span className="font-semibold">{formatTicketNumbers(basket)}</span>
            {latest?.mine_expires_at && sameNumbers(basket, sorted(latest.mine)) ? (
              <>, held for you until {formatLondonTime(latest.mine_expires_at)}.</>
            ) : (
              "."
            )}
          </>
        ) : null}
      </p>
      <div aria-live="polite">
        {notice ? (
          <Alert variant="info" announce={false}>
            {notice}
          </Alert>
        ) : null}
      </div>
      {loadError ? <Alert variant="destructive">{loadError}</Alert> : null}
    </section>
  );
}
