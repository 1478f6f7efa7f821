"use client";

import { useEffect, useMemo, useState } from "react";
import { Dices, Lock, RotateCcw, ShieldCheck, Ticket, Trophy, Unlock } from "lucide-react";
import { Button } from "@/components/ui/button";
import { bytesToHex } from "@/lib/crypto/bytes";
import { commitmentOf, deriveWinner, ticketListHash, DRAW_ALGORITHM, type PublishedDraw } from "@/lib/draws/verify";
import { cn } from "@/lib/utils";
import { celebrate } from "@/lib/ui/celebrate";
import { DrawVerifier } from "./draw-verifier";
import { formatTicketNumbers, plural } from "@/lib/competitions/ticket-numbers";
import { TicketProgress } from "./ticket-progress";

// Sample inputs: nothing here touches the database or anyone's credit.
const SAMPLE_COMPETITION_ID = "7264c8e3-9689-43b9-a69d-19cd5c2c015d";
const SAMPLE_SEED = "a3ab753b56e3d311af2d3baaf1d17acf0ebfaab7d4fd6ff8336e39fb26cb800b";
const OTHER_PLAYERS_TICKETS = [
  "502959ce-ff93-44a1-b385-8d5f6ef64380",
  "0f4c2099-125d-4204-9508-6fdec96838ac",
  "bb137bff-4e87-4f15-9c3e-e71ee1f63740",
  "6b52b3a6-7ad0-4963-97c5-91e5836557d5",
  "bde7fddf-e98d-4636-9b8e-1ed4d9d8c748",
  "42e8639c-bebd-4629-92a1-61abc0793253",
  "3b67d837-6da0-42de-932d-c701ea9be18d",
  "1b1385f1-d175-4292-87c7-59d46cf58e9e",
];
const TOTAL = 30;
const CAP = 10;

type Drawn = { draw: PublishedDraw };

