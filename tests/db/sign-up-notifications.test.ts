// A sign-up that waits for approval reaches every admin in the sign-up's own transaction (the trigger on
// auth.users, so a sign-up made straight at the auth server is announced too), pushed to those who chose it;
// players hear nothing, and nothing is said when accounts are approved automatically.
import { describe, expect, it } from "vitest";
import { asUser, dbPerFile, service } from "./support";

const db = dbPerFile();

type Item = { kind: string; title: string; body: string; link: string; read_at: string | null };
type Page = { items: Item[]; unread: number };

const signUpNews = async (uid: string) =>
  (await db().call<Page>(asUser(uid), "get_my_notifications", { p_limit: 100 })).items.filter(
    (i) => i.kind === "sign_up",
  );

describe("a sign-up waiting for approval", () => {
  it("is in every admin's notification centre at once, linking the approvals queue; players hear nothing", async () => {
    const admin = await db().createUser({ name: "Ada Admin", role: "admin", approved: true });
    const superAdmin = await db().createUser({ name: "Sam Super", role: "super_admin", approved: true });
    const player = await db().createPlayer();
    const waitingPlayer = await db().createUser();

    const newcomer = await db().createUser({
      email: "newcomer@signup.test",
      meta: { name: "Nina Newcomer", date_of_birth: "1992-03-14" },
    });

    for (const uid of [admin, superAdmin]) {
      expect(await signUpNews(uid)).toContainEqual({
        id: expect.any(Number),
        kind: "sign_up",
        title: "New sign-up: Nina Newcomer",
        body: "Nina Newcomer signed up and is waiting for approval.",
        link: "/admin/approvals",
        read_at: null,
        created_at: expect.anything(),
      });
    }
    for (const uid of [player, waitingPlayer, newcomer]) {
      expect(await signUpNews(uid)).toEqual([]);
    }
    const [{ rows }] = await db().sql<{ rows: number }>(
      "select count(*)::int as rows from public.notifications where kind = 'sign_up' and ref = $1",
      [`sign_up:${newcomer}`],
    );
    expect(rows).toBe(2);
  });

  it("waits for push only for the admins who chose sign-ups and have a browser subscribed", async () => {
    const pushed = await db().createUser({ role: "admin", approved: true });
    const chose = await db().createUser({ role: "admin", approved: true });
    await db().call(asUser(pushed), "save_push_subscription", {
      p_endpoint: "https://fcm.googleapis.com/fcm/send/sign-up-admin",
      p_p256dh: "B" + "A".repeat(86),
      p_auth: "A".repeat(22),
    });
    for (const uid of [pushed, chose]) {
      await db().call(asUser(uid), "set_my_push_kinds", { p_kinds: ["sign_up"] });
    }
    const newcomer = await db().createUser();
    const pending = await db().sql<{ user_id: string; push_pending: boolean }>(
      "select user_id, push_pending from public.notifications where ref = $1 and user_id = any($2::uuid[])",
      [`sign_up:${newcomer}`, [pushed, chose]],
    );
    expect(Object.fromEntries(pending.map((r) => [r.user_id, r.push_pending]))).toEqual({
      [pushed]: true,
      [chose]: false,
    });
  });

  it("is not announced when new accounts are approved automatically", async () => {
    const admin = await db().createUser({ role: "super_admin", approved: true });
    await db().call(asUser(admin), "admin_set_approval_mode", { p_mode: "auto" });
    try {
      const approvedAtOnce = await db().createUser({ meta: { name: "Otto Auto", date_of_birth: "1990-01-01" } });
      expect(
        await db().sql("select 1 from public.notifications where ref = $1", [`sign_up:${approvedAtOnce}`]),
      ).toEqual([]);
    } finally {
      await db().call(asUser(admin), "admin_set_approval_mode", { p_mode: "manual" });
    }
  });
});

