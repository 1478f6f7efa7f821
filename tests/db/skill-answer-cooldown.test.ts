// A wrong skill answer costs a wait: enter_competition keeps the miss (its refusal is
// returned, not raised, so the record commits) and refuses that player in that competition, whatever they
// answer, for skill_answer_cooldown_minutes; other competitions and other players are not affected.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, attempt, dbPerFile, service } from "./support";
import { wrongAnswerWait } from "../support/wrong-answer-wait";

const db = dbPerFile();
let admin: string;

beforeAll(async () => {
  admin = await db().createAdmin();
});

type Refused = { refused: { code: string; message: string; retry_at: string | null } };
type Entered = { entry_id: string; ticket_numbers: number[] };
type Quote = { skill_retry_at: string | null };

const enter = (uid: string, id: string, answer: string) =>
  db().call<Refused | Entered>(asUser(uid), "enter_competition", {
    p_competition_id: id,
    p_quantity: 1,
    p_answer: answer,
  });

/** The refusal a call raised (fails the test when it succeeded). */
async function refusal(call: Promise<unknown>): Promise<{ message: string; hint?: string }> {
  const result = await attempt(call);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result;
}

/** Moves the player's recorded miss back, as if the minutes had passed. */
const missedAgo = (uid: string, id: string, minutes: number) =>
  db().sql(
    `update public.skill_answer_misses set missed_at = now() - make_interval(mins => $3)
      where user_id = $1 and competition_id = $2`,
    [uid, id, minutes],
  );

const londonHHMM = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", hour: "2-digit", minute: "2-digit" }).format(
    new Date(iso),
  );

describe("a wrong skill answer", () => {
  it("is kept and answered as a refusal, charging nothing", async () => {
    const player = await db().createPlayer({ credits: 10 });
    const id = await db().createCompetition(admin);
    const result = (await enter(player, id, "5")) as Refused;
    expect(result.refused.code).toBe("answer_incorrect");
    expect(result.refused.retry_at).not.toBeNull();
    const retry = new Date(result.refused.retry_at!).getTime();
    expect(retry - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(retry - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(result.refused.message).toBe(
      `That answer is not correct. You can try again at ${londonHHMM(result.refused.retry_at!)}`,
    );
    expect(await db().credits(player)).toBe(10);
    expect(await db().sql("select 1 from public.tickets where competition_id = $1", [id])).toEqual([]);
    const [miss] = await db().sql<{ misses: number }>(
      "select misses from public.skill_answer_misses where user_id = $1 and competition_id = $2",
      [player, id],
    );
    expect(miss.misses).toBe(1);
  });

  it("refuses the player for 10 minutes even with the right answer, then lets them in", async () => {
    const player = await db().createPlayer({ credits: 10 });
    const id = await db().createCompetition(admin);
    await enter(player, id, "3");
    const refused = await refusal(enter(player, id, "4"));
    expect(refused.hint).toBe("skill_answer_cooldown");
    expect(refused.message).toMatch(wrongAnswerWait("You gave a wrong answer."));
    const quote = await db().call<Quote>(asUser(player), "get_entry_quote", { p_competition_id: id });
    expect(quote.skill_retry_at).not.toBeNull();
    expect(refused.message).toContain(londonHHMM(quote.skill_retry_at!));

    await missedAgo(player, id, 9);
    expect((await refusal(enter(player, id, "4"))).hint).toBe("skill_answer_cooldown");
    await missedAgo(player, id, 10);
    const entered = (await enter(player, id, "4")) as Entered;
    expect(entered.ticket_numbers).toEqual([1]);
    expect(
      (await db().call<Quote>(asUser(player), "get_entry_quote", { p_competition_id: id })).skill_retry_at,
    ).toBeNull();
    expect(await db().credits(player)).toBe(9);
  });

  it("does not close another competition, nor the question to another player", async () => {
    const player = await db().createPlayer({ credits: 10 });
    const other = await db().createPlayer({ credits: 10 });
    const id = await db().createCompetition(admin);
    const second = await db().createCompetition(admin);
    await enter(player, id, "5");
    expect(((await enter(player, second, "4")) as Entered).ticket_numbers).toEqual([1]);
    expect(((await enter(other, id, "4")) as Entered).ticket_numbers).toEqual([1]);
    expect((await refusal(enter(player, id, "4"))).hint).toBe("skill_answer_cooldown");
  });

  it("waits as long as the setting says (0: no wait), and the setting is checked", async () => {
    const player = await db().createPlayer({ credits: 10 });
    const id = await db().createCompetition(admin);
    const save = (value: unknown) =>
      db().rpc(asUser(admin), "admin_update_settings", { p: { skill_answer_cooldown_minutes: value } });
    const settings = await db().call<{ settings: Record<string, unknown> }>(asUser(admin), "admin_get_settings");
    expect(settings.settings.skill_answer_cooldown_minutes).toBe(10);
    for (const bad of [-1, 1441, 2.5, "10", null]) {
      const res = await save(bad);
      expect(res.error, JSON.stringify(bad)).toMatchObject({ hint: "invalid_input" });
    }
    try {
      expect((await save(30)).error).toBeNull();
      await enter(player, id, "5");
      await missedAgo(player, id, 20);
      expect((await refusal(enter(player, id, "4"))).hint).toBe("skill_answer_cooldown");
      await missedAgo(player, id, 31);
      expect(((await enter(player, id, "4")) as Entered).ticket_numbers).toEqual([1]);

      expect((await save(0)).error).toBeNull();
      const noWait = (await enter(player, id, "5")) as Refused;
      expect(noWait.refused).toEqual({
        code: "answer_incorrect",
        message: "That answer is not correct.",
        retry_at: null,
      });
      expect(((await enter(player, id, "4")) as Entered).ticket_numbers).toEqual([2]);
    } finally {
      await save(10);
    }
  });

  it("every other refusal still raises, and still comes before the wait", async () => {
    const player = await db().createPlayer({ credits: 0 });
    const id = await db().createCompetition(admin);
    expect((await refusal(enter(player, id, "4"))).hint).toBe("insufficient_credit");
    await enter(player, id, "5");
    expect((await refusal(enter(player, id, ""))).hint).toBe("answer_required");
    const pending = await db().createUser({ credits: 10 });
    expect((await refusal(enter(pending, id, "5"))).hint).toBe("approval_pending");
  });
});

describe("an entry paid for by a top-up", () => {
  it("keeps a wrong answer as a miss too, so one top-up per answer cannot find the right one", async () => {
    const player = await db().createPlayer({ credits: 0 });
    const id = await db().createCompetition(admin);
    const topUp = await db().call<{ id: string }>(asUser(player), "create_top_up", {
      p_amount: 10,
      p_provider: "test",
      p_purpose: { competition_id: id, quantity: 1, answer: "5" },
    });
    await db().call(service, "confirm_top_up", {
      p_top_up_id: topUp.id,
      p_payment_id: `pi_${topUp.id}`,
      p_funding: "debit",
      p_amount_paid: 10,
    });
    const [row] = await db().sql<{ entry_error_code: string }>(
      "select entry_error_code from public.top_ups where id = $1",
      [topUp.id],
    );
    expect(row.entry_error_code).toBe("answer_incorrect");
    // The credit is kept, and the question is closed to them for the wait, right answer or not.
    expect(await db().credits(player)).toBe(10);
    expect(await refusal(enter(player, id, "4"))).toMatchObject({ hint: "skill_answer_cooldown" });
  });
});