function randomSeed() {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** The whole life of a competition on sample data, with the draw recomputed in this browser. */
export function DemoFlow() {
  const [seed, setSeed] = useState(SAMPLE_SEED);
  const [commitment, setCommitment] = useState<string | null>(null);
  const [tickets, setTickets] = useState<string[]>(OTHER_PLAYERS_TICKETS);
  const [mine, setMine] = useState<number[]>([]);
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  const [tampered, setTampered] = useState(false);
  const [quantity, setQuantity] = useState(3);

  useEffect(() => {
    let live = true;
    void commitmentOf(seed).then((c) => live && setCommitment(c));
    return () => {
      live = false;
    };
  }, [seed]);

  const left = TOTAL - tickets.length;
  const capLeft = CAP - mine.length;
  const canBuy = !drawn && Math.min(left, capLeft) >= 1;

  const buy = (who: "me" | "other", n: number) => {
    const count = Math.min(n, left, who === "me" ? capLeft : left);
    if (count < 1) return;
    const fresh = Array.from({ length: count }, () => crypto.randomUUID());
    if (who === "me") setMine((m) => [...m, ...fresh.map((_, i) => tickets.length + i + 1)]);
    setTickets((t) => [...t, ...fresh]);
  };

  const draw = async () => {
    const listHash = await ticketListHash(tickets);
    const { winningNumber, counter } = await deriveWinner({
      seedHex: seed,
      competitionId: SAMPLE_COMPETITION_ID,
      ticketListHashHex: listHash,
      ticketCount: tickets.length,
    });
    setDrawn({
      draw: {
        algorithm: DRAW_ALGORITHM,
        competition: { id: SAMPLE_COMPETITION_ID },
        ticket_count: tickets.length,
        ticket_list_hash: listHash,
        seed_commitment: commitment ?? (await commitmentOf(seed)),
        seed_hex: seed,
        external_hex: null,
        counter,
        winning_number: winningNumber,
        winning_ticket_id: tickets[winningNumber - 1],
        tickets,
      },
    });
    if (mine.includes(winningNumber)) void celebrate();
  };

  const reset = () => {
    setSeed(randomSeed());
    setTickets(OTHER_PLAYERS_TICKETS);
    setMine([]);
    setDrawn(null);
    setTampered(false);
  };

  // What a cheat would have to publish: the same draw with one ticket quietly swapped after the sale.
  const shown = useMemo<PublishedDraw | null>(() => {
    if (!drawn) return null;
    if (!tampered) return drawn.draw;
    const swapped = [...(drawn.draw.tickets ?? [])];
    swapped[0] = "00000000-0000-4000-8000-000000000000";
    return { ...drawn.draw, tickets: swapped };
  }, [drawn, tampered]);

  const won = drawn ? mine.includes(drawn.draw.winning_number) : false;

  return (
    <ol className="flex flex-col gap-6">
      <Step n={1} title="The competition goes live with a sealed seed" icon={<Lock aria-hidden />}>
        <p>
          When an admin publishes a competition, the database makes a secret 32-byte seed and publishes only its SHA-256
          fingerprint, the commitment. Nobody, staff included, can see the seed until the draw, and it cannot be swapped
          later without the fingerprint changing.
        </p>
        <Value label="Published commitment: SHA-256(seed)">{commitment ?? "computing…"}</Value>
        <Value label="Secret seed">{drawn ? seed : "hidden until the draw"}</Value>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => setSeed(randomSeed())}
          disabled={Boolean(drawn)}
          className="self-start"
        >
          <Dices aria-hidden />
          Make a new secret seed
        </Button>
      </Step>

      <Step n={2} title="Players buy tickets" icon={<Ticket aria-hidden />}>
        <p>
          Tickets are numbered 1, 2, 3… in purchase order, inside one database transaction with the payment: no
          overselling, no negative balances, and the per-person cap ({CAP} here) always holds. A free postal entry gets
          the next number just the same. In this demo tickets cost nothing.
        </p>
        <TicketProgress sold={tickets.length} total={TOTAL} />
        <div className="flex flex-wrap items-end gap-3">
          <div role="group" aria-label="Sample quantity" className="flex gap-2">
            {[1, 3, 5].map((n) => (
              <button
                key={n}
                type="button"
                aria-pressed={quantity === n}
                onClick={() => setQuantity(n)}
                className={cn(
                  "h-10 min-w-12 rounded-md border px-3 text-sm font-semibold",
                  quantity === n
                    ? "border-primary bg-primary text-primary-foreground"
                    : "border-border bg-background hover:bg-accent",
                )}
              >
                {n}
              </button>
            ))}
          </div>
          <Button type="button" onClick={() => buy("me", quantity)} disabled={!canBuy}>
            Buy {plural(quantity, "sample ticket")}
          </Button>
          <Button type="button" variant="outline" onClick={() => buy("other", 2)} disabled={drawn !== null || left < 1}>
            Another player buys 2
          </Button>
        </div>
        <p role="status" className="text-sm">
          {mine.length > 0 ? (
            <>
              Your sample tickets: <span className="font-mono font-semibold">{formatTicketNumbers(mine)}</span> (
              {mine.length} in {tickets.length}: odds now {mine.length} in {tickets.length})
            </>
          ) : (
            "You have no sample tickets yet."
          )}
        </p>
      </Step>

      <Step n={3} title="The draw" icon={<Trophy aria-hidden />}>
        <p>
          The draw happens automatically when the last ticket sells or the close time passes. The ticket list is fixed
          and hashed, then the winning number is derived from the seed, the competition id and that hash, with rejection
          sampling so every ticket has exactly the same chance.
        </p>
        {drawn ? (
          <div
            role="status"
            className={cn("rounded-lg border-2 p-4", won ? "border-primary bg-primary-soft" : "border-border bg-muted")}
          >
            <p className="text-lg font-bold">
              Ticket #{drawn.draw.winning_number} wins{won ? ": that is yours!" : "."}
            </p>
            <p className="mt-1 text-sm text-muted-foreground">
              {plural(drawn.draw.ticket_count, "ticket")} in the draw, counter {drawn.draw.counter}.
            </p>
          </div>
        ) : (
          <Button
            type="button"
            onClick={() => void draw()}
            disabled={tickets.length === 0 || commitment === null}
            className="self-start"
          >
            Close and draw now
          </Button>
        )}
      </Step>

      <Step n={4} title="The seed is revealed and anyone can check" icon={<Unlock aria-hidden />}>
        <p>
          After the draw the seed is published with every other input. The check below runs in your browser, exactly as
          on a real winner&apos;s verification page: the seed must hash to the commitment published before sales, the
          ticket list must match its hash, and the derivation must give the same winning ticket.
        </p>
        {shown ? (
          <>
            <DrawVerifier
              key={tampered ? "tampered" : "honest"}
              level={3}
              draw={shown}
              heading={tampered ? "Checking a tampered copy" : "Checked in your browser"}
            />
            <div className="flex flex-wrap gap-3">
              <Button type="button" variant="outline" onClick={() => setTampered((t) => !t)} aria-pressed={tampered}>
                <ShieldCheck aria-hidden />
                {tampered ? "Undo the tampering" : "Tamper: swap ticket #1 after the draw"}
              </Button>
              <Button type="button" variant="ghost" onClick={reset}>
                <RotateCcw aria-hidden />
                Start again with a new seed
              </Button>
            </div>
          </>
        ) : (
          <p className="text-muted-foreground">Draw the sample competition first.</p>
        )}
      </Step>
    </ol>
  );
}

function Step({
  n,
  title,
  icon,
  children,
}: {
  n: number;
  title: string;
  icon: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <li className="rounded-2xl border border-border bg-card p-6 shadow-sm">
      <h2 className="flex items-center gap-3 text-xl font-bold">
        <span className="inline-flex size-9 items-center justify-center rounded-full bg-primary text-primary-foreground [&_svg]:size-4">
          {icon}
        </span>
        <span>
          <span className="sr-only">Step {n}: </span>
          {title}
        </span>
      </h2>
      <div className="mt-4 flex flex-col gap-4">{children}</div>
    </li>
  );
}

function Value({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <p className="text-sm font-medium">{label}</p>
      <p className="mt-1 rounded-lg bg-muted p-3 font-mono text-sm break-all">{children}</p>
    </div>
  );
}
