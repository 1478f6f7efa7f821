// True monthly figures: Responsible play and the admin user page show money credited this
// month (paid top-ups only) and, apart, money held in checkouts still open; the limit keeps counting both.
// Real PGlite.
import { describe, expect, it } from "vitest";
import { asUser, attempt, dbPerFile, service } from "./support";

const db = dbPerFile();

type Figures = {
  month_credited: number;
  month_held: number;
  month_topped_up: number;
  top_up_remaining: number | null;
};

const figures = (uid: string) => db().call<Figures>(asUser(uid), "get_my_protections");
const createTopUp = (uid: string, amount: number) =>
  db().call<{ id: string }>(asUser(uid), "create_top_up", { p_amount: amount, p_provider: "test" });

describe("credited and held this month", () => {
  it.each(["expired", "failed"] as const)(
    "one abandoned and one paid £25: £25 credited, £25 held while the first is open, £0 held once %s",
    async (ending) => {
      const p = await db().createPlayer();
      const abandoned = await createTopUp(p, 25);
      const paid = await createTopUp(p, 25);
      await db().call(service, "confirm_top_up", {
        p_top_up_id: paid.id,
        p_payment_id: `pi_figures_${ending}`,
        p_funding: "debit",
        p_amount_paid: 25,
      });
      expect(await figures(p)).toMatchObject({ month_credited: 25, month_held: 25, month_topped_up: 50 });
      const [{ topUps }] = await db().sql<{ topUps: string }>(
        `select coalesce(sum(amount), 0)::text as "topUps" from public.credit_ledger where user_id = $1 and kind = 'top_up'`,
        [p],
      );
      expect(Number(topUps)).toBe(25);

      await db().call(service, "fail_top_up", { p_top_up_id: abandoned.id, p_status: ending });
      expect(await figures(p)).toMatchObject({ month_credited: 25, month_held: 0, month_topped_up: 25 });
    },
  );

  it("the limit still counts an open checkout, so many open checkouts cannot pass it", async () => {
    const p = await db().createPlayer();
    await db().call(asUser(p), "set_monthly_limit", { p_limit: 40 });
    await createTopUp(p, 25);
    expect(await figures(p)).toMatchObject({ month_credited: 0, month_held: 25, top_up_remaining: 15 });
    expect(await attempt(createTopUp(p, 25))).toMatchObject({ ok: false, hint: "monthly_limit_reached" });
  });

  it("a refund comes off the credited figure; an earlier month's top-up is not this month's", async () => {
    const p = await db().createPlayer();
    const t = await createTopUp(p, 30);
    await db().call(service, "confirm_top_up", {
      p_top_up_id: t.id,
      p_payment_id: "pi_figures_refund",
      p_funding: "debit",
      p_amount_paid: 30,
    });
    await db().call(service, "record_top_up_refund", {
      p_payment_id: "pi_figures_refund",
      p_refund_id: "re_figures_1",
      p_amount: 10,
    });
    expect(await figures(p)).toMatchObject({ month_credited: 20, month_held: 0 });
    const open = await createTopUp(p, 15);
    await db().sql("update public.top_ups set created_at = now() - interval '40 days' where id in ($1, $2)", [
      t.id,
      open.id,
    ]);
    expect(await figures(p)).toMatchObject({ month_credited: 0, month_held: 0 });
  });
});
