// Pick your numbers: chosen numbers, baskets that hold them for a while, lucky
// dips, and the draw over whatever numbers were sold. The races run on PostgreSQL 15
// (pick-numbers-pg15.test.ts); these are the rules and the bad input, each refusal leaving nothing
// written.
import { beforeAll, describe, expect, it } from "vitest";
import { bytesToHex, sha256 } from "@/lib/crypto/bytes";
import { verifyDraw, type PublishedDraw } from "@/lib/draws/verify";
import { anon, asUser, attempt, dbPerFile, type CompetitionFields } from "./support";

const db = dbPerFile();
let admin: string;

beforeAll(async () => {
  admin = await db().createAdmin();
});

type Page = { sold: number[]; held: number[]; mine: number[]; mine_expires_at: string | null; owned: number[] };
type Entered = { entry_id: string; ticket_numbers: number[]; balance: number };

const pickCompetition = (fields: CompetitionFields = {}) =>
  db().createCompetition(admin, { ticket_numbering: "pick", max_tickets_per_user: 5, ...fields });

const buy = (uid: string, id: string, numbers: number[] | null, quantity = numbers?.length ?? 1) =>
  db().call<Entered>(asUser(uid), "enter_competition", {
    p_competition_id: id,
    p_quantity: quantity,
    p_answer: "4",
    p_numbers: numbers,
  });

const hold = (uid: string, id: string, numbers: number[], luckyDip = 0) =>
  db().call<Page>(asUser(uid), "hold_ticket_numbers", {
    p_competition_id: id,
    p_numbers: numbers,
    p_lucky_dip: luckyDip,
    p_from: 1,
    p_to: 100,
  });

const page = (caller: Parameters<typeof asUser>[0] | null, id: string) =>
  db().call<Page>(caller ? asUser(caller) : anon, "get_ticket_numbers", { p_competition_id: id, p_from: 1, p_to: 100 });

/** Everything a refused purchase or hold could have written. */
async function footprint(id: string, uid: string) {
  const [row] = await db().sql<{ tickets: number; entries: number; sold: number; holds: number; mails: number }>(
    `select (select count(*)::int from public.tickets where competition_id = $1) as tickets,
            (select count(*)::int from public.entries where competition_id = $1) as entries,
            (select tickets_sold from public.competitions where id = $1) as sold,
            (select count(*)::int from public.ticket_holds where competition_id = $1) as holds,
            (select count(*)::int from public.mail_outbox where to_user = $2) as mails`,
    [id, uid],
  );
  return { ...row, ledger: (await db().ledger(uid)).length, credits: await db().credits(uid) };
}

async function refusal(p: Promise<unknown>) {
  const r = await attempt(p);
  if (r.ok) throw new Error("expected a refusal, the call succeeded");
  return { message: r.message, hint: r.hint };
}

