// Instant wins: prizes attached to a draft and refused after publishing or beyond the
// tickets; numbers nobody can read before the draw; awards in the buying transaction, once each; the
// commitment reproduced from the revealed seed; the code-of-practice rules (credit-card credit, the
// live majority, breaks). Real PGlite through the RPCs the pages call.
import { beforeAll, describe, expect, it } from "vitest";
import { verifyInstantWins, type PublishedInstantWins } from "@/lib/instant-wins/derive";
import { anon, asUser, attempt, dbPerFile, service, type CompetitionFields } from "./support";

const db = dbPerFile();
let admin: string;

type Prize = { kind: "credit" | "spin" | "physical"; title?: string; credit_amount?: number; quantity: number };

/** A draft with instant-win prizes, published unless told not to. */
async function instantWinCompetition(prizes: Prize[], fields: CompetitionFields = {}, publish = true) {
  const id = await db().createCompetition(
    admin,
    { skill_question: null, skill_options: null, skill_answer: null, ...fields },
    false,
  );
  await db().call(asUser(admin), "admin_set_instant_win_prizes", { p_competition_id: id, p_prizes: prizes });
  if (publish) await db().call(asUser(admin), "admin_publish_competition", { p_id: id });
  const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [id]);
  return { id, slug };
}

/** A purchase; on a pick competition `numbers` are the chosen ones (null: a lucky dip of `quantity`). */
const enter = (uid: string, competitionId: string, quantity: number, numbers: number[] | null = null) =>
  db().call<{
    ticket_numbers: number[];
    balance: string;
    instant_wins: { ticket_number: number; kind: string; prize: string }[];
  }>(asUser(uid), "enter_competition", {
    p_competition_id: competitionId,
    p_quantity: quantity,
    p_answer: null,
    p_numbers: numbers,
  });

const topUp = (uid: string, amount: number, funding: "debit" | "credit") => db().paidTopUp(uid, amount, funding);

const cardCredit = async (uid: string) => Number((await db().account(uid)).card_credit);

