// Top-ups: quote, create, confirm exactly once, the credit-card cap, refunds and
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
    ["Infinity", "invalid_input"],
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

  it("the quote is what lands, to the penny", async () => {
    const p = await db().createPlayer();
    for (const amount of ["123.45", "199.99", "333.33"]) {
      const q = await db().call<{ credit: number }>(asUser(p), "quote_top_up", { p_amount: amount });
      const before = await db().credits(p);
      await paidTopUp(p, Number(amount));
      expect(Math.round((await db().credits(p)) * 100) - Math.round(before * 100), amount).toBe(
        Math.round(q.credit * 100),
      );
    }
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
    for (const [fn, args] of calls) {
      for (const caller of [asUser(p), anon]) {
        const res = await db().rpc(caller, fn, args);
        expect(res.error, fn).toEqual({ code: "42501", message: `permission denied for function ${fn}` });
      }
      // Behind the grant, each checks its caller itself: the owner without the secret key's claims is refused too.
      const names = Object.keys(args);
      const inner = await attempt(
        db().sql(`select public.${fn}(${names.map((n, i) => `${n} => $${i + 1}`).join(", ")})`, Object.values(args)),
      );
      expect(inner, fn).toMatchObject({ ok: false, message: "Access denied: server only", hint: "server_only" });
    }
    expect(await db().credits(p)).toBe(0);
    expect(await db().sql("select status from public.top_ups where id = $1", [t.id])).toEqual([{ status: "pending" }]);
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

const refund = (paymentId: string, refundId: string, amount: number | string) =>
  db().call<{
    status: string;
    top_up_id: string | null;
    bonus: number;
    reversed: number;
    owed: number;
    balance?: number;
  }>(service, "record_top_up_refund", { p_payment_id: paymentId, p_refund_id: refundId, p_amount: amount });

const mailKinds = async (uid: string) =>
  (await db().sql<{ kind: string }>("select kind from public.mail_outbox where to_user = $1 order by id", [uid])).map(
    (m) => m.kind,
  );

const refundMails = async (uid: string) =>
  (
    await db().sql<{ body_text: string }>(
      "select body_text from public.mail_outbox where to_user = $1 and kind = 'top_up_refund' order by id",
      [uid],
    )
  ).map((m) => m.body_text);

const topUpRow = async (id: string) =>
  (
    await db().sql<{ status: string; owed: string; refunded_amount: string }>(
      "select status, owed, refunded_amount from public.top_ups where id = $1",
      [id],
    )
  )[0];

describe("refunds", () => {
  it("a full refund takes back the money and the bonus that came with it, marks the top-up refunded and sends a refund receipt, once", async () => {
    const p = await db().createPlayer({ credits: 15 });
    const { topUp } = await paidTopUp(p, 200);
    expect(await db().credits(p)).toBe(225);
    const r = await refund(`pi_${topUp.id}`, "re_full", 200);
    expect(r).toMatchObject({
      status: "recorded",
      top_up_id: topUp.id,
      bonus: 10,
      reversed: 210,
      owed: 0,
      balance: 15,
    });
    expect(await refund(`pi_${topUp.id}`, "re_full", 200)).toMatchObject({
      status: "already_recorded",
      bonus: 10,
      reversed: 210,
      owed: 0,
    });
    expect(await db().credits(p)).toBe(15);
    expect((await ledgerOf(p)).slice(1).map((l) => [l.kind, l.amount, l.reference])).toEqual([
      ["top_up", "200.00", `top_up:${topUp.id}`],
      ["bonus", "10.00", `top_up:${topUp.id}`],
      ["top_up_reversal", "-200.00", `top_up:${topUp.id}`],
      ["top_up_reversal", "-10.00", `top_up:${topUp.id}`],
    ]);
    const reasons = await db().sql<{ reason: string }>(
      "select reason from public.credit_ledger where user_id = $1 and kind = 'top_up_reversal' order by id",
      [p],
    );
    expect(reasons.map((l) => l.reason)).toEqual(["Refund of top-up", "Bonus taken back with the refund of top-up"]);
    expect(await db().call(asUser(p), "get_top_up", { p_id: topUp.id })).toMatchObject({ status: "refunded" });
    expect(await mailKinds(p)).toEqual(["top_up_receipt", "top_up_refund"]);
    const [mail] = await refundMails(p);
    expect(mail).toContain("We have refunded £200.00 of your top-up to your card.");
    expect(mail).toContain("Bonus taken back with it: £10.00");
    expect(mail).toContain("We took back £210.00 credit.");
    expect(mail).toContain("Credit balance: £15.00");
    // A confirmation replayed after the refund credits nothing more.
    expect(await confirm(topUp.id, `pi_${topUp.id}`, "debit", 200)).toMatchObject({ status: "refunded", balance: 15 });
  });

  it("a refund larger than the balance takes what is there and records the rest, bonus share included, as owed", async () => {
    const admin = await db().createAdmin();
    const comp = await db().createCompetition(admin, { ticket_price: 15 });
    const p = await db().createPlayer();
    const { topUp } = await paidTopUp(p, 50); // £1.25 bonus: £51.25 credit
    await db().call(asUser(p), "enter_competition", { p_competition_id: comp, p_quantity: 3, p_answer: "4" });
    expect(await db().credits(p)).toBe(6.25);
    // £20 of £50 refunded: its bonus share is £1.25 × 20 / 50 = £0.50, so £20.50 is due.
    expect(await refund(`pi_${topUp.id}`, "re_owed_1", 20)).toMatchObject({
      bonus: 0.5,
      reversed: 6.25,
      owed: 14.25,
      balance: 0,
    });
    expect(await db().call(asUser(p), "get_top_up", { p_id: topUp.id })).toMatchObject({
      status: "partially_refunded",
    });
    // The refund that completes the top-up takes the rest of the bonus (£0.75).
    expect(await refund(`pi_${topUp.id}`, "re_owed_2", 30)).toMatchObject({
      bonus: 0.75,
      reversed: 0,
      owed: 30.75,
      balance: 0,
    });
    // Taken back plus owed is exactly the money and its bonus.
    expect(await topUpRow(topUp.id)).toEqual({ status: "refunded", owed: "45.00", refunded_amount: "50.00" });
    expect(await db().credits(p)).toBe(0);
    expect((await ledgerOf(p)).filter((l) => l.kind === "top_up_reversal").map((l) => l.amount)).toEqual(["-6.25"]);
    const mails = await refundMails(p);
    expect(mails[0]).toContain("Bonus taken back with it: £0.50");
    expect(mails[0]).toContain("We took back £6.25 credit; £14.25 had already been spent and is recorded as owed.");
    expect(mails[1]).toContain("Bonus taken back with it: £0.75");
    expect(mails[1]).toContain("We took back £0.00 credit; £30.75 had already been spent and is recorded as owed.");
    // More than was paid is refused.
    expect(await attempt(refund(`pi_${topUp.id}`, "re_owed_3", 1))).toMatchObject({
      ok: false,
      hint: "invalid_input",
    });
  });

  it("when the balance covers the money but not all of its bonus share, the rest of the share is owed", async () => {
    const admin = await db().createAdmin();
    const comp = await db().createCompetition(admin, { ticket_price: 6 });
    const p = await db().createPlayer();
    const { topUp } = await paidTopUp(p, 200); // £210 credit
    await db().call(asUser(p), "enter_competition", { p_competition_id: comp, p_quantity: 1, p_answer: "4" });
    expect(await refund(`pi_${topUp.id}`, "re_bonus_owed", 200)).toMatchObject({
      bonus: 10,
      reversed: 204,
      owed: 6,
      balance: 0,
    });
    expect((await ledgerOf(p)).filter((l) => l.kind === "top_up_reversal").map((l) => l.amount)).toEqual([
      "-200.00",
      "-4.00",
    ]);
    expect(await topUpRow(topUp.id)).toEqual({ status: "refunded", owed: "6.00", refunded_amount: "200.00" });
  });

  it("partial refunds round each bonus share down, the last takes what is left, and together they equal one full refund", async () => {
    const p = await db().createPlayer();
    const { topUp: halves } = await paidTopUp(p, 200);
    expect(await refund(`pi_${halves.id}`, "re_half_1", 100)).toMatchObject({ bonus: 5, reversed: 105, owed: 0 });
    expect(await db().call(asUser(p), "get_top_up", { p_id: halves.id })).toMatchObject({
      status: "partially_refunded",
    });
    expect(await refund(`pi_${halves.id}`, "re_half_2", 100)).toMatchObject({ bonus: 5, reversed: 105, owed: 0 });
    expect(await db().credits(p)).toBe(0);
    expect(await topUpRow(halves.id)).toEqual({ status: "refunded", owed: "0.00", refunded_amount: "200.00" });

    // £123.45 with a £3.08 bonus refunded as £40 + £40 + £43.45: 3.08 × 40 / 123.45 = 0.998 rounds down
    // to £0.99 twice, and the refund that completes the top-up takes the remaining £1.10.
    const { topUp: odd } = await paidTopUp(p, 123.45);
    expect(await db().credits(p)).toBe(126.53);
    const shares: number[] = [];
    for (const [id, amount] of [
      ["re_odd_1", 40],
      ["re_odd_2", 40],
      ["re_odd_3", 43.45],
    ] as const) {
      shares.push((await refund(`pi_${odd.id}`, id, amount)).bonus);
    }
    expect(shares).toEqual([0.99, 0.99, 1.1]);
    expect(await db().credits(p)).toBe(0);
    expect(
      (await ledgerOf(p))
        .filter((l) => l.kind === "top_up_reversal" && l.reference === `top_up:${odd.id}`)
        .map((l) => l.amount),
    ).toEqual(["-40.00", "-0.99", "-40.00", "-0.99", "-43.45", "-1.10"]);

    // A refund too small to carry a penny of bonus takes back only the money; the bonus waits for the last refund.
    const { topUp: tiny } = await paidTopUp(p, 333.33); // £16.66 bonus
    expect(await refund(`pi_${tiny.id}`, "re_tiny_1", 0.01)).toMatchObject({ bonus: 0, reversed: 0.01 });
    expect(await refund(`pi_${tiny.id}`, "re_tiny_2", 333.32)).toMatchObject({ bonus: 16.66, reversed: 349.98 });
    expect(await db().credits(p)).toBe(0);
    const [{ bonuses }] = await db().sql<{ bonuses: string }>(
      "select sum(r.bonus)::text as bonuses from public.top_up_refunds r where r.top_up_id = $1",
      [tiny.id],
    );
    expect(bonuses).toBe("16.66");
  });

  it("a refund that arrives before the confirmation is applied by it, bonus share included (order does not matter)", async () => {
    const p = await db().createPlayer();
    const t = await createTopUp(p, 50);
    expect(await refund("pi_early", "re_early", 50)).toMatchObject({ status: "awaiting_confirmation", reversed: 0 });
    expect(await db().credits(p)).toBe(0);
    expect(await confirm(t.id, "pi_early", "debit", 50)).toMatchObject({ status: "refunded", balance: 0 });
    expect((await ledgerOf(p)).map((l) => [l.kind, l.amount])).toEqual([
      ["top_up", "50.00"],
      ["bonus", "1.25"],
      ["top_up_reversal", "-50.00"],
      ["top_up_reversal", "-1.25"],
    ]);
    expect(await confirm(t.id, "pi_early", "debit", 50)).toMatchObject({ status: "refunded" });
    expect(await refund("pi_early", "re_early", 50)).toMatchObject({ status: "already_recorded", bonus: 1.25 });
    expect(await db().credits(p)).toBe(0);
  });

  it("two partial refunds that arrive before the confirmation take back the money and the whole bonus", async () => {
    const p = await db().createPlayer();
    const t = await createTopUp(p, 200);
    expect(await refund("pi_early_parts", "re_early_a", 60)).toMatchObject({ status: "awaiting_confirmation" });
    expect(await refund("pi_early_parts", "re_early_b", 140)).toMatchObject({ status: "awaiting_confirmation" });
    expect(await confirm(t.id, "pi_early_parts", "debit", 200)).toMatchObject({ status: "refunded", balance: 0 });
    const rows = await db().sql<{ refund_id: string; bonus: string; reversed: string; owed: string }>(
      "select refund_id, bonus, reversed, owed from public.top_up_refunds where top_up_id = $1 order by id",
      [t.id],
    );
    expect(rows).toEqual([
      { refund_id: "re_early_a", bonus: "3.00", reversed: "63.00", owed: "0.00" },
      { refund_id: "re_early_b", bonus: "7.00", reversed: "147.00", owed: "0.00" },
    ]);
  });

  it("a refund of a payment refused over the card cap reverses nothing, bonus included", async () => {
    const p = await db().createPlayer();
    const { topUp, result } = await paidTopUp(p, 251, "credit");
    expect(result.status).toBe("refund_required");
    expect(await refund(`pi_${topUp.id}`, "re_cap", 251)).toMatchObject({
      status: "recorded",
      bonus: 0,
      reversed: 0,
      owed: 0,
    });
    expect(await db().call(asUser(p), "get_top_up", { p_id: topUp.id })).toMatchObject({
      status: "refused_card_cap",
      refusal_reason_code: "card_cap_exceeded",
    });
    expect(await ledgerOf(p)).toEqual([]);
    expect(await mailKinds(p)).toEqual(["top_up_refund"]);
    const [mail] = await refundMails(p);
    expect(mail).toContain("This payment was not credited, so your credit is unchanged.");
    expect(mail).not.toContain("Bonus");
  });
});

describe("failed, expired and out-of-order confirmations", () => {
  it("fail_top_up only moves a pending top-up; a payment confirmed after a failure or expiry is still credited", async () => {
    const p = await db().createPlayer();
    const failed = await createTopUp(p, 10);
    expect(await db().call(service, "fail_top_up", { p_top_up_id: failed.id, p_status: "failed" })).toEqual({
      status: "failed",
      top_up_id: failed.id,
    });
    expect(await confirm(failed.id, "pi_late_1", "debit", 10)).toMatchObject({ status: "credited", balance: 10 });
    // Failing it now changes nothing.
    expect(await db().call(service, "fail_top_up", { p_top_up_id: failed.id, p_status: "expired" })).toEqual({
      status: "credited",
      top_up_id: failed.id,
    });
    const expired = await createTopUp(p, 10);
    await db().call(service, "fail_top_up", { p_top_up_id: expired.id, p_status: "expired" });
    expect(await confirm(expired.id, "pi_late_2", "prepaid", 10)).toMatchObject({ status: "credited", balance: 20 });
    expect(
      await attempt(db().call(service, "fail_top_up", { p_top_up_id: expired.id, p_status: "done" })),
    ).toMatchObject({ ok: false, hint: "invalid_input" });
  });

  it("checkout sessions: attached once, found by id, unknown sessions give null", async () => {
    const p = await db().createPlayer();
    const t = await createTopUp(p, 10);
    await db().call(service, "attach_checkout_session", { p_top_up_id: t.id, p_session_id: "cs_test_1" });
    await db().call(service, "attach_checkout_session", { p_top_up_id: t.id, p_session_id: "cs_test_1" });
    expect(
      await attempt(db().call(service, "attach_checkout_session", { p_top_up_id: t.id, p_session_id: "cs_test_2" })),
    ).toMatchObject({ ok: false, hint: "invalid_input" });
    expect(await db().call(service, "find_top_up_by_session", { p_session_id: "cs_test_1" })).toBe(t.id);
    expect(await db().call(service, "find_top_up_by_session", { p_session_id: "cs_unknown" })).toBeNull();
  });
});

describe("bad input writes nothing", () => {
  it.each([
    ["1.005", "invalid_input"],
    ["-10", "invalid_input"],
    ["NaN", "invalid_input"],
    ["5000.01", "top_up_above_maximum"],
    ["4", "top_up_below_minimum"],
  ])("create_top_up(%s) is refused with %s", async (amount, hint) => {
    const p = await db().createPlayer();
    expect(await attempt(createTopUp(p, amount))).toMatchObject({ ok: false, hint });
    expect(await db().sql("select 1 from public.top_ups where user_id = $1", [p])).toEqual([]);
  });

  it("unknown providers and malformed purposes are refused", async () => {
    const p = await db().createPlayer();
    const bad = await attempt(
      db().call(asUser(p), "create_top_up", { p_amount: 10, p_provider: "paypal", p_purpose: null }),
    );
    expect(bad).toMatchObject({ ok: false, hint: "invalid_input" });
    for (const purpose of [
      [],
      { quantity: 1 },
      { competition_id: "not-a-uuid", quantity: 1 },
      { competition_id: crypto.randomUUID(), quantity: 1.5 },
      { competition_id: crypto.randomUUID(), quantity: 0 },
      { competition_id: crypto.randomUUID(), quantity: "2" },
    ]) {
      expect(await attempt(createTopUp(p, 10, purpose)), JSON.stringify(purpose)).toMatchObject({
        ok: false,
        hint: "invalid_input",
      });
    }
    expect(await attempt(createTopUp(p, 10, { competition_id: crypto.randomUUID(), quantity: 1 }))).toMatchObject({
      ok: false,
      hint: "competition_not_found",
    });
    expect(await db().sql("select 1 from public.top_ups where user_id = $1", [p])).toEqual([]);
  });

  it("a forged top-up id: another player's or an unknown one is top_up_not_found", async () => {
    const owner = await db().createPlayer();
    const other = await db().createPlayer();
    const t = await createTopUp(owner, 10);
    for (const [uid, id] of [
      [other, t.id],
      [owner, crypto.randomUUID()],
    ]) {
      expect(await attempt(db().call(asUser(uid), "get_top_up", { p_id: id }))).toMatchObject({
        ok: false,
        message: "Top-up not found",
        hint: "top_up_not_found",
      });
    }
    expect(await attempt(confirm(crypto.randomUUID(), "pi_forged", "debit", 10))).toMatchObject({
      ok: false,
      hint: "top_up_not_found",
    });
    expect(await attempt(confirm(t.id, "pi_bad_funding", "paypal", 10))).toMatchObject({
      ok: false,
      hint: "invalid_input",
    });
    expect(await attempt(confirm(t.id, "pi_nan", "debit", "NaN"))).toMatchObject({ ok: false, hint: "invalid_input" });
    expect(await attempt(db().call(anon, "create_top_up", { p_amount: 10, p_provider: "test" }))).toMatchObject({
      ok: false,
    });
    expect(await db().credits(owner)).toBe(0);
    expect(await db().sql("select status, payment_id from public.top_ups where id = $1", [t.id])).toEqual([
      { status: "pending", payment_id: null },
    ]);
  });

  it("players not approved, or rejected, cannot top up", async () => {
    const admin = await db().createAdmin();
    const pending = await db().createUser();
    const rejected = await db().createUser();
    await db().call(asUser(admin), "admin_reject_user", { p_user_id: rejected, p_reason: "Could not verify" });
    expect(await attempt(createTopUp(pending, 10))).toMatchObject({ ok: false, hint: "approval_pending" });
    expect(await attempt(createTopUp(rejected, 10))).toMatchObject({ ok: false, hint: "approval_rejected" });
    expect(await db().call(asUser(pending), "quote_top_up", { p_amount: 10 })).toMatchObject({
      refusal: { code: "approval_pending" },
    });
  });
});

describe("a top-up that pays for an entry", () => {
  it("makes the entry once when credited, and get_top_up shows the tickets", async () => {
    const admin = await db().createAdmin();
    const comp = await db().createCompetition(admin, { ticket_price: "2.50" });
    const p = await db().createPlayer({ credits: "1.00" });
    const t = await createTopUp(p, 5, { competition_id: comp, quantity: 2, answer: "4" });
    await confirm(t.id, "pi_entry", "debit", 5);
    await confirm(t.id, "pi_entry", "debit", 5);
    const got = await db().call<{ entry: { entry_id: string; ticket_numbers: number[]; competition_slug: string } }>(
      asUser(p),
      "get_top_up",
      { p_id: t.id },
    );
    expect(got.entry.ticket_numbers).toEqual([1, 2]);
    expect(got.entry.competition_slug).toMatch(/^test-prize-/);
    expect(await db().sql("select count(*)::int as n from public.entries where user_id = $1", [p])).toEqual([{ n: 1 }]);
    expect(await db().credits(p)).toBe(1);
    expect((await ledgerOf(p)).map((l) => l.kind)).toEqual(["admin_adjustment", "top_up", "entry"]);
  });

  it("if the competition sold out meanwhile, the credit stays and the entry error is recorded", async () => {
    const admin = await db().createAdmin();
    const comp = await db().createCompetition(admin, { total_tickets: 2, max_tickets_per_user: 2 });
    const p = await db().createPlayer();
    const t = await createTopUp(p, 5, { competition_id: comp, quantity: 2, answer: "4" });
    const rival = await db().createPlayer({ credits: 5 });
    await db().call(asUser(rival), "enter_competition", { p_competition_id: comp, p_quantity: 2, p_answer: "4" });
    expect(await confirm(t.id, "pi_soldout", "debit", 5)).toMatchObject({ status: "credited", balance: 5 });
    expect(await db().call(asUser(p), "get_top_up", { p_id: t.id })).toMatchObject({
      status: "credited",
      entry: null,
      entry_error: { code: "competition_sold_out", message: "This competition has sold out" },
    });
    expect(await db().sql("select 1 from public.entries where user_id = $1", [p])).toEqual([]);
  });
});

describe("ledger page and CSV", () => {
  it("pages by id, filters by kind and month, totals the whole filter, and the CSV matches", async () => {
    const p = await db().createPlayer();
    for (const amount of [10, 60, 200]) await paidTopUp(p, amount);
    await db().call(service, "add_credits", { user_id: p, amount: 0.25 });
    const all = await db().ledger(p);
    expect(all).toHaveLength(6); // 3 top-ups, 2 bonuses, 1 adjustment
    type Page = {
      rows: Array<{ id: number; kind: string; amount: number }>;
      next_before: number | null;
      totals: { count: number; credits_in: number; credits_out: number; net: number };
    };
    const page = (args: Record<string, unknown>) => db().call<Page>(asUser(p), "get_my_ledger_page", args);
    const first = await page({ p_limit: 4 });
    expect(first.rows.map((r) => r.id)).toEqual(
      all
        .map((r) => Number((r as unknown as { id: string }).id))
        .reverse()
        .slice(0, 4),
    );
    expect(first.totals).toEqual({ count: 6, credits_in: 281.75, credits_out: 0, net: 281.75 });
    const second = await page({ p_limit: 4, p_before: first.next_before });
    expect(second.rows).toHaveLength(2);
    expect(second.next_before).toBeNull();
    const bonuses = await page({ p_kind: "bonus" });
    expect(bonuses.rows.map((r) => r.amount)).toEqual([10, 1.5]);
    expect(bonuses.totals).toEqual({ count: 2, credits_in: 11.5, credits_out: 0, net: 11.5 });
    const thisMonth = await page({ p_month: new Date().toISOString().slice(0, 10) });
    expect(thisMonth.totals.count).toBe(6);
    const lastYear = await page({ p_month: "2020-01-15" });
    expect(lastYear).toEqual({
      rows: [],
      next_before: null,
      totals: { count: 0, credits_in: 0, credits_out: 0, net: 0 },
    });
    expect(await attempt(page({ p_kind: "cash" }))).toMatchObject({ ok: false, hint: "invalid_input" });

    const csv = await db().call<string>(asUser(p), "get_my_ledger_csv", {});
    const lines = csv.trimEnd().split("\n");
    expect(lines[0]).toBe("date,kind,amount,balance_after,reference,reason");
    expect(lines).toHaveLength(8);
    expect(lines[1]).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,top_up,10\.00,10\.00,top_up:[0-9a-f-]{36},Top-up by debit card$/,
    );
    expect(lines[7]).toBe("total,,281.75,,,");
    const sum = lines.slice(1, 7).reduce((s, l) => s + Math.round(Number(l.split(",")[2]) * 100), 0);
    expect(sum).toBe(28175);
    const bonusCsv = await db().call<string>(asUser(p), "get_my_ledger_csv", { p_kind: "bonus" });
    expect(bonusCsv.trimEnd().split("\n").at(-1)).toBe("total,,11.50,,,");
  });

  it("CSV fields are quoted and spreadsheet formulas defused", async () => {
    const admin = await db().createAdmin();
    const comp = await db().createCompetition(admin, { title: '=HYPERLINK("x"), "quoted"' });
    const p = await db().createPlayer({ credits: 5 });
    await db().call(asUser(p), "enter_competition", { p_competition_id: comp, p_quantity: 1, p_answer: "4" });
    const csv = await db().call<string>(asUser(p), "get_my_ledger_csv", { p_kind: "entry" });
    expect(csv.split("\n")[1]).toMatch(
      /,entry,-1\.00,4\.00,entry:[0-9a-f-]{36},"Entry: =HYPERLINK\(""x""\), ""quoted"" \(1 ticket\)"$/,
    );
    expect(csv.split("\n")[2]).toBe("total,,-1.00,,,");
  });
});
