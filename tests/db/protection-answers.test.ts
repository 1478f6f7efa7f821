// What player protection's admin calls answer: the queue of open and reviewed flags (the player nested), a player's
// record (flags and interventions), and a review, through interventions, a restriction and a deleted player.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, dbPerFile } from "./support";

const db = dbPerFile();

let admin: string;
beforeAll(async () => {
  admin = await db().createUser({ role: "super_admin", approved: true });
});

/** A flag as the cron raises one (its own moment, so the queue's order is decided). */
async function flag(userId: string, kind: string, period: string, minutesAgo: number): Promise<string> {
  const [{ id }] = await db().sql<{ id: string }>(
    `insert into public.player_flags (user_id, kind, period, details, raised_at)
     values ($1, $2, $3, $4, now() - make_interval(mins => $5)) returning id`,
    [
      userId,
      kind,
      period,
      JSON.stringify({ total: 1250.5, top_ups: 3, from: "2026-11-01T00:00:00+00:00" }),
      minutesAgo,
    ],
  );
  return id;
}

describe("player protection's admin calls", () => {
  it("answer the queue, a player's record and a review", async () => {
    const queue = (status: string, limit: number) =>
      db().call<{ id: string; status: string }[]>(asUser(admin), "admin_list_player_flags", {
        p_status: status,
        p_limit: limit,
      });
    const record = (userId: string) =>
      db().call<{ restricted_at: string | null; flags: unknown[]; interventions: unknown[] }>(
        asUser(admin),
        "admin_get_player_protection",
        { p_user_id: userId },
      );
    expect(await queue("open", 100)).toEqual([]);
    expect(await queue("reviewed", 100)).toEqual([]);

    const player = await db().createPlayer({ name: "Fay Flagged" });
    const other = await db().createPlayer({ name: "Otto Other" });
    const gone = await db().createPlayer({ name: "Gil Gone" });
    expect(await record(player)).toEqual({ restricted_at: null, flags: [], interventions: [] });
    const first = await flag(player, "large_top_ups", "2026-10", 30);
    const second = await flag(player, "limit_reached", "2026-11", 20);
    const third = await flag(other, "limit_raises", "2026-11", 10);
    const fourth = await flag(gone, "large_top_ups", "2026-11", 5);
    await db().call(asUser(admin), "admin_delete_user", { p_user_id: gone });
    // Oldest first, so the longest waiting is seen first; the limit cuts the list.
    expect((await queue("open", 100)).map((f) => f.id)).toEqual([first, second, third, fourth]);
    expect((await queue("open", 2)).map((f) => f.id)).toEqual([first, second]);

    const reviewed = await db().call(asUser(admin), "admin_review_player_flag", {
      p_flag_id: first,
      p_note: "Called them, all fine",
      p_intervention: "contacted",
    });
    expect(reviewed).toMatchObject({ id: first, status: "reviewed", intervention_kind: "contacted" });
    const plain = await db().call(asUser(admin), "admin_review_player_flag", { p_flag_id: second, p_note: "Seen" });
    expect(plain).toMatchObject({ id: second, status: "reviewed" });
    await db().call(asUser(admin), "admin_record_intervention", {
      p_user_id: player,
      p_kind: "restricted",
      p_note: "Restricted while we talk",
    });
    expect((await queue("open", 100)).map((f) => f.id)).toEqual([third, fourth]);
    expect((await queue("reviewed", 100)).map((f) => f.id).sort()).toEqual([first, second].sort());
    const restricted = await record(player);
    expect(restricted.restricted_at).not.toBeNull();
    expect(restricted.flags).toHaveLength(2);
    expect(restricted.interventions).toHaveLength(2);
    expect(await record(other)).toMatchObject({ restricted_at: null, flags: [{ id: third }], interventions: [] });
    expect((await record(gone)).flags).toHaveLength(1);
  });
});