async function drawNow(id: string) {
  await db().sql(
    `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
            postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
    [id],
  );
  await db().call(asUser(admin), "run_due_draws");
}

beforeAll(async () => {
  admin = await db().createAdmin();
  // Ordinary live competitions, so instant-win ones stay a minority (code of practice 1.10).
  for (let i = 0; i < 6; i++)
    await db().createCompetition(admin, { skill_question: null, skill_options: null, skill_answer: null });
});

describe("attaching instant wins", () => {
  it("an admin sets a draft's prizes; refused to players, beyond the tickets, when malformed and once published", async () => {
    const { id } = await instantWinCompetition(
      [{ kind: "credit", credit_amount: 5, quantity: 2 }],
      { total_tickets: 10 },
      false,
    );
    const player = await db().createPlayer();
    const set = (caller: string, prizes: unknown) =>
      attempt(db().call(asUser(caller), "admin_set_instant_win_prizes", { p_competition_id: id, p_prizes: prizes }));

    expect(await set(player, [])).toMatchObject({ ok: false, hint: "admin_required" });
    expect(
      await set(admin, [
        { kind: "credit", credit_amount: 1, quantity: 6 },
        { kind: "spin", quantity: 5 },
      ]),
    ).toMatchObject({
      ok: false,
      hint: "instant_wins_exceed_tickets",
    });
    expect(await set(admin, [{ kind: "credit", quantity: 1 }])).toMatchObject({ ok: false, hint: "invalid_input" });
    expect(await set(admin, [{ kind: "jackpot", quantity: 1 }])).toMatchObject({ ok: false, hint: "invalid_input" });
    const ok = await set(admin, [
      { kind: "credit", credit_amount: 2.5, quantity: 3 },
      { kind: "physical", title: "AirPods", quantity: 1 },
    ]);
    expect(ok).toMatchObject({
      ok: true,
      value: {
        prizes: [
          { position: 1, title: "£2.50 credit", quantity: 3 },
          { position: 2, title: "AirPods", kind: "physical" },
        ],
      },
    });
    // The draft's total can no longer shrink below the prizes at publish.
    await db().call(asUser(admin), "admin_update_competition", {
      p_id: id,
      p: { total_tickets: 3, max_tickets_per_user: 3 },
    });
    expect(await attempt(db().call(asUser(admin), "admin_publish_competition", { p_id: id }))).toMatchObject({
      ok: false,
      hint: "instant_wins_exceed_tickets",
    });
    await db().call(asUser(admin), "admin_update_competition", { p_id: id, p: { total_tickets: 10 } });
    await db().call(asUser(admin), "admin_publish_competition", { p_id: id });
    expect(await set(admin, [])).toMatchObject({ ok: false, hint: "instant_wins_locked" });
    expect(
      await attempt(db().call(asUser(admin), "admin_update_competition", { p_id: id, p: { total_tickets: 20 } })),
    ).toMatchObject({ ok: false, hint: "instant_wins_locked" });
  });

  it("nobody reads the numbers before the draw: not anon, a player, an admin nor the secret key", async () => {
    const { slug } = await instantWinCompetition([{ kind: "spin", quantity: 3 }], { total_tickets: 50 });
    const player = await db().createPlayer();
    for (const caller of [anon, asUser(player), asUser(admin), service]) {
      const res = await db().as(caller, "select * from public.instant_win_numbers");
      expect(res.error?.code, JSON.stringify(caller)).toBe("42501");
    }
    const published = await db().call<PublishedInstantWins>(anon, "get_instant_wins", { p_slug: slug });
    expect(published).toMatchObject({ seed_hex: null, numbers: null, ticket_count: 50 });
    expect(published.commitment).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("buying a winning number", () => {
  it("e-mails an instant win only to a player who keeps e-mail notifications on; the notice and receipt come anyway", async () => {
    const { id } = await instantWinCompetition([{ kind: "credit", credit_amount: 2, quantity: 2 }], {
      total_tickets: 2,
      ticket_price: 1,
    });
    const on = await db().createPlayer({ name: "Ona Mailed", credits: 5 });
    const off = await db().createPlayer({ name: "Oft Quiet", credits: 5 });
    await db().call(asUser(off), "update_my_profile", { p_email_notifications: false });
    for (const player of [on, off]) expect((await enter(player, id, 1)).instant_wins).toHaveLength(1);
    const mail = await db().sql<{ to_user: string; kind: string }>(
      "select to_user, kind from public.mail_outbox where to_user = any($1) order by kind, to_user = $2",
      [[on, off], off],
    );
    expect(mail).toEqual([
      { to_user: on, kind: "entry_receipt" },
      { to_user: off, kind: "entry_receipt" },
      { to_user: on, kind: "instant_win" },
    ]);
    expect(
      await db().sql(
        "select count(*)::int n from public.notifications where user_id = $1 and ref like 'instant_win:%'",
        [off],
      ),
    ).toEqual([{ n: 1 }]);
  });

  it("awards each prize once in the purchase: credit in the ledger, a spin credit, a physical prize to fulfil, mail and notice", async () => {
    // Every ticket wins: three tickets, three prizes.
    const { id, slug } = await instantWinCompetition(
      [
        { kind: "credit", credit_amount: 5, quantity: 1 },
        { kind: "spin", quantity: 1 },
        { kind: "physical", title: "A signed print", quantity: 1 },
      ],
      { total_tickets: 3, ticket_price: 1 },
    );
    const player = await db().createPlayer({ name: "Nia Jones", credits: 10 });
    const bought = await enter(player, id, 3);
    expect(bought.instant_wins.map((w) => w.kind).sort()).toEqual(["credit", "physical", "spin"]);
    expect(Number(bought.balance)).toBe(12); // 10 − 3 + 5
    const ledger = await db().sql<{ kind: string; amount: string }>(
      "select kind, amount from public.credit_ledger where user_id = $1 and kind = 'instant_win'",
      [player],
    );
    expect(ledger).toEqual([{ kind: "instant_win", amount: "5.00" }]);
    expect(await db().sql("select reference from public.spinner_grants where user_id = $1", [player])).toHaveLength(1);
    const spins = await db().call<{ credits: { postal_available: number } }>(asUser(player), "get_my_spinner");
    expect(spins.credits.postal_available).toBe(1);
    expect(
      await db().sql("select status from public.instant_wins where competition_id = $1 order by status", [id]),
    ).toEqual([{ status: "awaiting_fulfilment" }, { status: "awarded" }, { status: "awarded" }]);
    // The physical prize is the admin's to deliver; credit and the spin are already the player's.
    const fulfilment = await db().call<{ id: string; prize: string; status: string; email: string }[]>(
      asUser(admin),
      "admin_list_instant_win_fulfilment",
    );
    const print = fulfilment.find((f) => f.prize === "A signed print")!;
    expect(print).toMatchObject({ status: "awaiting_fulfilment", email: expect.stringMatching(/@labcash\.test$/) });
    expect(
      await attempt(db().call(asUser(player), "admin_mark_instant_win_delivered", { p_id: print.id })),
    ).toMatchObject({
      ok: false,
      hint: "admin_required",
    });
    await db().call(asUser(admin), "admin_mark_instant_win_delivered", { p_id: print.id });
    expect(
      await attempt(db().call(asUser(admin), "admin_mark_instant_win_delivered", { p_id: print.id })),
    ).toMatchObject({
      ok: false,
      hint: "instant_win_not_found",
    });
    expect(
      await db().sql("select count(*)::int n from public.mail_outbox where to_user = $1 and kind = 'instant_win'", [
        player,
      ]),
    ).toEqual([{ n: 3 }]);
    // One notice per win, and one when the print was delivered.
    expect(
      await db().sql(
        "select count(*)::int n from public.notifications where user_id = $1 and ref like 'instant_win:%'",
        [player],
      ),
    ).toEqual([{ n: 4 }]);
    const listed = await db().call<PublishedInstantWins>(anon, "get_instant_wins", { p_slug: slug });
    expect(listed.wins.map((w) => w.display_name)).toEqual(["Nia J.", "Nia J.", "Nia J."]);
    expect(listed.prizes.map((p) => (p as unknown as { won: number }).won)).toEqual([1, 1, 1]);
    // The award is once per ticket: running it again for the same entry gives nothing more.
    const [{ entry_id }] = await db().sql<{ entry_id: string }>(
      "select entry_id from public.tickets where competition_id = $1 limit 1",
      [id],
    );
    expect(await db().sql("select private.award_instant_wins($1) w", [entry_id])).toEqual([{ w: [] }]);
    expect(await db().sql("select count(*)::int n from public.instant_wins where competition_id = $1", [id])).toEqual([
      { n: 3 },
    ]);
  });

  it("50 concurrent buyers: each winning number awarded exactly once, to its holder", async () => {
    const { id } = await instantWinCompetition(
      [
        { kind: "credit", credit_amount: 1, quantity: 6 },
        { kind: "spin", quantity: 4 },
      ],
      { total_tickets: 40, max_tickets_per_user: 2 },
    );
    const buyers = await Promise.all(Array.from({ length: 50 }, () => db().createPlayer({ credits: 5 })));
    const results = await Promise.allSettled(buyers.map((b, i) => enter(b, id, 1 + (i % 2))));
    const reported = results.flatMap((r) =>
      r.status === "fulfilled" ? r.value.instant_wins.map((w) => w.ticket_number) : [],
    );
    const wins = await db().sql<{ ticket_number: number; holder: boolean }>(
      `select w.ticket_number, w.user_id = t.user_id as holder from public.instant_wins w join public.tickets t on t.id = w.ticket_id
        where w.competition_id = $1 order by 1`,
      [id],
    );
    expect(wins).toHaveLength(10);
    expect(wins.every((w) => w.holder)).toBe(true);
    expect(reported.sort((a, b) => a - b)).toEqual(wins.map((w) => w.ticket_number));
    expect(
      await db().sql(
        "select count(*)::int n from public.credit_ledger where kind = 'instant_win' and user_id = any($1)",
        [buyers],
      ),
    ).toEqual([{ n: 6 }]);
  });

  it("a postal entry wins on equal terms: its place after the online pool is checked against the same numbers", async () => {
    const { id } = await instantWinCompetition([{ kind: "credit", credit_amount: 3, quantity: 2 }], {
      total_tickets: 2,
      ticket_price: 1,
    });
    const player = await db().createPlayer({ name: "Omar Farouk" });
    // Stamp parity at £1 a ticket: one letter, one ticket numbered 3 = place 1 of the postal numbering.
    const postal = await db().call<{ ticket_numbers: number[]; instant_wins: { ticket_number: number }[] }>(
      asUser(admin),
      "admin_record_postal_entry",
      {
        p_competition_id: id,
        p_user_id: player,
        p_name: "Omar Farouk",
        p_address: "1 High St, Leeds LS1 1AA",
        p_answer: null,
      },
    );
    expect(postal.ticket_numbers).toEqual([3]);
    expect(postal.instant_wins).toEqual([expect.objectContaining({ ticket_number: 3, kind: "credit" })]);
    expect(await db().credits(player)).toBe(3);
  });

  it("after the draw the seed and numbers are public and every award verifies against the commitment", async () => {
    const { id, slug } = await instantWinCompetition(
      [
        { kind: "credit", credit_amount: 1, quantity: 4 },
        { kind: "spin", quantity: 3 },
      ],
      { total_tickets: 20 },
    );
    const buyer = await db().createPlayer({ name: "Kai Lee", credits: 20 });
    await enter(buyer, id, 20);
    await drawNow(id);
    const published = await db().call<PublishedInstantWins>(anon, "get_instant_wins", { p_slug: slug });
    expect(published.wins).toHaveLength(7);
    expect(published.numbers).toHaveLength(7);
    const [{ seed }] = await db().sql<{ seed: string }>(
      "select encode(seed, 'hex') seed from public.competition_seeds where competition_id = $1",
      [id],
    );
    expect(published.seed_hex).toBe(seed);
    const checks = await verifyInstantWins(id, published);
    expect(checks).toHaveLength(2 + 7);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    // A tampered list fails.
    const tampered = {
      ...published,
      wins: published.wins.map((w, i) => (i === 0 ? { ...w, prize_position: w.prize_position === 1 ? 2 : 1 } : w)),
    };
    expect((await verifyInstantWins(id, tampered)).filter((c) => !c.ok)).toHaveLength(1);
    expect((await verifyInstantWins(id, { ...published, commitment: "0".repeat(64) }))[0].ok).toBe(false);
  });
});

describe("instant wins on a pick-your-numbers competition", () => {
  beforeAll(async () => {
    // As many ordinary live competitions as this block publishes instant-win ones (code of practice 1.10).
    for (let i = 0; i < 5; i++)
      await db().createCompetition(admin, { skill_question: null, skill_options: null, skill_answer: null });
  });

  const pick = (prizes: Prize[], fields: CompetitionFields) =>
    instantWinCompetition(prizes, { ticket_numbering: "pick", ...fields });

  /** The secret winning numbers, read as the database owner (no API role can). */
  const winningNumbers = async (id: string) =>
    (
      await db().sql<{ number: number }>(
        "select number from public.instant_win_numbers where competition_id = $1 order by slot",
        [id],
      )
    ).map((r) => r.number);

  const awards = (id: string) =>
    db().sql<{ ticket_number: number; user_id: string | null }>(
      "select ticket_number, user_id from public.instant_wins where competition_id = $1 order by ticket_number",
      [id],
    );

  it("a player who picks a winning number is awarded once, in the purchase, with the balance after the award", async () => {
    const { id } = await pick([{ kind: "credit", credit_amount: 3, quantity: 1 }], {
      total_tickets: 20,
      ticket_price: 1,
    });
    const [won] = await winningNumbers(id);
    const other = won === 20 ? 19 : won + 1;
    const player = await db().createPlayer({ credits: 10 });
    const bought = await enter(player, id, 2, [other, won]);
    expect(bought.ticket_numbers).toEqual([other, won].sort((a, b) => a - b));
    expect(bought.instant_wins).toEqual([expect.objectContaining({ ticket_number: won, kind: "credit" })]);
    expect(Number(bought.balance)).toBe(11); // 10 − 2 + 3
    expect(await db().credits(player)).toBe(11);
    expect(await awards(id)).toEqual([{ ticket_number: won, user_id: player }]);
    const [{ entry_id }] = await db().sql<{ entry_id: string }>(
      "select entry_id from public.tickets where competition_id = $1 and number = $2",
      [id, won],
    );
    expect(await db().sql("select private.award_instant_wins($1) w", [entry_id])).toEqual([{ w: [] }]);
    expect(await awards(id)).toHaveLength(1);
    // The receipt lists the chosen numbers and the credit after the win.
    const [mail] = await db().sql<{ body: string }>(
      "select body_text as body from public.mail_outbox where to_user = $1 and kind = 'entry_receipt'",
      [player],
    );
    expect(mail.body).toContain(`#${Math.min(other, won)}, #${Math.max(other, won)}`);
    expect(mail.body).toContain("Credit left: £11.00");
  });

  it("a lucky dip that lands on winning numbers is awarded", async () => {
    // Every number wins, so wherever the dip lands it wins.
    const { id } = await pick([{ kind: "spin", quantity: 4 }], { total_tickets: 4, max_tickets_per_user: 4 });
    const player = await db().createPlayer({ credits: 10 });
    const dip = await enter(player, id, 2);
    expect(dip.ticket_numbers).toHaveLength(2);
    expect(dip.instant_wins.map((w) => w.ticket_number)).toEqual(dip.ticket_numbers);
    expect((await awards(id)).map((a) => a.ticket_number)).toEqual(dip.ticket_numbers);
    expect(await db().sql("select count(*)::int n from public.spinner_grants where user_id = $1", [player])).toEqual([
      { n: 2 },
    ]);
  });

  it("two players racing for one winning number: one ticket, one award, the loser refused number_taken with nothing charged", async () => {
    const { id } = await pick([{ kind: "credit", credit_amount: 5, quantity: 1 }], {
      total_tickets: 10,
      ticket_price: 1,
    });
    const [won] = await winningNumbers(id);
    const players = await Promise.all([1, 2].map(() => db().createPlayer({ credits: 4 })));
    const results = await Promise.allSettled(players.map((p) => enter(p, id, 1, [won])));
    const winner = results.findIndex((r) => r.status === "fulfilled");
    expect(winner).toBeGreaterThanOrEqual(0);
    const loser = players[1 - winner];
    const refused = results[1 - winner];
    expect(refused.status).toBe("rejected");
    expect(await attempt(Promise.reject((refused as PromiseRejectedResult).reason))).toMatchObject({
      ok: false,
      hint: "number_taken",
    });
    expect(await db().sql("select count(*)::int n from public.tickets where competition_id = $1", [id])).toEqual([
      { n: 1 },
    ]);
    expect(await awards(id)).toEqual([{ ticket_number: won, user_id: players[winner] }]);
    expect(await db().credits(players[winner])).toBe(8); // 4 − 1 + 5
    expect(await db().credits(loser)).toBe(4);
    expect(await db().ledger(loser)).toHaveLength(1); // only the starting credit
  });

  it("credit bought by credit card is not spent on picked numbers either", async () => {
    const { id } = await pick([{ kind: "spin", quantity: 1 }], { total_tickets: 10, ticket_price: 2 });
    const player = await db().createPlayer();
    await topUp(player, 10, "credit");
    expect(await attempt(enter(player, id, 1, [3]))).toMatchObject({ ok: false, hint: "instant_win_card_credit" });
    expect(await db().sql("select count(*)::int n from public.tickets where competition_id = $1", [id])).toEqual([
      { n: 0 },
    ]);
    // With other credit held, the picked number is bought from it and the card credit stays.
    await topUp(player, 5, "debit");
    await enter(player, id, 1, [3]);
    expect({ credits: await db().credits(player), card: await cardCredit(player) }).toEqual({ credits: 13, card: 10 });
  });

  it("a postal entry gets a number after the pool and wins on equal terms, even a number also won online", async () => {
    // Every number wins: online #1 wins, and the postal ticket N + 1 wins because number 1 is a winning number too.
    const { id } = await pick([{ kind: "credit", credit_amount: 2, quantity: 3 }], {
      total_tickets: 3,
      ticket_price: 1,
    });
    const online = await db().createPlayer({ credits: 5 });
    expect((await enter(online, id, 1, [1])).instant_wins).toHaveLength(1);
    const byPost = await db().createPlayer({ name: "Ada Post" });
    const postal = await db().call<{ ticket_numbers: number[]; instant_wins: { ticket_number: number }[] }>(
      asUser(admin),
      "admin_record_postal_entry",
      {
        p_competition_id: id,
        p_user_id: byPost,
        p_name: "Ada Post",
        p_address: "2 High St, York YO1 1AA",
        p_answer: null,
      },
    );
    expect(postal.ticket_numbers).toEqual([4]);
    expect(postal.instant_wins).toEqual([expect.objectContaining({ ticket_number: 4, kind: "credit" })]);
    expect(await db().credits(byPost)).toBe(2);
    expect(await awards(id)).toEqual([
      { ticket_number: 1, user_id: online },
      { ticket_number: 4, user_id: byPost },
    ]);
  });
});

