// What the admin's user pages read: a player's ledger page by page (top-ups, an admin's adjustment, entries) and
// an empty one; the user list through every filter, page by page; and one user in every state (approved, pending,
// rejected, deleted, an admin, a lost profile row).
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, dbPerFile, eachPage } from "./support";

const db = dbPerFile();

let admin: string;
beforeAll(async () => {
  admin = await db().createUser({ role: "super_admin", approved: true });
});

describe("admin_user_ledger", () => {
  it("pages through a player's ledger to its end, and answers an empty ledger with no rows", async () => {
    const player = await db().createPlayer({ credits: 40 });
    const competition = await db().createCompetition(admin, { ticket_price: 2.5, total_tickets: 100 });
    await db().call(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: 12.34, p_reason: "Goodwill" });
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 3,
      p_answer: "4",
    });
    let before: number | null = null;
    const kinds: string[] = [];
    for (let page = 0; page < 10; page++) {
      const now: { rows: { kind: string }[]; next_before: number | null } = await db().call(
        asUser(admin),
        "admin_user_ledger",
        { p_user_id: player, p_before: before, p_limit: 2 },
      );
      expect(now.rows.length).toBeLessThanOrEqual(2);
      kinds.push(...now.rows.map((r) => r.kind));
      before = now.next_before;
      if (before === null) break;
    }
    expect(kinds).toEqual(expect.arrayContaining(["entry", "admin_adjustment"]));
    expect(before).toBeNull();

    const empty = await db().createPlayer();
    expect(await db().call(asUser(admin), "admin_user_ledger", { p_user_id: empty })).toMatchObject({
      next_before: null,
    });
  });
});

describe("admin_list_users and admin_get_user", () => {
  it("answer every page, filter and user", async () => {
    const sup = admin;
    const player = await db().createPlayer({ name: "Pia Player", credits: 30 });
    const competition = await db().createCompetition(admin, { ticket_price: 1.5 });
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 2,
      p_answer: "4",
    });
    await db().call(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: 4.2, p_reason: "Goodwill" });
    await db().call(asUser(player), "take_break", { p_period: "1 week" });
    await db().sql(
      "insert into public.player_flags (user_id, kind, period, details) values ($1, 'large_top_ups', '2026-11', '{}')",
      [player],
    );
    const pending = await db().createUser({ name: "Pat Pending" });
    const rejected = await db().createUser({ name: "Rae Rejected" });
    await db().call(asUser(admin), "admin_reject_user", { p_user_id: rejected, p_reason: "Not eligible" });
    const deleted = await db().createPlayer({ name: "Dee Deleted" });
    await db().call(asUser(sup), "admin_delete_user", { p_user_id: deleted });
    const helper = await db().createUser({ name: "Ada Admin", role: "admin", approved: true });

    const filters: [string | null, string | null, string | null, boolean | null][] = [
      [null, null, null, null],
      [null, null, "approved", null],
      [null, null, "pending", null],
      [null, null, "rejected", null],
      [null, null, "deleted", null],
      [null, "admin", null, null],
      ["pia", null, null, null],
      [null, null, null, true],
      ["nobody at all", null, null, null],
    ];
    const approvals = new Set<string>();
    const found: Record<string, string[]> = {};
    for (const [search, role, approval, flagged] of filters) {
      const ids: string[] = [];
      await eachPage<string>(async (cursor) => {
        const now: { rows: { id: string; approval: string }[]; next_cursor: string | null } = await db().call(
          asUser(admin),
          "admin_list_users",
          { p_search: search, p_role: role, p_approval: approval, p_cursor: cursor, p_limit: 2, p_flagged: flagged },
        );
        now.rows.forEach((r) => approvals.add(r.approval));
        if (approval) expect(now.rows.every((r) => r.approval === approval)).toBe(true);
        ids.push(...now.rows.map((r) => r.id));
        return now.next_cursor;
      });
      expect(new Set(ids).size).toBe(ids.length);
      found[[search, role, approval, flagged].join("/")] = ids;
    }
    expect([...approvals].sort()).toEqual(["approved", "deleted", "pending", "rejected"]);
    expect(found["pia///"]).toEqual([player]);
    expect(found["///true"]).toEqual([player]);
    expect(found["nobody at all///"]).toEqual([]);
    expect(found["/admin//"]).toContain(helper);
    expect(found["//deleted/"]).toEqual([deleted]);

    for (const id of [player, pending, rejected, deleted, helper, sup]) {
      expect(await db().call(asUser(admin), "admin_get_user", { p_user_id: id })).toMatchObject({ user: { id } });
    }
    const page: { user: { open_flags: number }; entries: unknown[]; activity: unknown[]; protections: unknown } =
      await db().call(asUser(admin), "admin_get_user", { p_user_id: player });
    expect(page.user.open_flags).toBe(1);
    expect(page.entries).toHaveLength(1);
    expect(page.activity.length).toBeGreaterThan(1);
    expect(page.protections).toMatchObject({ state: "break" });

    // A user whose profile row is lost: the user part is null.
    await db().sql("delete from public.profiles where id = $1", [pending]);
    const lost = await db().call<{ user: unknown }>(asUser(admin), "admin_get_user", { p_user_id: pending });
    expect(lost.user).toBeNull();
  });
});
