import { Gift } from "lucide-react";
import { InstantWinVerifier } from "@/components/competitions/instant-win-verifier";
import { plural } from "@/lib/competitions/ticket-numbers";
import type { InstantWins } from "@/lib/data/instant-wins";

/**
 * A competition's instant wins: the prizes and how many are left, the wins so far (ticket, prize, the
 * winner as the winners page names them) and the commitment published before any sale. After the draw
 * the seed and numbers are public, and the browser checks the commitment and every award.
 */
export function InstantWinsSection({ competitionId, data }: { competitionId: string; data: InstantWins }) {
  return (
    <section
      aria-labelledby="instant-wins-title"
      className="mt-10 rounded-2xl border border-border bg-card p-6 shadow-sm"
    >
      <h2 id="instant-wins-title" className="flex items-center gap-2 text-2xl font-bold tracking-tight">
        <Gift aria-hidden className="size-6 text-primary-text" />
        Instant wins
      </h2>
      <p className="mt-2 text-muted-foreground">
        Buy (or send a letter for) a winning ticket number and its prize is yours at once, whatever the main draw
        brings. The winning numbers were fixed from this competition&apos;s secret draw seed when it was published, so
        nobody chose them, and they are revealed with the seed at the draw.
      </p>
      <ul className="mt-4 grid gap-2 sm:grid-cols-2">
        {data.prizes.map((p) => (
          <li key={p.position} className="rounded-lg border border-border p-3">
            <span className="font-semibold">{p.title}</span>
            <span className="block text-sm text-muted-foreground">
              {plural(p.quantity, "winning number")}, {p.won} won
            </span>
          </li>
        ))}
      </ul>
      <h3 className="mt-6 text-lg font-semibold">Won so far</h3>
      {data.wins.length === 0 ? (
        <p className="mt-1 text-muted-foreground">No instant wins yet.</p>
      ) : (
        <table className="mt-2 w-full text-left text-sm">
          <caption className="sr-only">Instant wins so far</caption>
          <thead>
            <tr className="border-b border-border">
              <th scope="col" className="py-2 pr-4">
                Ticket
              </th>
              <th scope="col" className="py-2 pr-4">
                Prize
              </th>
              <th scope="col" className="py-2">
                Winner
              </th>
            </tr>
          </thead>
          <tbody>
            {data.wins.map((w) => (
              <tr key={w.ticket_id} className="border-b border-border last:border-0">
                <td className="py-2 pr-4 font-semibold">#{w.ticket_number}</td>
                <td className="py-2 pr-4">{w.prize}</td>
                <td className="py-2">{w.display_name}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data.commitment ? (
        <p className="mt-4 text-sm break-all text-muted-foreground">
          Instant-win commitment (SHA-256, published before any sale): <code>{data.commitment}</code>
        </p>
      ) : null}
      {data.seed_hex ? <InstantWinVerifier competitionId={competitionId} data={data} /> : null}
    </section>
  );
}