describe("code of practice", () => {
  it("credit bought by credit card is not spent on instant wins; other credit is spent first everywhere", async () => {
    const { id } = await instantWinCompetition([{ kind: "spin", quantity: 1 }], {
      total_tickets: 100,
      ticket_price: 2,
    });
    const ordinary = await db().createCompetition(admin, {
      skill_question: null,
      skill_options: null,
      skill_answer: null,
      ticket_price: 2,
    });
    const player = await db().createPlayer();
    await topUp(player, 10, "credit");
    expect(await cardCredit(player)).toBe(10);
    expect(await attempt(enter(player, id, 1))).toMatchObject({ ok: false, hint: "instant_win_card_credit" });
    await topUp(player, 5, "debit");
    // An ordinary entry spends the debit-card credit first …
    await enter(player, ordinary, 1);
    expect({ credits: await db().credits(player), card: await cardCredit(player) }).toEqual({ credits: 13, card: 10 });
    // … so £3 of it is left for instant wins: one £2 ticket, not two.
    await enter(player, id, 1);
    expect(await cardCredit(player)).toBe(10);
    expect(await attempt(enter(player, id, 1))).toMatchObject({ ok: false, hint: "instant_win_card_credit" });
    // Once only card credit is left, ordinary entries spend it.
    await enter(player, ordinary, 1);
    expect({ credits: await db().credits(player), card: await cardCredit(player) }).toEqual({ credits: 9, card: 9 });
    const ledger = await db().sql<{ kind: string; card_amount: string }>(
      "select kind, card_amount from public.credit_ledger where user_id = $1 order by id",
      [player],
    );
    expect(ledger.map((r) => [r.kind, r.card_amount])).toEqual([
      ["top_up", "10.00"],
      ["top_up", "0.00"],
      ["entry", "0.00"],
      ["entry", "0.00"],
      ["entry", "-1.00"],
    ]);
  });

  it("a break applies as to any entry", async () => {
    const { id } = await instantWinCompetition([{ kind: "spin", quantity: 1 }]);
    const player = await db().createPlayer({ credits: 10 });
    await db().call(asUser(player), "take_break", { p_period: "1 week" });
    expect(await attempt(enter(player, id, 1))).toMatchObject({ ok: false, hint: "on_break" });
  });

  it("instant-win competitions are never the majority of live ones", async () => {
    const live = async () =>
      (
        await db().sql<{ all: number; iw: number }>(
          "select count(*)::int as all, count(instant_win_commitment)::int as iw from public.competitions where status = 'live'",
        )
      )[0];
    let refused = false;
    for (let i = 0; i < 20 && !refused; i++) {
      const draft = await instantWinCompetition([{ kind: "spin", quantity: 1 }], {}, false);
      const res = await attempt(db().call(asUser(admin), "admin_publish_competition", { p_id: draft.id }));
      if (!res.ok) {
        expect(res.hint).toBe("instant_win_majority");
        refused = true;
      }
      const { all, iw } = await live();
      expect(iw * 2).toBeLessThanOrEqual(all);
    }
    expect(refused).toBe(true);
    // A lower share is a setting; it can never allow a majority.
    await db().sql("update public.app_settings set value = '90' where key = 'instant_win_max_live_percent'");
    const draft = await instantWinCompetition([{ kind: "spin", quantity: 1 }], {}, false);
    expect(await attempt(db().call(asUser(admin), "admin_publish_competition", { p_id: draft.id }))).toMatchObject({
      ok: false,
      hint: "instant_win_majority",
    });
  });
});
