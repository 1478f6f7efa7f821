// What LabSpinner's calls answer, nested declared types among them (a wheel's segments; the player's credits,
// refusal and seed; the spins): for players with spins, a blocked player and one with nothing yet, a wheel with no
// spins and one with some, and the actions (a spin, a reveal, a rotation, a postal request).
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, dbPerFile } from "./support";

const db = dbPerFile({ seed: true });

const SEGMENTS = [
  { label: "Nothing", colour: "#1d4ed8", label_colour: "#ffffff", prize_credits: 0, weight: 7 },
  { label: "£1.50", colour: "#fde68a", label_colour: "#111111", prize_credits: 1.5, weight: 2 },
  { label: "£10", colour: "#065f46", label_colour: "#ffffff", prize_credits: 10, weight: 1 },
];

type Credits = { granted: number; used: number; available: number };
type Seed = {
  id: number;
  server_seed_hash: string;
  client_seed: string;
  next_nonce: number;
  server_seed: string | null;
};

let admin: string;
let spinner: string;
let resting: string;
let fresh: string;
beforeAll(async () => {
  admin = await db().createAdmin();
  // A player with postal spins spent (prizes or not), one on a break with a spare credit, one with nothing yet.
  [spinner, resting, fresh] = [await db().createPlayer(), await db().createPlayer(), await db().createPlayer()];
  for (const uid of [spinner, spinner, spinner, resting]) {
    await db().call(asUser(admin), "admin_record_spin_request", { p_user_id: uid, p_reference: "Postcard" });
  }
  for (let i = 0; i < 3; i++) await db().call(asUser(spinner), "spin_wheel");
  await db().call(asUser(resting), "take_break", { p_period: "1 week" });
});

describe("LabSpinner's calls", () => {
  it("get_my_spinner: spins, a block and a first visit", async () => {
    const seen: { block: unknown; recent_spins: unknown[]; credits: Credits; seed: Seed }[] = [];
    for (const uid of [spinner, resting, fresh]) seen.push(await db().call(asUser(uid), "get_my_spinner"));
    expect(seen.map((s) => s.block)).toEqual([null, expect.objectContaining({ code: "on_break" }), null]);
    expect(seen.map((s) => s.recent_spins.length)).toEqual([3, 0, 0]);
    expect(seen.map((s) => s.credits.available)).toEqual([0, 1, 0]);
    // The seed pair in play shows its hash, never its server seed.
    expect(seen[0].seed).toMatchObject({ next_nonce: 3, server_seed: null });
  });

  it("get_spinner_wheel, admin_get_spinner and admin_user_spins, before and after a new wheel version", async () => {
    const views = async () => ({
      wheel: await db().call<{ wheel_id: number; enabled: boolean; segments: unknown[] }>(anon, "get_spinner_wheel"),
      admin: await db().call<{ wheel: { wheel_id: number }; spins: number; observed: { count: number }[] }>(
        asUser(admin),
        "admin_get_spinner",
      ),
      players: await Promise.all(
        [spinner, resting, fresh].map((uid) =>
          db().call<{ spins: unknown[]; grants: unknown[] }>(asUser(admin), "admin_user_spins", { p_user_id: uid }),
        ),
      ),
    });
    const before = await views();
    expect(before.admin.wheel.wheel_id).toBe(before.wheel.wheel_id);
    expect(before.admin.spins).toBeGreaterThanOrEqual(3);
    expect(before.players.map((p) => [p.spins.length, p.grants.length])).toEqual([
      [3, 3],
      [0, 1],
      [0, 0],
    ]);
    const wheel = await db().call<{ wheel_id: number; total_weight: number; segments: { probability: number }[] }>(
      asUser(admin),
      "admin_update_spinner_wheel",
      { p_segments: SEGMENTS },
    );
    expect(wheel.segments).toHaveLength(3);
    expect(wheel).toMatchObject({ total_weight: 10, segments: [{ probability: 0.7 }, {}, { probability: 0.1 }] });
    // The new version has no spins yet (observed counts of 0), then some.
    const fresher = await views();
    expect(fresher.wheel.wheel_id).toBe(wheel.wheel_id);
    expect(fresher.admin.observed.map((o) => o.count)).toEqual([0, 0, 0]);
    await db().call(asUser(admin), "admin_record_spin_request", { p_user_id: spinner, p_reference: "Letter" });
    await db().call(asUser(spinner), "spin_wheel");
    const after = await views();
    expect(after.admin.observed.reduce((sum, o) => sum + o.count, 0)).toBe(1);
    expect(after.players[0].spins).toHaveLength(4);
  });

  it("spin_wheel, rotate_spinner_seed, reveal_spinner_spin and admin_record_spin_request", async () => {
    const granted = await db().call<{ grant_id: number; credits: Credits }>(
      asUser(admin),
      "admin_record_spin_request",
      {
        p_user_id: spinner,
        p_reference: "Card",
      },
    );
    expect(granted).toMatchObject({ user_id: spinner, reference: "Card", credits: { available: 1 } });

    const spun = await db().call<{ id: number; balance: number; server_seed_hash: string; credits: Credits }>(
      asUser(spinner),
      "spin_wheel",
    );
    expect(spun.credits.available).toBe(0);
    const [{ balance }] = await db().sql<{ balance: number }>(
      "select credits::float8 as balance from public.user_account_data where id = $1",
      [spinner],
    );
    expect(spun.balance).toBe(balance);

    // The spin's pair is still active: revealing it rotates it out first, answering the revealed seed and the new.
    type Reveal = { spin: { id: number; seed_id: number }; revealed: Seed; seed: Seed; wheel: { wheel_id: number } };
    const reveal = await db().call<Reveal>(asUser(spinner), "reveal_spinner_spin", { p_spin_id: spun.id });
    expect(reveal.spin.id).toBe(spun.id);
    expect(reveal.revealed).toMatchObject({ id: reveal.spin.seed_id, server_seed_hash: spun.server_seed_hash });
    expect(reveal.revealed.server_seed).not.toBeNull();
    expect(reveal.seed).toMatchObject({ next_nonce: 0, server_seed: null });
    expect(reveal.seed.id).not.toBe(reveal.revealed.id);
    // A spin whose pair was revealed already: no rotation, the same shape.
    const again = await db().call<Reveal>(asUser(spinner), "reveal_spinner_spin", { p_spin_id: spun.id });
    expect(again).toEqual({ ...reveal, revealed: { ...reveal.revealed } });
    expect(again.seed.id).toBe(reveal.seed.id);

    const rotation = await db().call<{ revealed: Seed; seed: Seed }>(asUser(spinner), "rotate_spinner_seed", {
      p_client_seed: "my-own-seed",
    });
    expect(rotation.revealed.id).toBe(reveal.seed.id);
    expect(rotation.revealed.server_seed).not.toBeNull();
    expect(rotation).toMatchObject({ seed: { client_seed: "my-own-seed", next_nonce: 0, server_seed: null } });
  });
});
