// Top-ups (issue 9): quote, create, confirm exactly once, the credit-card cap, refunds and
// what is owed, the bonus, receipts, and the entry a top-up pays for. Real PGlite; the
// server (secret key) confirms as the webhook and the test checkout do.
import { describe, expect, it } from "vitest";
import { anon, asUser, attempt, dbPerFile, service } from "./support";

const db = dbPerFile();

interface TopUp {
  id: string;
  amount: string;
  bonus: string;
  credit: string;
  status: string;
}

const createTopUp = (uid: string, amount: number | string, purpose: unknown = null) =>
  db().call<TopUp>(asUser(uid), "create_top_up", { p_amount: amount, p_provider: "test", p_purpose: purpose });

const confirm = (id: string, paymentId: string, funding = "debit", amountPaid?: number | string) =>
  db().call<{ status: string; top_up_id: string; balance: number; message?: string; message_code?: string }>(
    service,
    "confirm_top_up",
    { p_top_up_id: id, p_payment_id: paymentId, p_funding: funding, p_amount_paid: amountPaid ?? null },
  );

async function paidTopUp(uid: string, amount: number, funding = "debit") {
  const t = await createTopUp(uid, amount);
  return { topUp: t, result: await confirm(t.id, `pi_${t.id}`, funding, amount) };
}

const ledgerOf = async (uid: string) =>
  (await db().ledger(uid)).map((r) => ({
    kind: r.kind,
    amount: r.amount,
    balance_after: r.balance_after,
    reference: (r as unknown as { reference: string }).reference,
  }));

describe("quote_top_up", () => {
  it("quotes amount, bonus (rounded down to the penny), the credit and the balance after", async () => {
    const p = await db().createPlayer({ credits: "1.25" });
    const q = await db().call<Record<string, unknown>>(asUser(p), "quote_top_up", { p_amount: 60 });
    expect(q).toMatchObject({
      amount: 60,
      bonus: 1.5,
      credit: 61.5,
      balance_after: 62.75,
      min: 5,
      max: 5000,
      bonus_enabled: true,
      monthly_limit: null,
      monthly_remaining: null,
      refusal: null,
    });
    const tiers: Array<[number | string, number]> = [
      [5, 0],
      [49.99, 0],
      [50, 1.25],
      [123.45, 3.08], // 3.08625
      [199.99, 4.99], // 4.99975
      [200, 10],
      [333.33, 16.66], // 16.6665
      [5000, 250],
    ];
    for (const [amount, bonus] of tiers) {
      const r = await db().call<{ bonus: number }>(asUser(p), "quote_top_up", { p_amount: amount });
      expect(r.bonus, String(amount)).toBe(bonus);
    }
  });

  it.each([
    ["1.005", "invalid_input"],
    ["-5", "invalid_input"],
    ["0", "invalid_input"],
    ["NaN", "invalid_input"],
    [null, "invalid_input"],
    ["4.99", "top_up_below_minimum"],
    ["5000.01", "top_up_above_maximum"],
    ["Infinity", "top_up_above_maximum"],
  ])("refuses %s with %s without raising", async (amount, code) => {
    const p = await db().createPlayer();
    const q = await db().call<{ refusal: { code: string; message: string }; bonus: unknown }>(
      asUser(p),
      "quote_top_up",
      { p_amount: amount },
    );
    expect(q.refusal.code).toBe(code);
    expect(q.refusal.message.length).toBeGreaterThan(5);
    expect(q.bonus).toBeNull();
  });

  it("no bonus when the operator switches bonuses off; the quote equals what lands", async () => {
    const p = await db().createPlayer();
    await db().sql("update public.app_settings set value = 'false' where key = 'bonus_enabled'");
    try {
      const q = await db().call<{ bonus: number; bonus_enabled: boolean }>(asUser(p), "quote_top_up", {
        p_amount: 200,
      });
      expect(q).toMatchObject({ bonus: 0, bonus_enabled: false });
      const { result } = await paidTopUp(p, 200);
      expect(result.balance).toBe(200);
      expect((await ledgerOf(p)).map((r) => r.kind)).toEqual(["top_up"]);
    } finally {
      await db().sql("update public.app_settings set value = 'true' where key = 'bonus_enabled'");
    }
  });
});

