// Admin users and approvals: the list, one user's page, edits, the
// role, credit adjustments, deletion as anonymisation, bulk approval and the approval mode.
import { describe, expect, it } from "vitest";
import { asUser, attempt, dbPerFile } from "./support";

const db = dbPerFile();

const superAdmin = () => db().createUser({ name: "Sue Super", role: "super_admin", approved: true });

async function lastActivity(action: string, subject: string) {
  const [row] = await db().sql<{ actor_id: string; details: Record<string, unknown> }>(
    "select actor_id, details from public.activity_log where action = $1 and subject_id = $2 order by id desc limit 1",
    [action, subject],
  );
  return row;
}

describe("admin_list_users", () => {
  it("searches by name or e-mail, filters by role, approval and KYC, and pages by keyset", async () => {
    const admin = await db().createAdmin();
    const tag = `zebra${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await db().createUser({ name: `${tag} Person ${i}`, approved: i % 2 === 0 }));
    const byMail = await db().createUser({ email: `${tag}-mail@labcash.test`, name: "Mail Match" });

    type Page = { rows: { id: string; name: string; approval: string; role: string }[]; next_cursor: string | null };
    const first = await db().call<Page>(asUser(admin), "admin_list_users", { p_search: tag.toUpperCase(), p_limit: 4 });
    expect(first.rows).toHaveLength(4);
    expect(first.next_cursor).toMatch(/^\d+\.\d{6}:/);
    const second = await db().call<Page>(asUser(admin), "admin_list_users", {
      p_search: tag,
      p_limit: 4,
      p_cursor: first.next_cursor,
    });
    expect(second.rows).toHaveLength(2);
    expect(second.next_cursor).toBeNull();
    const all = [...first.rows, ...second.rows].map((r) => r.id);
    expect(new Set(all).size).toBe(6);
    expect(all.sort()).toEqual([...ids, byMail].sort());

    const approved = await db().call<Page>(asUser(admin), "admin_list_users", {
      p_search: tag,
      p_approval: "approved",
    });
    expect(approved.rows.map((r) => r.id).sort()).toEqual([ids[0], ids[2], ids[4]].sort());
    const pending = await db().call<Page>(asUser(admin), "admin_list_users", { p_search: tag, p_approval: "pending" });
    expect(pending.rows).toHaveLength(3);
    const admins = await db().call<Page>(asUser(admin), "admin_list_users", { p_role: "admin" });
    expect(admins.rows.every((r) => r.role === "admin")).toBe(true);
    expect(admins.rows.some((r) => r.id === admin)).toBe(true);

    await db().call(asUser(admin), "admin_update_user", {
      p_user_id: ids[1],
      p_name: `${tag} Person 1`,
      p_approval: "pending",
      p_kyc_status: "verified",
    });
    const verified = await db().call<Page>(asUser(admin), "admin_list_users", { p_search: tag, p_kyc: "verified" });
    expect(verified.rows.map((r) => r.id)).toEqual([ids[1]]);
    // A wildcard is searched for literally.
    const literal = await db().call<Page>(asUser(admin), "admin_list_users", { p_search: "%" });
    expect(literal.rows).toEqual([]);
  });

  it("refuses bad filters and a forged cursor with invalid_input", async () => {
    const admin = await db().createAdmin();
    for (const args of [{ p_role: "owner" }, { p_approval: "maybe" }, { p_kyc: "done" }, { p_cursor: "1;drop" }]) {
      const res = await db().rpc(asUser(admin), "admin_list_users", args);
      expect(res.error?.hint).toBe("invalid_input");
    }
  });
});

describe("admin_get_user and admin_user_ledger", () => {
  it("shows profile, balance, limits, entries, activity and the ledger in pages", async () => {
    const admin = await db().createAdmin();
    const player = await db().createPlayer({ name: "Lena Ledger", credits: 30 });
    await db().call(asUser(player), "set_monthly_limit", { p_limit: 200 });
    const competition = await db().createCompetition(admin);
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 2,
      p_answer: "4",
    });
    for (let i = 1; i <= 3; i++) {
      await db().call(asUser(admin), "admin_adjust_credit", {
        p_user_id: player,
        p_amount: i,
        p_reason: `Goodwill ${i}`,
      });
    }

    const page = await db().call<{
      user: { name: string; credits: string | number; approval: string };
      protections: { monthly_limit: number | string };
      entries: { quantity: number; competition_title: string }[];
      activity: { action: string }[];
      large_adjustment_threshold: number;
    }>(asUser(admin), "admin_get_user", { p_user_id: player });
    expect(page.user.name).toBe("Lena Ledger");
    expect(Number(page.user.credits)).toBe(30 - 2 + 6);
    expect(page.user.approval).toBe("approved");
    expect(Number(page.protections.monthly_limit)).toBe(200);
    expect(page.entries).toMatchObject([{ quantity: 2 }]);
    expect(page.activity.map((a) => a.action)).toContain("user.credit_adjusted");
    expect(Number(page.large_adjustment_threshold)).toBe(100);

    type Ledger = { rows: { id: number; kind: string; reason: string | null }[]; next_before: number | null };
    const first = await db().call<Ledger>(asUser(admin), "admin_user_ledger", { p_user_id: player, p_limit: 2 });
    expect(first.rows.map((r) => r.reason)).toEqual(["Goodwill 3", "Goodwill 2"]);
    const rest = await db().call<Ledger>(asUser(admin), "admin_user_ledger", {
      p_user_id: player,
      p_limit: 10,
      p_before: first.next_before,
    });
    expect(rest.rows.map((r) => r.kind)).toEqual(["admin_adjustment", "entry", "admin_adjustment"]);
    expect(rest.next_before).toBeNull();

    const missing = await db().rpc(asUser(admin), "admin_get_user", {
      p_user_id: "7b0c1a4e-0000-4000-8000-00000000beef",
    });
    expect(missing.error?.hint).toBe("user_not_found");
  });
});

describe("admin_update_user", () => {
  it("changes name, approval and KYC status, audits old and new values, and e-mails an approval", async () => {
    const admin = await db().createAdmin();
    const user = await db().createUser({ name: "Old Name" });
    const res = await db().call<{ name: string; approval: string; kyc_status: string }>(
      asUser(admin),
      "admin_update_user",
      { p_user_id: user, p_name: "  New Name ", p_approval: "approved", p_kyc_status: "pending" },
    );
    expect(res).toMatchObject({ name: "New Name", approval: "approved", kyc_status: "pending" });
    const audit = await lastActivity("user.updated", user);
    expect(audit.actor_id).toBe(admin);
    expect(audit.details).toEqual({
      name: { old: "Old Name", new: "New Name" },
      approval: { old: "pending", new: "approved" },
      kyc_status: { old: "none", new: "pending" },
    });
    const mail = await db().sql("select kind from public.mail_outbox where to_user = $1", [user]);
    expect(mail).toEqual([{ kind: "account_approved" }]);
    expect(await db().account(user)).toMatchObject({ approved: true, approved_by: admin });

    await db().call(asUser(admin), "admin_update_user", {
      p_user_id: user,
      p_name: "New Name",
      p_approval: "pending",
      p_kyc_status: "verified",
    });
    expect(await db().account(user)).toMatchObject({ approved: false, kyc_status: "verified", is_verified: true });
  });

  it("refuses bad input with nothing written, and will not unapprove an admin", async () => {
    const admin = await db().createAdmin();
    const other = await db().createAdmin();
    const user = await db().createUser({ name: "Stays Put" });
    for (const args of [
      { p_name: "", p_approval: "approved", p_kyc_status: "none" },
      { p_name: "x".repeat(101), p_approval: "approved", p_kyc_status: "none" },
      { p_name: "Fine", p_approval: "rejected", p_kyc_status: "none" },
      { p_name: "Fine", p_approval: "approved", p_kyc_status: "gold" },
    ]) {
      const res = await db().rpc(asUser(admin), "admin_update_user", { p_user_id: user, ...args });
      expect(res.error?.hint).toBe("invalid_input");
    }
    expect(await db().account(user)).toMatchObject({ approved: false, kyc_status: "none" });
    const [{ name }] = await db().sql<{ name: string }>("select name from public.profiles where id = $1", [user]);
    expect(name).toBe("Stays Put");
    const unapprove = await db().rpc(asUser(admin), "admin_update_user", {
      p_user_id: other,
      p_name: "Ada Admin",
      p_approval: "pending",
      p_kyc_status: "none",
    });
    expect(unapprove.error?.hint).toBe("admin_not_rejectable");
  });
});

describe("admin_set_user_role", () => {
  it("is for super admins only, never on themselves, approves a new admin and is audited", async () => {
    const admin = await db().createAdmin();
    const sup = await superAdmin();
    const user = await db().createUser({ name: "Rising Star" });
    const denied = await db().rpc(asUser(admin), "admin_set_user_role", { p_user_id: user, p_role: "admin" });
    expect(denied.error).toMatchObject({
      message: "Access denied: Super admin privileges required",
      hint: "super_admin_required",
    });
    const self = await db().rpc(asUser(sup), "admin_set_user_role", { p_user_id: sup, p_role: "user" });
    expect(self.error?.hint).toBe("self_change_refused");
    const bad = await db().rpc(asUser(sup), "admin_set_user_role", { p_user_id: user, p_role: "owner" });
    expect(bad.error?.hint).toBe("invalid_input");

    await db().call(asUser(sup), "admin_set_user_role", { p_user_id: user, p_role: "admin" });
    expect(await db().account(user)).toMatchObject({ role: "admin", approved: true, approved_by: sup });
    expect((await lastActivity("user.role_changed", user)).details).toEqual({ role: { old: "user", new: "admin" } });
  });
});

describe("admin_adjust_credit", () => {
  it("posts an admin_adjustment with the reason, audited with the old and new balance", async () => {
    const admin = await db().createAdmin();
    const player = await db().createPlayer({ credits: 10 });
    const res = await db().call<{ balance: string | number; ledger_id: number }>(asUser(admin), "admin_adjust_credit", {
      p_user_id: player,
      p_amount: -2.5,
      p_reason: " Duplicate top-up ",
    });
    expect(Number(res.balance)).toBe(7.5);
    const ledger = await db().ledger(player);
    expect(ledger.at(-1)).toMatchObject({ kind: "admin_adjustment", amount: "-2.50", created_by: admin });
    const audit = await lastActivity("user.credit_adjusted", player);
    expect(audit.details).toMatchObject({ amount: -2.5, reason: "Duplicate top-up", balance: { old: 10, new: 7.5 } });
  });

  it("needs a reason, a sensible amount, never the admin's own account, never below zero", async () => {
    const admin = await db().createAdmin();
    const player = await db().createPlayer({ credits: 5 });
    const before = (await db().ledger(player)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ p_user_id: player, p_amount: 5, p_reason: "" }, "invalid_input"],
      [{ p_user_id: player, p_amount: 5, p_reason: null }, "invalid_input"],
      [{ p_user_id: player, p_amount: 0, p_reason: "Because" }, "invalid_input"],
      [{ p_user_id: player, p_amount: 1.234, p_reason: "Because" }, "invalid_input"],
      [{ p_user_id: player, p_amount: -6, p_reason: "Because" }, "insufficient_credit"],
      [{ p_user_id: admin, p_amount: 5, p_reason: "Because" }, "self_change_refused"],
      [{ p_user_id: "7b0c1a4e-0000-4000-8000-00000000beef", p_amount: 5, p_reason: "Because" }, "user_not_found"],
    ];
    for (const [args, hint] of cases) {
      const res = await db().rpc(asUser(admin), "admin_adjust_credit", args);
      expect(res.error?.hint, JSON.stringify(args)).toBe(hint);
    }
    expect((await db().ledger(player)).length).toBe(before);
  });

  it("above the threshold needs a super admin; the threshold is a setting", async () => {
    const admin = await db().createAdmin();
    const sup = await superAdmin();
    const player = await db().createPlayer();
    const atThreshold = await attempt(
      db().call(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: 100, p_reason: "Prize" }),
    );
    expect(atThreshold.ok).toBe(true);
    const over = await db().rpc(asUser(admin), "admin_adjust_credit", {
      p_user_id: player,
      p_amount: 100.01,
      p_reason: "Prize",
    });
    expect(over.error).toMatchObject({
      message: "Access denied: Super admin privileges required",
      hint: "super_admin_required",
    });
    const overDown = await db().rpc(asUser(admin), "admin_adjust_credit", {
      p_user_id: player,
      p_amount: -100.01,
      p_reason: "Clawback",
    });
    expect(overDown.error?.hint).toBe("super_admin_required");
    await db().call(asUser(sup), "admin_adjust_credit", { p_user_id: player, p_amount: 500, p_reason: "Big prize" });
    expect(await db().credits(player)).toBe(600);
    await db().sql("update public.app_settings set value = '1000' where key = 'large_adjustment_threshold'");
    await db().call(asUser(admin), "admin_adjust_credit", {
      p_user_id: player,
      p_amount: 500,
      p_reason: "Allowed now",
    });
    await db().sql("update public.app_settings set value = '100' where key = 'large_adjustment_threshold'");
    expect(await db().credits(player)).toBe(1100);
  });
});

describe("admin_delete_user", () => {
  it("anonymises a player: personal data cleared, sign-in gone, ledger and tickets kept, audited", async () => {
    const admin = await db().createAdmin();
    const sup = await superAdmin();
    const player = await db().createUser({
      email: "forget-me@labcash.test",
      meta: { name: "Forget Me", date_of_birth: "1990-01-02" },
      approved: true,
      credits: 9,
    });
    await db().call(asUser(player), "update_my_profile", { p_town: "Leeds" });
    const competition = await db().createCompetition(admin);
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 1,
      p_answer: "4",
    });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: competition,
      p_user_id: player,
      p_name: "Forget Me",
      p_address: "1 Secret Lane, Leeds LS1 4AP",
      p_answer: "4",
    });

    const denied = await db().rpc(asUser(admin), "admin_delete_user", { p_user_id: player });
    expect(denied.error?.hint).toBe("super_admin_required");
    const deleted = await db().call<{ name: string; approval: string }>(asUser(sup), "admin_delete_user", {
      p_user_id: player,
    });
    expect(deleted).toMatchObject({ name: "Deleted user", approval: "deleted" });

    const [profile] = await db().sql("select name, email, date_of_birth, town from public.profiles where id = $1", [
      player,
    ]);
    expect(profile).toEqual({ name: "Deleted user", email: null, date_of_birth: null, town: null });
    const [auth] = await db().sql<{ email: string; encrypted_password: string | null; deleted_at: Date | null }>(
      "select email, encrypted_password, deleted_at from auth.users where id = $1",
      [player],
    );
    expect(auth.email).toBe(`deleted-${player}@deleted.labcash.invalid`);
    expect(auth.encrypted_password).toBeNull();
    expect(auth.deleted_at).not.toBeNull();
    expect((await db().ledger(player)).length).toBe(2);
    const [{ n }] = await db().sql<{ n: number }>(
      "select count(*)::int as n from public.tickets t join public.entries e on e.id = t.entry_id where e.user_id = $1",
      [player],
    );
    expect(n).toBe(2);
    expect(
      await db().sql("select name, address, postcode from public.postal_entries where user_id = $1", [player]),
    ).toEqual([{ name: "Deleted user", address: "(deleted)", postcode: null }]);
    const audit = await lastActivity("user.deleted", player);
    expect(audit.actor_id).toBe(sup);
    expect(JSON.stringify(audit.details)).not.toContain("forget-me");
    expect(JSON.stringify(audit.details)).not.toContain("Forget Me");

    const addresses = await db().sql<{ to_email: string }>(
      "select to_email from public.mail_outbox where to_user = $1",
      [player],
    );
    expect(addresses.filter((m) => m.to_email.includes("forget-me"))).toEqual([]);

    const again = await db().rpc(asUser(admin), "admin_adjust_credit", {
      p_user_id: player,
      p_amount: 1,
      p_reason: "Oops",
    });
    expect(again.error?.hint).toBe("user_deleted");
    const list = await db().call<{ rows: { id: string }[] }>(asUser(admin), "admin_list_users", {
      p_approval: "deleted",
    });
    expect(list.rows.map((r) => r.id)).toContain(player);
    const queue = await db().call<{ id: string }[]>(asUser(admin), "admin_list_pending_approvals");
    expect(queue.map((r) => r.id)).not.toContain(player);
  });

  it("refuses admins and oneself", async () => {
    const sup = await superAdmin();
    const admin = await db().createAdmin();
    expect((await db().rpc(asUser(sup), "admin_delete_user", { p_user_id: admin })).error?.hint).toBe(
      "admin_not_deletable",
    );
    expect((await db().rpc(asUser(sup), "admin_delete_user", { p_user_id: sup })).error?.hint).toBe(
      "self_change_refused",
    );
  });
});

describe("approvals in bulk and the approval mode", () => {
  it("approves every waiting account listed, skips the others, mails and audits each", async () => {
    const admin = await db().createAdmin();
    const a = await db().createUser({ name: "Bulk A" });
    const b = await db().createUser({ name: "Bulk B" });
    const rejected = await db().createUser({ name: "Bulk Rejected" });
    await db().call(asUser(admin), "admin_reject_user", { p_user_id: rejected, p_reason: "Not eligible" });
    const res = await db().call<{ approved: { id: string }[]; skipped: number }>(asUser(admin), "admin_approve_users", {
      p_user_ids: [a, b, rejected, a],
    });
    expect(res.approved.map((r) => r.id).sort()).toEqual([a, b].sort());
    expect(res.skipped).toBe(1);
    for (const id of [a, b]) {
      expect(await db().account(id)).toMatchObject({ approved: true, approved_by: admin });
      expect((await lastActivity("user.approved", id)).details).toEqual({ bulk: true });
    }
    expect(await db().account(rejected)).toMatchObject({ approved: false });
    const empty = await db().rpc(asUser(admin), "admin_approve_users", { p_user_ids: [] });
    expect(empty.error?.hint).toBe("invalid_input");
  });

  it("auto approval applies to new sign-ups, and each change is audited with old and new", async () => {
    const admin = await db().createAdmin();
    expect(await db().call(asUser(admin), "admin_get_approval_mode")).toEqual({ approval_mode: "manual" });
    // Both answer the declared approval_mode_setting: the JSON the jsonb versions gave, the enum as its word.
    expect(await db().call(asUser(admin), "admin_set_approval_mode", { p_mode: "auto" })).toEqual({
      approval_mode: "auto",
    });
    expect(await db().call(asUser(admin), "admin_get_approval_mode")).toEqual({ approval_mode: "auto" });
    const [audit] = await db().sql<{ details: unknown; actor_id: string }>(
      "select details, actor_id from public.activity_log where action = 'settings.approval_mode' order by id desc limit 1",
    );
    expect(audit).toEqual({ details: { approval_mode: { old: "manual", new: "auto" } }, actor_id: admin });
    const auto = await db().createUser({ name: "Auto Ann" });
    expect(await db().account(auto)).toMatchObject({ approved: true });
    await db().call(asUser(admin), "admin_set_approval_mode", { p_mode: "manual" });
    const manual = await db().createUser({ name: "Manual Max" });
    expect(await db().account(manual)).toMatchObject({ approved: false });
    const bad = await db().rpc(asUser(admin), "admin_set_approval_mode", { p_mode: "sometimes" });
    expect(bad.error?.hint).toBe("invalid_input");
    const player = await db().createPlayer();
    const denied = await db().rpc(asUser(player), "admin_set_approval_mode", { p_mode: "auto" });
    expect(denied.error?.hint).toBe("admin_required");
  });
});
