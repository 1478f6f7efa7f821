import type { CompetitionPersonal } from "@/components/competitions/competition-personal";
import { getAccount } from "@/lib/auth/session";
import { getCompetition, getEntryQuote, getMyEntries } from "@/lib/data/competitions";
import { DbError } from "@/lib/data/errors";
import { z } from "zod";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";

// The signed-in visitor's part of a competition page (the page itself is static, the same for
// everyone): their entry card's state and quote, their tickets, and the entry a payment bought.
// null when signed out. Personal: never cached.
export const dynamic = "force-dynamic";

const noStore = { "Cache-Control": "private, no-store" };

async function get({ params, query }: RouteInput<{ slug: string }, { entry?: string }>) {
  const account = await getAccount();
  const competition = account ? await getCompetition(params.slug) : null;
  if (!account || !competition) return Response.json(null, { headers: noStore });
  const entryId = query.entry;
  const [quote, paidEntry] = await Promise.all([
    account.approved ? getEntryQuote(competition.id) : null,
    entryId ? findPaidEntry(entryId) : null,
  ]);
  const personal: CompetitionPersonal = {
    viewer: quote ? { approved: true, quote } : { approved: false, rejected: Boolean(account.rejected_at) },
    myTickets: competition.my_tickets ?? [],
    paidEntryTickets: paidEntry?.ticket_numbers ?? null,
  };
  return Response.json(personal, { headers: noStore });
}

/** The entry a payment bought; none while the session owes its second step (SQL keeps the entries until then). */
async function findPaidEntry(entryId: string) {
  try {
    return (await getMyEntries()).find((e) => e.entry_id === entryId && e.kind === "paid");
  } catch (e) {
    if (e instanceof DbError && e.code === "aal2_required") return undefined;
    throw e;
  }
}

export const GET = defineRoute(
  { kind: "json", params: z.object({ slug: z.string() }), query: z.object({ entry: z.string().optional() }) },
  get,
);