describe("create_top_up and confirm_top_up", () => {
  it("£60 by debit card lands £61.50 as a top_up and a bonus row, with a receipt", async () => {
    const p = await db().createPlayer();
    const t = await createTopUp(p, 60);
    expect(t).toMatchObject({ amount: 60, bonus: 1.5, credit: 61.5, status: "pending" });
    expect(await db().credits(p)).toBe(0);
    const r = await confirm(t.id, "pi_60", "debit", 60);
    expect(r).toMatchObject({ status: "credited", top_up_id: t.id, balance: 61.5 });
    expect(await ledgerOf(p)).toEqual([
      { kind: "top_up", amount: "60.00", balance_after: "60.00", reference: `top_up:${t.id}` },
      { kind: "bonus", amount: "1.50", balance_after: "61.50", reference: `top_up:${t.id}` },
    ]);
    const got = await db().call<Record<string, unknown>>(asUser(p), "get_top_up", { p_id: t.id });
    expect(got).toMatchObject({ status: "credited", funding: "debit", balance: 61.5, credit: 61.5, entry: null });
    const mails = await db().sql<{ kind: string; body_text: string }>(
      "select kind, body_text from public.mail_outbox where to_user = $1",
      [p],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].kind).toBe("top_up_receipt");
    for (const text of ["£60.00", "£1.50", "debit card", "£61.50", `top_up:${t.id}`])
      expect(mails[0].body_text).toContain(text);
  });

  it("a replayed confirmation credits once; another payment id or amount is refused", async () => {
    const p = await db().createPlayer();
    const t = await createTopUp(p, 20);
    await confirm(t.id, "pi_replay", "debit", 20);
    for (let i = 0; i < 5; i++)
      expect(await confirm(t.id, "pi_replay", "debit", 20)).toMatchObject({ status: "already_credited" });
    const other = await attempt(confirm(t.id, "pi_other", "debit", 20));
    expect(other).toMatchObject({ ok: false, hint: "payment_mismatch" });
    const t2 = await createTopUp(p, 20);
    expect(await attempt(confirm(t2.id, "pi_replay", "debit", 20))).toMatchObject({
      ok: false,
      hint: "payment_mismatch",
    });
    expect(await attempt(confirm(t2.id, "pi_t2", "debit", 19.99))).toMatchObject({
      ok: false,
      hint: "payment_mismatch",
    });
    expect(await db().credits(p)).toBe(20);
  });

  it("only the server may confirm, fail, refund, attach or find", async () => {
    const p = await db().createPlayer();
    const t = await createTopUp(p, 10);
    const calls: Array<[string, Record<string, unknown>]> = [
      ["confirm_top_up", { p_top_up_id: t.id, p_payment_id: "pi_x", p_funding: "debit", p_amount_paid: 10 }],
      ["fail_top_up", { p_top_up_id: t.id, p_status: "failed" }],
      ["record_top_up_refund", { p_payment_id: "pi_x", p_refund_id: "re_x", p_amount: 10 }],
      ["attach_checkout_session", { p_top_up_id: t.id, p_session_id: "cs_x" }],
      ["find_top_up_by_session", { p_session_id: "cs_x" }],
    ];
    for (const [fn, args] of calls)
      for (const caller of [asUser(p), anon]) {
        const res = await db().rpc(caller, fn, args);
        expect(res.error?.code, fn).toBe("42501");
      }
    expect(await db().credits(p)).toBe(0);
  });
});

describe("the credit-card cap", () => {
  it("credit-card top-ups over £250 in the month are refused, not credited, and say why", async () => {
    const p = await db().createPlayer();
    expect((await paidTopUp(p, 200, "credit")).result.status).toBe("credited");
    const { topUp, result } = await paidTopUp(p, 60, "credit");
    expect(result).toMatchObject({ status: "refund_required", message_code: "card_cap_exceeded", balance: 210 });
    expect(result.message).toContain("£250.00");
    const got = await db().call<Record<string, unknown>>(asUser(p), "get_top_up", { p_id: topUp.id });
    expect(got).toMatchObject({ status: "refused_card_cap", refusal_reason: result.message });
    // A replay says the same; a debit card still works; exactly £250 by credit card is allowed.
    expect(await confirm(topUp.id, `pi_${topUp.id}`, "credit", 60)).toMatchObject({ status: "refund_required" });
    expect((await paidTopUp(p, 60, "debit")).result.status).toBe("credited");
    expect((await paidTopUp(p, 50, "credit")).result.status).toBe("credited");
    expect(await db().credits(p)).toBe(200 + 10 + 60 + 1.5 + 50 + 1.25);
  });
});
