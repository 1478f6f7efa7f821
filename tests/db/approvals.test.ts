// Approval of new accounts: list, approve and reject are for admins only; approval
// records who and when, queues an e-mail and writes the audit log; rejection needs a reason. The approval's
// notification and e-mail lead back to the page the player came from.
import { describe, expect, it } from "vitest";
import { ADMIN_REQUIRED, anon, asUser, dbPerFile } from "./support";

const db = dbPerFile();

async function sideEffects(subject: string) {
  return {
    mail: await db().sql("select to_email, to_user, kind, subject, status from public.mail_outbox where to_user = $1", [
      subject,
    ]),
    log: await db().sql(
      "select actor_id, action, details from public.activity_log where subject_id = $1 and action <> 'user.signed_up' order by id",
      [subject],
    ),
  };
}

describe("admin_list_pending_approvals", () => {
  it("lists accounts waiting for approval, oldest first, without approved or rejected ones", async () => {
    const admin = await db().createUser({ role: "admin", approved: true });
    const first = await db().createUser({
      email: "first@pending.test",
      meta: { name: "First", date_of_birth: "1990-01-02" },
    });
    const second = await db().createUser({ email: "second@pending.test" });
    const approved = await db().createUser({ approved: true });
    const rejected = await db().createUser();
    await db().sql("update public.user_account_data set created_at = created_at - interval '1 hour' where id = $1", [
      first,
    ]);
    await db().call(asUser(admin), "admin_reject_user", { p_user_id: rejected, p_reason: "Under investigation" });
    const list = await db().call<Array<Record<string, unknown>>>(asUser(admin), "admin_list_pending_approvals");
    const ids = list.map((r) => r.id);
    expect(ids).not.toContain(approved);
    expect(ids).not.toContain(rejected);
    expect(ids).not.toContain(admin);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    expect(list.find((r) => r.id === first)).toMatchObject({
      name: "First",
      email: "first@pending.test",
      date_of_birth: new Date("1990-01-02T00:00:00Z"),
    });
  });

  it("is refused to users, approved or not, with the 403 message", async () => {
    for (const id of [await db().createUser({ approved: true }), await db().createUser()]) {
      const res = await db().rpc(asUser(id), "admin_list_pending_approvals");
      expect(res.error).toEqual(ADMIN_REQUIRED);
    }
  });
});

describe("admin_approve_user", () => {
  it.each(["admin", "super_admin"] as const)(
    "a %s approves: who and when recorded, mail queued, logged",
    async (role) => {
      const admin = await db().createUser({ role, approved: true });
      const user = await db().createUser({ email: `approve-me-${role}@labcash.test` });
      const [{ before }] = await db().sql<{ before: Date }>("select now() as before");
      const account = await db().call<Record<string, unknown>>(asUser(admin), "admin_approve_user", {
        p_user_id: user,
      });
      expect(account).toMatchObject({ id: user, approved: true, approved_by: admin, rejected_at: null });
      const row = await db().account(user);
      expect(row.approved).toBe(true);
      expect(row.approved_by).toBe(admin);
      expect((row.approved_at as Date).getTime()).toBeGreaterThanOrEqual(before.getTime());
      expect(await sideEffects(user)).toEqual({
        mail: [
          {
            to_email: `approve-me-${role}@labcash.test`,
            to_user: user,
            kind: "account_approved",
            subject: "Your LabCash account is approved",
            status: "queued",
          },
        ],
        log: [{ actor_id: admin, action: "user.approved", details: {} }],
      });
      const pending = await db().call<Array<{ id: string }>>(asUser(admin), "admin_list_pending_approvals");
      expect(pending.map((r) => r.id)).not.toContain(user);
    },
  );

  it("approving a rejected account clears the rejection", async () => {
    const admin = await db().createUser({ role: "admin", approved: true });
    const user = await db().createUser();
    await db().call(asUser(admin), "admin_reject_user", { p_user_id: user, p_reason: "Missing details" });
    await db().call(asUser(admin), "admin_approve_user", { p_user_id: user });
    expect(await db().account(user)).toMatchObject({ approved: true, rejected_at: null, rejection_reason: null });
  });

  it("is refused to users (the 403 message) and changes nothing", async () => {
    const user = await db().createUser({ approved: true });
    for (const target of [user, await db().createUser()]) {
      const res = await db().rpc(asUser(await db().createUser()), "admin_approve_user", { p_user_id: target });
      expect(res.error).toEqual(ADMIN_REQUIRED);
      expect(await sideEffects(target)).toEqual({ mail: [], log: [] });
    }
  });

  it("reports an unknown account", async () => {
    const admin = await db().createUser({ role: "admin", approved: true });
    const res = await db().rpc(asUser(admin), "admin_approve_user", {
      p_user_id: "7b0c1a4e-0000-4000-8000-00000000f00d",
    });
    expect(res.error).toEqual({ code: "PT404", message: "No such user", hint: "user_not_found" });
  });
});

