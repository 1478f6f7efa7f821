// LabSpinner under real concurrency, on a throwaway PostgreSQL 15 cluster (tests/db/pg15.ts) where
// transactions run in parallel, which PGlite cannot do: 50 simultaneous spins of one player spend exactly
// the credits there are (no spin without a credit, one nonce each), and spins racing seed rotations and
// client-seed changes each record the pair and nonce they were derived from.
import { describe, expect, it } from "vitest";
import { approvedAccount, attemptAs, pg15ClusterForFile } from "./pg15";
import { LEDGER_MISMATCH_SQL } from "./support";

const cluster = pg15ClusterForFile(40);
let userCount = 0;

/**
 * One call as a signed-in user, in its own transaction, as the API gateway makes it. The session is
 * fully signed in (aal2, as in tests/db/support.ts), which the admin recording spin requests needs.
 */
const asUser = <T>(sub: string, sql: string, params: unknown[] = []) =>
  attemptAs<T>(cluster.pool, { sub, role: "authenticated", aal: "aal2" }, "authenticated", sql, params);

async function user(role: "user" | "admin" = "user"): Promise<string> {
  userCount += 1;
  return approvedAccount(cluster.pool, `spin-${Date.now()}-${userCount}@t.test`, {
    role,
    meta: { name: "Spin Racer" },
  });
}

/** A player holding `credits` spin credits from postal requests an admin recorded. */
async function playerWithCredits(credits: number): Promise<string> {
  const [admin, player] = [await user("admin"), await user()];
  for (let i = 0; i < credits; i++) {
    const granted = await asUser(admin, "select to_json(public.admin_record_spin_request($1, $2)) as result", [
      player,
      `Postcard ${i + 1}`,
    ]);
    if (!granted.ok) throw new Error(granted.message);
  }
  return player;
}

const spin = (player: string) =>
  asUser<{ id: number; nonce: number }>(player, "select to_json(public.spin_wheel()) as result");

/** The player's spins, seeds and ledger as the database holds them. */
async function stateOf(player: string) {
  const spins = (
    await cluster.pool.query<{ seed_id: string; nonce: number; prize: string; rederived: boolean }>(
      `select sp.seed_id, sp.nonce, sp.prize_credits::text as prize,
              (d.attempt, d.value, d.segment_position) = (sp.attempt, sp.value, sp.segment_position::int) as rederived
         from public.spinner_spins sp
         join public.spinner_seeds s on s.id = sp.seed_id,
         lateral private.spin_derive(s.server_seed, sp.client_seed, sp.nonce,
                   (select array_agg(g.weight order by g.position) from public.spinner_segments g
                     where g.wheel_id = sp.wheel_id)) d
        where sp.user_id = $1 order by sp.seed_id, sp.nonce`,
      [player],
    )
  ).rows;
  const seeds = (
    await cluster.pool.query<{ id: string; next_nonce: number; active: boolean }>(
      "select id, next_nonce, revealed_at is null as active from public.spinner_seeds where user_id = $1 order by id",
      [player],
    )
  ).rows;
  const [money] = (
    await cluster.pool.query<{ prizes: string; prize_rows: number; references: number }>(
      `select coalesce(sum(amount), 0)::text as prizes, count(*)::int as prize_rows,
              count(distinct reference)::int as references
         from public.credit_ledger where user_id = $1 and kind = 'spinner_prize'`,
      [player],
    )
  ).rows;
  return { spins, seeds, money };
}

describe("PostgreSQL 15: LabSpinner under concurrency", () => {
  it("50 simultaneous spins with 3 credits: exactly 3 spin (nonces 0, 1, 2), 47 are refused, the ledger holds", async () => {
    const player = await playerWithCredits(3);
    // The player has no seed pair yet: the first calls race to create it, alongside readers of the state.
    const calls = [
      ...Array.from({ length: 50 }, () => spin(player)),
      ...Array.from({ length: 10 }, () => asUser(player, "select to_json(public.get_my_spinner()) as result")),
    ];
    const results = await Promise.all(calls);
    const spins = results.slice(0, 50);
    expect(spins.filter((r) => r.ok)).toHaveLength(3);
    expect(spins.filter((r) => !r.ok && r.hint === "no_spin_credits")).toHaveLength(47);
    expect(results.slice(50).filter((r) => !r.ok)).toEqual([]);

    const state = await stateOf(player);
    expect(state.seeds).toEqual([{ id: state.seeds[0].id, next_nonce: 3, active: true }]);
    expect(state.spins.map((s) => [s.seed_id, s.nonce, s.rederived])).toEqual(
      [0, 1, 2].map((nonce) => [state.seeds[0].id, nonce, true]),
    );
    const won = state.spins.filter((s) => Number(s.prize) > 0);
    expect(state.money.prize_rows).toBe(won.length);
    expect(state.money.references).toBe(won.length);
    expect(Number(state.money.prizes)).toBeCloseTo(
      won.reduce((sum, s) => sum + Number(s.prize), 0),
      2,
    );
    expect((await cluster.pool.query(LEDGER_MISMATCH_SQL)).rows).toEqual([]);
    const after = await asUser<{ credits: { available: number; used: number } }>(
      player,
      "select to_json(public.get_my_spinner()) as result",
    );
    expect(after.ok && after.value.credits).toMatchObject({ available: 0, used: 3 });
  });

  it("spins racing rotations and client-seed changes: each spin records the pair and nonce it was derived from", async () => {
    const player = await playerWithCredits(10);
    const calls = Array.from({ length: 40 }, (_, i) => {
      if (i % 8 === 3) return asUser(player, "select to_json(public.rotate_spinner_seed()) as result");
      if (i % 8 === 6) return asUser(player, "select public.set_spinner_client_seed($1) as result", [`racer-${i}`]);
      return spin(player);
    });
    const results = await Promise.all(calls);
    const spinResults = results.filter((_, i) => i % 8 !== 3 && i % 8 !== 6);
    expect(spinResults.filter((r) => r.ok)).toHaveLength(10);
    expect(spinResults.filter((r) => !r.ok && r.hint !== "no_spin_credits")).toEqual([]);
    expect(results.filter((r, i) => (i % 8 === 3 || i % 8 === 6) && !r.ok)).toEqual([]);

    const state = await stateOf(player);
    // Five rotations: five revealed pairs and one active; each pair's nonces run 0, 1, ... with no gap or repeat.
    expect(state.seeds.filter((s) => s.active)).toHaveLength(1);
    expect(state.seeds).toHaveLength(6);
    for (const seed of state.seeds) {
      const nonces = state.spins.filter((s) => s.seed_id === seed.id).map((s) => s.nonce);
      expect(nonces).toEqual(Array.from({ length: seed.next_nonce }, (_, n) => n));
    }
    expect(state.spins).toHaveLength(10);
    expect(state.spins.filter((s) => !s.rederived)).toEqual([]);
    expect((await cluster.pool.query(LEDGER_MISMATCH_SQL)).rows).toEqual([]);
  });
});