describe("chosen numbers", () => {
  it("a player buys the numbers they chose; the receipt, their entries and the grid show them", async () => {
    const id = await pickCompetition();
    const priya = await db().createPlayer({ credits: 10 });
    const bought = await buy(priya, id, [42, 7]);
    expect(bought.ticket_numbers).toEqual([7, 42]);
    expect(await db().credits(priya)).toBe(8);
    const [entry] = await db().sql<{ first_ticket: number; quantity: number }>(
      "select first_ticket, quantity from public.entries where id = $1",
      [bought.entry_id],
    );
    expect(entry).toEqual({ first_ticket: 7, quantity: 2 });
    const mine = await db().call<Array<{ ticket_numbers: number[] }>>(asUser(priya), "get_my_entries");
    expect(mine[0].ticket_numbers).toEqual([7, 42]);
    const [mail] = await db().sql<{ body: string }>(
      "select body_text as body from public.mail_outbox where to_user = $1 and kind = 'entry_receipt'",
      [priya],
    );
    expect(mail.body).toContain("Your ticket numbers: #7, #42");
    expect((await page(null, id)).sold).toEqual([7, 42]);
  });

  it("a number already sold is refused as number_taken, with nothing charged or written", async () => {
    const id = await pickCompetition();
    const first = await db().createPlayer({ credits: 10 });
    const second = await db().createPlayer({ credits: 10 });
    await buy(first, id, [7]);
    const before = await footprint(id, second);
    expect(await refusal(buy(second, id, [3, 7]))).toEqual({ message: "#7 was just taken", hint: "number_taken" });
    expect(await footprint(id, second)).toEqual(before);
  });

  it("50 buyers racing for #7 (PGlite runs them one at a time): one ticket, 49 refusals as number_taken", async () => {
    const id = await pickCompetition();
    const buyers: string[] = [];
    for (let i = 0; i < 50; i++) buyers.push(await db().createPlayer({ credits: 5 }));
    const results = await Promise.all(buyers.map((b) => attempt(buy(b, id, [7]))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(new Set(results.flatMap((r) => (r.ok ? [] : [`${r.hint}: ${r.message}`])))).toEqual(
      new Set(["number_taken: #7 was just taken"]),
    );
    const credits = await Promise.all(buyers.map((b) => db().credits(b)));
    expect(credits.sort()).toEqual([...Array.from({ length: 49 }, () => 5), 4].sort());
  });

  it("bad input is refused with a message and nothing written: out of range, repeated, over the cap, on an in-order competition", async () => {
    const id = await pickCompetition({ total_tickets: 100, max_tickets_per_user: 3 });
    const inOrder = await db().createCompetition(admin);
    const p = await db().createPlayer({ credits: 50 });
    const before = await footprint(id, p);
    expect(await refusal(buy(p, id, [0]))).toEqual({
      message: "There is no ticket #0: numbers run from 1 to 100",
      hint: "invalid_input",
    });
    expect((await refusal(buy(p, id, [5, 101]))).message).toBe("There is no ticket #101: numbers run from 1 to 100");
    expect(await refusal(buy(p, id, [5, 6, 5]))).toEqual({
      message: "You chose #5 more than once",
      hint: "invalid_input",
    });
    expect(await refusal(buy(p, id, [1, 2, 3, 4]))).toEqual({
      message: "You can buy at most 3 more tickets for this competition",
      hint: "cap_exceeded",
    });
    expect(await refusal(buy(p, id, []))).toEqual({ message: "Choose at least one ticket", hint: "invalid_input" });
    expect(await refusal(hold(p, id, [1, 2, 3, 4]))).toEqual({
      message: "You can hold at most 3 more numbers for this competition",
      hint: "cap_exceeded",
    });
    expect(await refusal(hold(p, id, [9, 9]))).toEqual({
      message: "You chose #9 more than once",
      hint: "invalid_input",
    });
    expect(await footprint(id, p)).toEqual(before);
    expect((await refusal(buy(p, inOrder, [1]))).hint).toBe("invalid_input");
    // A player on a break could not buy the numbers, so may not hold them from others either.
    const resting = await db().createPlayer({ credits: 5 });
    await db().call(asUser(resting), "take_break", { p_period: "1 week" });
    expect((await refusal(hold(resting, id, [50]))).hint).toBe("on_break");
    expect((await refusal(hold(p, inOrder, [1]))).hint).toBe("invalid_input");
  });
});

describe("baskets", () => {
  it("hold numbers for their holder alone until they expire, count against the cap, and leave the basket when bought", async () => {
    const id = await pickCompetition({ max_tickets_per_user: 3 });
    const a = await db().createPlayer({ credits: 10 });
    const b = await db().createPlayer({ credits: 10 });
    const held = await hold(a, id, [10, 11]);
    expect(held.mine).toEqual([10, 11]);
    expect(new Date(held.mine_expires_at!).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    // Others (and visitors) see them held, never by whom.
    expect(await page(b, id)).toMatchObject({ held: [10, 11], mine: [] });
    expect(await page(null, id)).toMatchObject({ held: [10, 11], mine: [], mine_expires_at: null });
    expect(await refusal(hold(b, id, [11]))).toEqual({
      message: "#11 is in another player's basket for a few minutes",
      hint: "number_taken",
    });
    const before = await footprint(id, b);
    expect((await refusal(buy(b, id, [10]))).hint).toBe("number_taken");
    expect(await footprint(id, b)).toEqual(before);
    // A lucky dip never takes another player's held numbers.
    const dip = await hold(b, id, [], 2);
    expect(dip.mine).toHaveLength(2);
    expect(dip.mine.some((n) => n === 10 || n === 11)).toBe(false);
    // The basket plus the tickets owned count against the cap of 3 (numbers clear of the lucky dip's, wherever it
    // landed).
    const clear = [12, 13, 14, 15].filter((n) => !dip.mine.includes(n));
    await buy(a, id, [clear[0]]);
    expect((await refusal(hold(a, id, [10, 11, clear[1]]))).hint).toBe("cap_exceeded");
    // Expired, a hold blocks nobody.
    await db().sql("update public.ticket_holds set expires_at = now() - interval '1 second' where user_id = $1", [a]);
    expect((await page(b, id)).held).toEqual([]);
    expect((await hold(b, id, [11])).mine).toEqual([11]);
    const bought = await buy(b, id, [11]);
    expect(bought.ticket_numbers).toEqual([11]);
    // The bought number left the basket; the expired hold blocks nobody.
    expect(
      await db().sql(
        "select number from public.ticket_holds where competition_id = $1 and (number = 11 or expires_at > now())",
        [id],
      ),
    ).toEqual([]);
  });
  it("holds nothing for an account that may not enter: pending and rejected are told which", async () => {
    const id = await pickCompetition();
    const pending = await db().createUser({ credits: 10 });
    const rejected = await db().createUser({ approved: true, credits: 10 });
    await db().call(asUser(admin), "admin_reject_user", { p_user_id: rejected, p_reason: "Duplicate account" });
    expect(await refusal(hold(pending, id, [5]))).toEqual({
      message: "Your account is awaiting approval",
      hint: "approval_pending",
    });
    expect(await refusal(hold(rejected, id, [5]))).toEqual({
      message: "Your account was not approved, so you cannot enter competitions",
      hint: "approval_rejected",
    });
    expect((await page(null, id)).held).toEqual([]);
  });
});

describe("lucky dips", () => {
  it("hold as many numbers as asked in one call, clear of sold and held numbers and within the cap, or nothing", async () => {
    const id = await pickCompetition({ total_tickets: 40, max_tickets_per_user: 25 });
    const [dipper, other] = await Promise.all([1, 2].map(() => db().createPlayer({ credits: 20 })));
    await buy(dipper, id, [1, 2]);
    await buy(other, id, [3]);
    await hold(other, id, [4, 5, 6]);
    const dip = await hold(dipper, id, [7], 10);
    expect(dip.mine).toHaveLength(11);
    expect(dip.mine).toContain(7);
    expect(new Set(dip.mine).size).toBe(11);
    expect(dip.mine.filter((n) => n <= 6)).toEqual([]);
    // Owned 2 + basket 11 + 13 more is over the cap of 25: refused, and the basket is as it was.
    expect((await refusal(hold(dipper, id, dip.mine, 13))).hint).toBe("cap_exceeded");
    expect((await page(dipper, id)).mine).toEqual(dip.mine);
    // 40 - 3 sold - 3 held by the other - 11 in the basket leaves 23 free: a dip of 12 fits the cap but not the
    // free numbers once the other holds 12 more, and takes none of them.
    const others = Array.from({ length: 40 }, (_, i) => i + 1)
      .filter((n) => n > 6 && !dip.mine.includes(n))
      .slice(0, 12);
    await hold(other, id, [4, 5, 6, ...others]);
    expect(await refusal(hold(dipper, id, dip.mine, 12))).toEqual({
      message: "Not enough free numbers left for that lucky dip",
      hint: "not_enough_tickets",
    });
    expect((await page(dipper, id)).mine).toEqual(dip.mine);
  });

  it("pick distinct free numbers at random, to the last one, then refuse", async () => {
    const id = await pickCompetition({ total_tickets: 20, max_tickets_per_user: 5 });
    const players = await Promise.all([1, 2, 3, 4].map(() => db().createPlayer({ credits: 20 })));
    await buy(players[0], id, [1, 2, 3]);
    const numbers: number[] = [1, 2, 3];
    for (const [i, p] of players.entries()) {
      const dip = await buy(p, id, null, i === 0 ? 2 : 5);
      numbers.push(...dip.ticket_numbers);
    }
    expect(numbers.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const [c] = await db().sql<{ status: string; tickets_sold: number }>(
      "select status, tickets_sold from public.competitions where id = $1",
      [id],
    );
    expect(c).toEqual({ status: "sold_out", tickets_sold: 20 });
    expect((await refusal(buy(players[3], id, null, 1))).hint).toBe("competition_sold_out");
  });

  it("finds the last free numbers of a 100,000-ticket competition", async () => {
    const id = await pickCompetition({ total_tickets: 100_000, max_tickets_per_user: 10 });
    const p = await db().createPlayer({ credits: 20 });
    // Every number sold but five, scattered (written directly: 99,995 purchases would take minutes here).
    const free = [3, 25_000, 50_001, 77_777, 100_000];
    await db().sql(
      `with e as (insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
                  values ($1, $2, 'paid', 99995, 0, 0, 1) returning id)
       insert into public.tickets (competition_id, number, entry_id)
       select $1, n, e.id from e, generate_series(1, 100000) n where not n = any ($3::int[])`,
      [id, admin, free],
    );
    await db().sql("update public.competitions set tickets_sold = 99995 where id = $1", [id]);
    const dip = await buy(p, id, null, 5);
    expect(dip.ticket_numbers).toEqual(free);
  });
});

describe("the grid page", () => {
  it("the grid names the caller's own tickets, apart from others' sold ones, and only to them", async () => {
    const id = await pickCompetition({ total_tickets: 300, max_tickets_per_user: 5 });
    const [mine, theirs] = await Promise.all([1, 2].map(() => db().createPlayer({ credits: 20 })));
    await buy(mine, id, [5, 150]);
    await buy(theirs, id, [6]);
    expect(await page(mine, id)).toMatchObject({ sold: [5, 6], owned: [5] });
    expect(await page(theirs, id)).toMatchObject({ sold: [5, 6], owned: [6] });
    expect((await page(null, id)).owned).toEqual([]);
    const later = await db().call<Page>(asUser(mine), "get_ticket_numbers", {
      p_competition_id: id,
      p_from: 101,
      p_to: 200,
    });
    expect(later).toMatchObject({ sold: [150], owned: [150] });
    expect((await hold(mine, id, [7])).owned).toEqual([5]);
  });
});

describe("numbering is a term of entry", () => {
  it("is set on a draft, fixed once published, and shown to players", async () => {
    const draft = await db().createCompetition(admin, {}, false);
    const set = await db().call<{ ticket_numbering: string }>(asUser(admin), "admin_update_competition", {
      p_id: draft,
      p: { ticket_numbering: "pick" },
    });
    expect(set.ticket_numbering).toBe("pick");
    expect(
      (
        await refusal(
          db().call(asUser(admin), "admin_update_competition", { p_id: draft, p: { ticket_numbering: "lottery" } }),
        )
      ).hint,
    ).toBe("invalid_input");
    await db().call(asUser(admin), "admin_publish_competition", { p_id: draft });
    expect(
      await refusal(
        db().call(asUser(admin), "admin_update_competition", { p_id: draft, p: { ticket_numbering: "in_order" } }),
      ),
    ).toEqual({
      message: "How tickets are numbered is fixed once a competition is published",
      hint: "edit_not_allowed",
    });
  });
});

describe("postal entries and the draw", () => {
  it("postal tickets on a pick competition come after the pool; the draw and its verification run over the numbers sold", async () => {
    const id = await pickCompetition({ total_tickets: 100, ticket_price: 2 });
    const a = await db().createPlayer({ credits: 20 });
    const b = await db().createPlayer({ credits: 20 });
    await buy(a, id, [90, 5]);
    await buy(b, id, [17]);
    const postal = await db().call<{ ticket_numbers: number[] }>(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: id,
      p_user_id: null,
      p_name: "Letter Writer",
      p_address: "1 High Street, Leeds LS1 1AA",
      p_answer: "4",
    });
    expect(postal.ticket_numbers).toEqual([101]);
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
      [id],
    );
    await db().call(asUser(admin), "run_due_draws");
    const [{ draw_id, slug }] = await db().sql<{ draw_id: string; slug: string }>(
      "select d.id as draw_id, c.slug from public.draws d join public.competitions c on c.id = d.competition_id where c.id = $1",
      [id],
    );
    const draw = await db().call<PublishedDraw & { winning_number: number; ticket_count: number }>(anon, "get_draw", {
      p_draw_id: draw_id,
    });
    expect(draw.ticket_count).toBe(4);
    expect([5, 17, 90, 101]).toContain(draw.winning_number);
    const { csv } = await db().call<{ csv: string }>(anon, "get_ticket_list_csv", { p_slug: slug });
    expect(
      csv
        .split("\n")
        .slice(1, -1)
        .map((line) => Number(line.split(",")[0])),
    ).toEqual([5, 17, 90, 101]);
    expect(bytesToHex(await sha256(csv))).toBe(draw.ticket_list_hash);
    const result = await verifyDraw(draw, { ticketList: csv });
    expect(result.ok, JSON.stringify(result.checks)).toBe(true);
  });
});
