// A sign-up that waits for approval reaches every admin in the sign-up's own transaction (the trigger on
// auth.users, so a sign-up made straight at the auth server is announced too), pushed to those who chose it;
// players hear nothing, and nothing is said when accounts are approved automatically.
import { describe, expect, it } from "vitest";
import { asUser, dbPerFile } from "./support";

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
