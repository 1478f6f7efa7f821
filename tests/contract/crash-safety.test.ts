// Crash safety: the embedded backend is killed with SIGKILL while players buy
// tickets and top-ups are confirmed, all at once. After a restart, every request that was answered is
// in the database, every balance equals its ledger, and every competition's sold count equals its
// tickets, numbered 1..n without gaps: a purchase or a top-up is all there or not there at all.
// A purchase commits asynchronously and is answered, as the app answers it, only after
// make_entries_durable: purchases the kill catches between the two calls may be lost, but only as the
// last ones sold (the numbering check), never one that was answered.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, describe, expect, it } from "vitest";
import { EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { LEDGER_MISMATCH_SQL } from "../db/support";
import { adminAtAal2, embeddedExited, embeddedReady, killLeftovers, launchEmbedded } from "./embedded-process";
import { birthDateYearsAgo, client, DEMO_PASSWORD, STRONG_PASSWORD, uniqueEmail } from "./helpers";

const PLAYERS = 12;
/** The longest the load runs before the kill; it comes sooner, once 50 entries and 10 top-ups are answered. */
const MAX_LOAD_MS = 20_000;

let dataDir = "";
afterAll(async () => {
  killLeftovers();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function rpc<T>(c: SupabaseClient, fn: string, args: Record<string, unknown> = {}): Promise<T> {
  const { data, error, status } = await c.rpc(fn, args);
  if (error) throw new Refused(status, `${fn}: ${status} ${error.message}`);
  return data as T;
}

type Answered = { kind: "entry"; entryId: string; tickets: number[] } | { kind: "top_up"; topUpId: string };

describe("a crash during purchases and top-ups", () => {
  it("loses nothing that was answered and leaves nothing half-written", { timeout: 240_000 }, async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "labcash-crash-"));
    const first = launchEmbedded(dataDir);
    const url = await embeddedReady(first);
    const service = client({ url }, EMBEDDED_SECRET_KEY);
    const admin = await adminAtAal2(url, DEMO_PASSWORD);

    const competition = await rpc<{ id: string }>(admin, "admin_create_competition", {
      p: {
        title: "Crash test",
        slug: `crash-test-${Date.now().toString(36)}`,
        summary: "Bought from while the backend is killed.",
        description: "Made for a test. Nothing to win.",
        prize_description: "A test prize",
        prize_value: 100,
        images: ["/competitions/steam-deck-oled.svg"],
        ticket_price: 0.25,
        total_tickets: 100_000,
        max_tickets_per_user: 10_000,
        closes_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      },
    });
    await rpc(admin, "admin_publish_competition", { p_id: competition.id, p_external_randomness: null });

    const players = await Promise.all(
      Array.from({ length: PLAYERS }, async (_, i) => {
        const email = uniqueEmail(`crash-${i}`);
        const { data, error } = await service.auth.admin.createUser({
          email,
          password: STRONG_PASSWORD,
          email_confirm: true,
          user_metadata: { name: `Crash Player ${i}`, date_of_birth: birthDateYearsAgo(30) },
        });
        if (error) throw error;
        await rpc(admin, "admin_approve_user", { p_user_id: data.user.id });
        await rpc(service, "add_credits", { user_id: data.user.id, amount: 50 });
        const player = client({ url });
        const signedIn = await player.auth.signInWithPassword({ email, password: STRONG_PASSWORD });
        if (signedIn.error) throw signedIn.error;
        return player;
      }),
    );

    // Each player buys and tops up in a loop until the process dies; only answered requests count.
    const answered: Answered[] = [];
    let alive = true;
    const buyer = async (player: SupabaseClient, i: number) => {
      for (let n = 0; alive; n++) {
        try {
          if ((n + i) % 4 === 3) {
            const topUp = await rpc<{ id: string }>(player, "create_top_up", { p_amount: 10, p_provider: "test" });
            const confirmed = await rpc<{ status: string }>(service, "confirm_top_up", {
              p_top_up_id: topUp.id,
              p_payment_id: `test_pay_${topUp.id}`,
              p_funding: "debit",
              p_amount_paid: 10,
            });
            if (confirmed.status === "credited") answered.push({ kind: "top_up", topUpId: topUp.id });
          } else {
            const entry = await rpc<{ entry_id: string; ticket_numbers: number[] }>(player, "enter_competition", {
              p_competition_id: competition.id,
              p_quantity: 1 + ((n + i) % 3),
            });
            await rpc(player, "make_entries_durable");
            answered.push({ kind: "entry", entryId: entry.entry_id, tickets: entry.ticket_numbers });
          }
        } catch (e) {
          // A refusal (a limit reached, credit spent) is an answer too, and wrote nothing; requests in
          // flight when the process dies were never answered, so nothing is owed for them.
          if (alive && !(e instanceof Refused && e.status >= 400 && e.status < 500)) throw e;
        }
      }
    };
    const load = players.map((player, i) => buyer(player, i));
    // The kill comes mid-flight once enough has been answered (however fast the machine is), or after a while.
    const enough = () =>
      answered.filter((a) => a.kind === "entry").length > 50 && answered.filter((a) => a.kind === "top_up").length > 10;
    for (const started = Date.now(); !enough() && Date.now() - started < MAX_LOAD_MS;)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const killed = embeddedExited(first);
    first.kill("SIGKILL");
    alive = false;
    await killed;
    await Promise.all(load);
    expect(answered.filter((a) => a.kind === "entry").length).toBeGreaterThan(50);
    expect(answered.filter((a) => a.kind === "top_up").length).toBeGreaterThan(10);

    // It starts again on the same directory and serves the players as before.
    const second = launchEmbedded(dataDir);
    const url2 = await embeddedReady(second);
    const again = client({ url: url2 });
    const signedIn = await again.auth.signInWithPassword({ email: "player@labcash.test", password: DEMO_PASSWORD });
    expect(signedIn.error).toBeNull();
    const stopped = embeddedExited(second);
    second.kill("SIGTERM");
    expect((await stopped).code).toBe(0);

    const db = await PGlite.create({ dataDir, extensions: { pgcrypto } });
    try {
      expect((await db.query(LEDGER_MISMATCH_SQL)).rows).toEqual([]);
      const { rows: counts } = await db.query<{ tickets_sold: number; tickets: number; max: number | null }>(
        `select c.tickets_sold, count(t.*)::int as tickets, max(t.number) as max
           from public.competitions c left join public.tickets t on t.competition_id = c.id
          where c.id = $1 group by c.id`,
        [competition.id],
      );
      expect(counts[0].tickets_sold).toBe(counts[0].tickets);
      expect(counts[0].max).toBe(counts[0].tickets);

      const entries = answered.filter((a) => a.kind === "entry");
      const { rows: tickets } = await db.query<{ entry_id: string; numbers: number[] }>(
        `select entry_id, array_agg(number order by number) as numbers
           from public.tickets where entry_id = any($1::uuid[]) group by entry_id`,
        [entries.map((e) => e.entryId)],
      );
      const stored = new Map(tickets.map((t) => [t.entry_id, t.numbers]));
      for (const entry of entries) expect(stored.get(entry.entryId)).toEqual(entry.tickets);

      const topUps = answered.filter((a) => a.kind === "top_up").map((a) => a.topUpId);
      const { rows: credited } = await db.query<{ id: string }>(
        `select t.id from public.top_ups t
           join public.credit_ledger l on l.user_id = t.user_id and l.kind = 'top_up' and l.reference = 'top_up:' || t.id
          where t.id = any($1::uuid[]) and t.status = 'credited'`,
        [topUps],
      );
      expect(new Set(credited.map((r) => r.id))).toEqual(new Set(topUps));
    } finally {
      await db.close();
    }
  });
});