describe("the sign-up digest", () => {
  /** Today in the UK at hh:mm UK time, as an instant. */
  const ukToday = async (hhmm: string) =>
    (
      await db().sql<{ at: Date }>(
        "select (((now() at time zone 'Europe/London')::date + $1::time) at time zone 'Europe/London') as at",
        [hhmm],
      )
    )[0].at;
  const digestsAt = async (at: Date) =>
    (await db().sql<{ n: number }>("select private.queue_sign_up_digests_at($1) as n", [at]))[0].n;
  const digests = () =>
    db().sql<{ to_user: string; subject: string; body_text: string }>(
      "select to_user, subject, body_text from public.mail_outbox where kind = 'sign_up_digest' order by id",
    );
  const setDigest = (on: boolean) =>
    db().sql("update public.app_settings set value = $1::jsonb where key = 'sign_up_digest'", [JSON.stringify(on)]);

  it("is off unless chosen; when on, every admin is e-mailed the queue once a UK day, from 08:00, and players never", async () => {
    const admin = await db().createUser({ role: "admin", approved: true });
    const superAdmin = await db().createUser({ role: "super_admin", approved: true });
    const player = await db().createPlayer();
    await db().createUser({ meta: { name: "Wendy Waiting", date_of_birth: "1990-01-01" } });
    const nine = await ukToday("09:00");
    await db().sql("delete from public.mail_outbox where kind = 'sign_up_digest'");

    expect(await db().sql("select value from public.app_settings where key = 'sign_up_digest'")).toEqual([
      { value: false },
    ]);
    expect(await digestsAt(nine)).toBe(0);

    await setDigest(true);
    try {
      expect(await digestsAt(await ukToday("07:59"))).toBe(0);
      const admins = await db().sql<{ id: string }>(
        "select id from public.user_account_data where role in ('admin', 'super_admin')",
      );
      expect(await digestsAt(nine)).toBe(admins.length);
      const sent = await digests();
      expect(sent.map((m) => m.to_user).sort()).toEqual(admins.map((a) => a.id).sort());
      expect(sent.map((m) => m.to_user)).toEqual(expect.arrayContaining([admin, superAdmin]));
      expect(sent.map((m) => m.to_user)).not.toContain(player);
      const [{ waiting }] = await db().sql<{ waiting: number }>(
        "select count(*)::int as waiting from public.user_account_data where not approved and rejected_at is null",
      );
      expect(sent[0].subject).toBe(
        waiting === 1 ? "1 account is waiting for approval" : `${waiting} accounts are waiting for approval`,
      );
      expect(sent[0].body_text).toMatch(/- Wendy Waiting, signed up \d{2} \w{3} \d{4} \d{2}:\d{2}/);
      expect(sent[0].body_text).toContain("/admin/approvals");
      // Later runs the same day queue nothing more.
      expect(await digestsAt(await ukToday("23:59"))).toBe(0);
      expect(await digests()).toHaveLength(admins.length);
    } finally {
      await setDigest(false);
    }
  });

  it("says nothing when nobody is waiting", async () => {
    await db().createUser({ role: "admin", approved: true });
    await db().sql("update public.user_account_data set approved = true where not approved and rejected_at is null");
    await db().sql("delete from public.mail_outbox where kind = 'sign_up_digest'");
    await setDigest(true);
    try {
      expect(await digestsAt(await ukToday("09:00"))).toBe(0);
      expect(await digests()).toEqual([]);
    } finally {
      await setDigest(false);
    }
  });

  it("is the server's alone to queue, through the admin settings a boolean", async () => {
    const admin = await db().createUser({ role: "admin", approved: true });
    expect((await db().rpc(asUser(admin), "queue_sign_up_digests")).error?.code).toBe("42501");
    expect(typeof (await db().call(service, "queue_sign_up_digests"))).toBe("number");
    const refused = await db().rpc(asUser(admin), "admin_update_settings", { p: { sign_up_digest: "yes" } });
    expect(refused.error?.message).toBe("The sign-up digest must be on or off (true or false)");
    await db().call(asUser(admin), "admin_update_settings", { p: { sign_up_digest: true } });
    expect(await db().sql("select value from public.app_settings where key = 'sign_up_digest'")).toEqual([
      { value: true },
    ]);
    await db().call(asUser(admin), "admin_update_settings", { p: { sign_up_digest: false } });
  });
});