describe("admin_reject_user", () => {
  it("records the trimmed reason and time, un-approves, and logs who did it", async () => {
    const admin = await db().createUser({ role: "admin", approved: true });
    const user = await db().createUser({ approved: true });
    const account = await db().call<Record<string, unknown>>(asUser(admin), "admin_reject_user", {
      p_user_id: user,
      p_reason: "  Could not verify age  ",
    });
    expect(account).toMatchObject({ approved: false, approved_by: null, rejection_reason: "Could not verify age" });
    expect((await db().account(user)).rejected_at).toBeInstanceOf(Date);
    expect((await sideEffects(user)).log).toEqual([
      { actor_id: admin, action: "user.rejected", details: { reason: "Could not verify age", by: admin } },
    ]);
  });

  it.each([
    ["no", null],
    ["an empty", ""],
    ["a too short", "  no  "],
    ["a 501-character", "r".repeat(501)],
  ])("refuses %s reason and changes nothing", async (_label, reason) => {
    const admin = await db().createUser({ role: "admin", approved: true });
    const user = await db().createUser();
    const res = await db().rpc(asUser(admin), "admin_reject_user", { p_user_id: user, p_reason: reason });
    expect(res.error).toEqual({
      code: "22023",
      message: "Give a reason between 3 and 500 characters",
      hint: "invalid_input",
    });
    expect(await db().account(user)).toMatchObject({ rejected_at: null, rejection_reason: null });
    expect((await sideEffects(user)).log).toEqual([]);
  });

  it.each(["admin", "super_admin"] as const)("will not reject a %s", async (role) => {
    const admin = await db().createUser({ role: "admin", approved: true });
    const target = await db().createUser({ role, approved: true });
    const res = await db().rpc(asUser(admin), "admin_reject_user", {
      p_user_id: target,
      p_reason: "Power grab attempt",
    });
    expect(res.error).toEqual({
      code: "P0001",
      message: "Admins cannot be rejected: a super admin must change their role first",
      hint: "admin_not_rejectable",
    });
    expect(await db().account(target)).toMatchObject({ approved: true, rejected_at: null });
  });

  it("is refused to users with the 403 message", async () => {
    const user = await db().createUser({ approved: true });
    const target = await db().createUser({ approved: true });
    const res = await db().rpc(asUser(user), "admin_reject_user", { p_user_id: target, p_reason: "Because I can" });
    expect(res.error).toEqual(ADMIN_REQUIRED);
    expect((await db().account(target)).approved).toBe(true);
  });
});

describe("the page a waiting player came from", () => {
  const approval = async (user: string) => ({
    links: (
      await db().sql<{ link: string }>(
        "select link from public.notifications where user_id = $1 and kind = 'approval'",
        [user],
      )
    ).map((r) => r.link),
    mail: (
      await db().sql<{ body_text: string }>(
        "select body_text from public.mail_outbox where to_user = $1 and kind = 'account_approved'",
        [user],
      )
    ).map((r) => r.body_text),
  });

  it("is recorded while the account waits, and the approval's notification and e-mail lead back to it", async () => {
    const admin = await db().createUser({ role: "admin", approved: true });
    const user = await db().createUser();
    expect(await db().call(asUser(user), "my_return_path", {})).toBeNull();
    expect(await db().call(asUser(user), "my_return_path", { p_path: "/labspinner" })).toBe("/labspinner");
    const path = "/competitions/e2e-car?entry=1#enter-online";
    expect(await db().call(asUser(user), "my_return_path", { p_path: path })).toBe(path);
    expect(await db().call(asUser(user), "my_return_path", {})).toBe(path);

    await db().call(asUser(admin), "admin_approve_user", { p_user_id: user });
    const { links, mail } = await approval(user);
    expect(links).toEqual([path]);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatch(/^Good news: your LabCash account has been approved\./);
    const [text, link] = mail[0].split(/(?<=Carry on where you left off: )/);
    expect(text).toMatch(/\n\nCarry on where you left off: $/);
    const url = new URL(link);
    expect(url.pathname + url.search + url.hash).toBe(path);

    // Approved, the account's page stays what the approval was sent with.
    expect(await db().call(asUser(user), "my_return_path", { p_path: "/account/credits" })).toBe(path);
  });

  it("leads to the dashboard when none was recorded", async () => {
    const admin = await db().createUser({ role: "admin", approved: true });
    const user = await db().createUser();
    await db().call(asUser(admin), "admin_approve_user", { p_user_id: user });
    const { links, mail } = await approval(user);
    expect(links).toEqual(["/account"]);
    expect(new URL(mail[0].split("Carry on where you left off: ")[1]).pathname).toBe("/account");
  });

  it.each([
    ["another host (//)", "//evil.test/x"],
    ["another host (/\\)", "/\\evil.test"],
    ["an absolute address", "https://evil.test/"],
    ["a relative path", "competitions"],
    ["a space", "/a b"],
    ["a control character", "/tab\there"],
    ["501 characters", `/${"x".repeat(500)}`],
  ])("refuses %s as not a page on this site and records nothing", async (_, bad) => {
    const user = await db().createUser();
    await db().call(asUser(user), "my_return_path", { p_path: "/competitions" });
    const res = await db().rpc(asUser(user), "my_return_path", { p_path: bad });
    expect(res.error).toEqual({ code: "22023", message: "That is not a page on this site", hint: "invalid_input" });
    expect(await db().call(asUser(user), "my_return_path", {})).toBe("/competitions");
  });

  it("is not granted to a visitor who is not signed in", async () => {
    const res = await db().rpc(anon, "my_return_path", { p_path: "/competitions" });
    expect(res.error).toMatchObject({ code: "42501", message: "permission denied for function my_return_path" });
  });

  it("cannot be written around the function: the column holds only pages on this site", async () => {
    const user = await db().createUser();
    const res = await db().rpc(asUser(user), "my_return_path", {});
    expect(res.error).toBeNull();
    await expect(
      db().sql("update public.user_account_data set return_path = '//evil.test' where id = $1", [user]),
    ).rejects.toThrow(/user_account_data_return_path_check/);
  });
});
