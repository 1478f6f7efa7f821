// The fair-play rules in SQL: fixed dates, the draw at the draw time only, postal entries
// outside the online pool with stamp parity and the per-person cap, the public entry
// list whose CSV is what the draw hashes, winners' names, the cash alternative, complaints.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, attempt, dbPerFile, service } from "./support";

const db = dbPerFile();
let admin: string;

beforeAll(async () => {
  admin = await db().createAdmin();
});

type Competition = {
  id: string;
  slug: string;
  status: string;
  tickets_sold: number;
  tickets_left: number;
  postal_tickets: number;
  postal_entries: number;
  postal_tickets_per_entry: number;
  postal_deadline: string;
  draw_at: string;
  closes_at: string;
  cash_alternative: number | null;
  entry_list_open: boolean;
  draw: { id: string; algorithm: string; winning_number: number } | null;
};
type Postal = { entry_id: string; ticket_numbers: number[]; tickets: number };
type CsvChunk = { csv: string; last_number: number | null; done: boolean };

const enter = (uid: string, id: string, quantity: number) =>
  db().call<{ ticket_numbers: number[] }>(asUser(uid), "enter_competition", {
    p_competition_id: id,
    p_quantity: quantity,
    p_answer: "4",
  });

const postal = (id: string, name: string, address: string, userId: string | null = null) =>
  db().call<Postal>(asUser(admin), "admin_record_postal_entry", {
    p_competition_id: id,
    p_user_id: userId,
    p_name: name,
    p_address: address,
    p_answer: "4",
  });

const publicView = async (id: string) => {
  const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [id]);
  return db().call<Competition>(anon, "get_competition", { p_slug: slug });
};

/** Moves a competition's whole timeline back, keeping its order, as if the days had passed. */
async function travel(id: string, when: { close: string; postal: string; draw: string }) {
  await db().sql(
    `update public.competitions
        set opens_at = now() - interval '30 days', closes_at = now() + $2::interval,
            postal_deadline = now() + $3::interval, draw_at = now() + $4::interval
      where id = $1`,
    [id, when.close, when.postal, when.draw],
  );
}
const inPostalWindow = (id: string) => travel(id, { close: "-1 hour", postal: "1 day", draw: "2 days" });
const pastPostalDeadline = (id: string) => travel(id, { close: "-2 days", postal: "-1 hour", draw: "1 day" });
const drawDue = (id: string) => travel(id, { close: "-3 days", postal: "-2 days", draw: "-1 second" });

async function ticketListCsv(slug: string, chunk = 100_000): Promise<string> {
  let csv = "";
  let after = 0;
  for (;;) {
    const part = await db().call<CsvChunk>(anon, "get_ticket_list_csv", {
      p_slug: slug,
      p_after: after,
      p_limit: chunk,
    });
    csv += part.csv;
    if (part.done) return csv;
    after = part.last_number!;
  }
}

describe("dates", () => {
  it("defaults the postal deadline to 2 working days after the close (weekends and bank holidays skipped), the draw to the deadline", async () => {
    // Friday 18 December 2026, 20:00 in London: Monday 21 and Tuesday 22 are the two working days.
    const friday = await db().call<Competition>(asUser(admin), "admin_create_competition", {
      p: {
        title: "Friday close",
        prize_description: "x",
        prize_value: 1,
        ticket_price: 1,
        total_tickets: 10,
        max_tickets_per_user: 10,
        closes_at: "2026-12-18T20:00:00Z",
      },
    });
    expect(new Date(friday.postal_deadline).toISOString()).toBe("2026-12-22T20:00:00.000Z");
    expect(friday.draw_at).toBe(friday.postal_deadline);
    // Thursday 24 December 2026: Christmas (Fri 25) and the Boxing Day substitute (Mon 28) are skipped.
    const christmas = await db().call<Competition>(asUser(admin), "admin_create_competition", {
      p: {
        title: "Christmas Eve close",
        prize_description: "x",
        prize_value: 1,
        ticket_price: 1,
        total_tickets: 10,
        max_tickets_per_user: 10,
        closes_at: "2026-12-24T12:00:00Z",
      },
    });
    expect(new Date(christmas.postal_deadline).toISOString()).toBe("2026-12-30T12:00:00.000Z");
    // In summer time the UK clock time is kept: 18:00 BST on Friday 27 August 2027; Monday 30 is a bank holiday.
    const summer = await db().call<Competition>(asUser(admin), "admin_create_competition", {
      p: {
        title: "August close",
        prize_description: "x",
        prize_value: 1,
        ticket_price: 1,
        total_tickets: 10,
        max_tickets_per_user: 10,
        closes_at: "2027-08-27T17:00:00Z",
      },
    });
    expect(new Date(summer.postal_deadline).toISOString()).toBe("2027-09-01T17:00:00.000Z");
  });

  it("keeps close ≤ postal deadline ≤ draw, and fixes the dates at publish", async () => {
    const close = new Date(Date.now() + 86_400_000);
    const early = await attempt(
      db().createCompetition(admin, {
        closes_at: close.toISOString(),
        postal_deadline: new Date(close.getTime() - 1000).toISOString(),
      }),
    );
    expect(early).toMatchObject({
      ok: false,
      hint: "invalid_input",
      message: expect.stringMatching(/postal deadline cannot be before the close/),
    });
    const drawEarly = await attempt(
      db().createCompetition(admin, {
        closes_at: close.toISOString(),
        postal_deadline: new Date(close.getTime() + 3_600_000).toISOString(),
        draw_at: new Date(close.getTime() + 60_000).toISOString(),
      }),
    );
    expect(drawEarly).toMatchObject({
      ok: false,
      hint: "invalid_input",
      message: expect.stringMatching(/draw time must be at or after the postal deadline/),
    });

    const id = await db().createCompetition(admin, { closes_at: close.toISOString() });
    for (const field of ["closes_at", "postal_deadline", "draw_at"]) {
      const later = new Date(close.getTime() + 10 * 86_400_000).toISOString();
      const edit = await attempt(
        db().call(asUser(admin), "admin_update_competition", { p_id: id, p: { [field]: later } }),
      );
      expect(edit).toMatchObject({
        ok: false,
        hint: "edit_not_allowed",
        message: "The dates are fixed once a competition is published",
      });
    }
    const [row] = await db().sql<{ postal_deadline: Date; draw_at: Date }>(
      "select postal_deadline, draw_at from public.competitions where id = $1",
      [id],
    );
    expect(row.postal_deadline.getTime()).toBeGreaterThan(close.getTime());
    expect(row.draw_at.getTime()).toBe(row.postal_deadline.getTime());
  });
});

describe("the draw at the draw time", () => {
  it("a sell-out ends online sales and does not draw; the draw happens at the draw time only, once", async () => {
    const id = await db().createCompetition(admin, { total_tickets: 5, max_tickets_per_user: 5 });
    const buyer = await db().createPlayer({ credits: 10 });
    await enter(buyer, id, 5);
    let view = await publicView(id);
    expect(view).toMatchObject({ status: "sold_out", tickets_left: 0, draw: null, entry_list_open: true });
    const refused = await attempt(enter(buyer, id, 1));
    expect(refused).toMatchObject({ ok: false, hint: "competition_sold_out" });

    expect(await db().call(service, "run_due_draws")).toEqual({ drawn: [], closed: [] });
    expect((await publicView(id)).draw).toBeNull();

    await drawDue(id);
    const runs = await Promise.all([db().call(service, "run_due_draws"), db().call(asUser(admin), "run_due_draws")]);
    const drawn = runs.flatMap((r) => (r as { drawn: unknown[] }).drawn);
    expect(drawn).toHaveLength(1);
    view = await publicView(id);
    expect(view.status).toBe("drawn");
    expect(view.draw).toMatchObject({ algorithm: "labcash-draw-v2" });
    expect(await db().sql("select * from public.draws where competition_id = $1", [id])).toHaveLength(1);
    expect(await db().call(service, "run_due_draws")).toEqual({ drawn: [], closed: [] });
  });

  it("closes a competition with no tickets at its draw time, with no winner", async () => {
    const id = await db().createCompetition(admin);
    await drawDue(id);
    expect(await db().call(service, "run_due_draws")).toEqual({ drawn: [], closed: [id] });
    expect(await publicView(id)).toMatchObject({ status: "closed", draw: null });
  });

  it("refuses a draw before its time, even to an admin calling the draw directly", async () => {
    const id = await db().createCompetition(admin, { total_tickets: 2, max_tickets_per_user: 2 });
    await enter(await db().createPlayer({ credits: 5 }), id, 2);
    const early = await attempt(db().sql("select private.draw_competition($1)", [id]));
    expect(early).toMatchObject({ ok: false, message: expect.stringMatching(/^This competition is drawn on /) });
  });
});

describe("postal entries", () => {
  it("gives stamp-parity tickets: £0.25 → 4, £0.99 → 1, £2.49 → 1 against an £0.87 stamp", async () => {
    const expected: Array<[string, number]> = [
      ["0.25", 4],
      ["0.99", 1],
      ["2.49", 1],
    ];
    for (const [price, tickets] of expected) {
      const id = await db().createCompetition(admin, {
        ticket_price: price,
        total_tickets: 100,
        max_tickets_per_user: 50,
      });
      expect((await publicView(id)).postal_tickets_per_entry).toBe(tickets);
      const entry = await postal(id, `Parity ${price}`, "1 High Street, Leeds LS1 4AP");
      expect(entry.tickets).toBe(tickets);
    }
    // Never more than the per-person cap allows.
    const capped = await db().createCompetition(admin, {
      ticket_price: "0.25",
      total_tickets: 100,
      max_tickets_per_user: 3,
    });
    expect((await publicView(capped)).postal_tickets_per_entry).toBe(3);
  });

  it("numbers postal tickets after the online pool, accepts them after a sell-out until the postal deadline, and draws over both", async () => {
    const id = await db().createCompetition(admin, {
      ticket_price: "0.25",
      total_tickets: 10,
      max_tickets_per_user: 10,
    });
    const buyer = await db().createPlayer({ credits: 10 });
    await enter(buyer, id, 3);
    const before = await postal(id, "Margaret Holt", "14 Orchard Road, Harrogate HG1 2AB");
    expect(before.ticket_numbers).toEqual([11, 12, 13, 14]);
    expect((await publicView(id)).tickets_left).toBe(7);
    await enter(buyer, id, 7);
    expect((await publicView(id)).status).toBe("sold_out");

    await inPostalWindow(id);
    const after = await postal(id, "John Smith", "2 Mill Lane, York yo1 7hh");
    expect(after.ticket_numbers).toEqual([15, 16, 17, 18]);
    const view = await publicView(id);
    expect(view).toMatchObject({ tickets_sold: 10, postal_tickets: 8, postal_entries: 2 });

    await pastPostalDeadline(id);
    const late = await attempt(postal(id, "Late Letter", "3 Park Row, Bristol BS1 5LJ"));
    expect(late).toMatchObject({
      ok: false,
      hint: "postal_deadline_passed",
      message: expect.stringMatching(/^Postal entries for this competition closed on /),
    });

    await drawDue(id);
    await db().call(service, "run_due_draws");
    const [draw] = await db().sql<{ ticket_count: number; winning_number: number; winning_position: number }>(
      "select ticket_count, winning_number, winning_position from public.draws where competition_id = $1",
      [id],
    );
    expect(draw.ticket_count).toBe(18);
    const numbers = [...Array.from({ length: 10 }, (_, i) => i + 1), ...Array.from({ length: 8 }, (_, i) => i + 11)];
    expect(draw.winning_number).toBe(numbers[draw.winning_position - 1]);
  });

  it("needs a UK postcode, and holds the per-person cap across routes and by name and postcode", async () => {
    const id = await db().createCompetition(admin, {
      ticket_price: "0.25",
      total_tickets: 100,
      max_tickets_per_user: 6,
    });
    const noPostcode = await attempt(postal(id, "No Postcode", "1 Somewhere Street, Anytown"));
    expect(noPostcode).toMatchObject({
      ok: false,
      hint: "invalid_input",
      message: "The address must include a UK postcode",
    });

    // Linked: 4 online + 4 postal would pass 6, so the letter gets the 2 left; then nothing more.
    const player = await db().createPlayer({ credits: 10 });
    await enter(player, id, 4);
    expect((await postal(id, "Pat Player", "5 Quay Street, Bristol BS1 4DJ", player)).tickets).toBe(2);
    expect(await attempt(postal(id, "Pat Player", "5 Quay Street, Bristol BS1 4DJ", player))).toMatchObject({
      ok: false,
      hint: "cap_reached",
    });
    expect(await attempt(enter(player, id, 1))).toMatchObject({ ok: false, hint: "cap_reached" });

    // Unlinked: the same name at the same postcode (spelt differently) is the same person.
    expect((await postal(id, "Sam Letter", "9 Low Road, Leeds LS2 7EY")).tickets).toBe(4);
    expect((await postal(id, "sam letter", "Flat 2, 9 Low Road, LEEDS ls27ey")).tickets).toBe(2);
    expect(await attempt(postal(id, "Sam Letter", "9 Low Road, Leeds LS2 7EY"))).toMatchObject({
      ok: false,
      hint: "cap_reached",
    });
    // Another person at the same address is not.
    expect((await postal(id, "Kim Letter", "9 Low Road, Leeds LS2 7EY")).tickets).toBe(4);
  });

  it("mails a linked entrant a receipt with the ticket numbers", async () => {
    const id = await db().createCompetition(admin, {
      ticket_price: "0.50",
      total_tickets: 20,
      max_tickets_per_user: 5,
    });
    const player = await db().createPlayer();
    await postal(id, "Rita Receipt", "7 Bridge Street, Cardiff CF10 1AA", player);
    const [mail] = await db().sql<{ subject: string; body_text: string }>(
      "select subject, body_text from public.mail_outbox where to_user = $1 and kind = 'entry_receipt'",
      [player],
    );
    expect(mail.subject).toMatch(/^Your postal entry: /);
    expect(mail.body_text).toContain(
      "Your ticket numbers: #21, #22 (2 tickets, the same chance per ticket as a paid one)",
    );
  });
});

describe("the entry list", () => {
  it("is public once online sales end, with public names, 'Postal entry' and initials when chosen", async () => {
    const id = await db().createCompetition(admin, { total_tickets: 10, max_tickets_per_user: 10 });
    const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [id]);
    const priya = await db().createPlayer({ name: "Priya Patel", credits: 10 });
    const quiet = await db().createPlayer({ name: "Quentin Quiet Jones", credits: 10 });
    await db().sql("update public.profiles set town = 'Leeds' where id = any($1)", [[priya, quiet]]);
    await db().call(asUser(quiet), "set_initials_only", { p_initials_only: true });
    await enter(priya, id, 2);
    await enter(quiet, id, 1);

    expect(await attempt(db().call(anon, "get_entry_list", { p_slug: slug }))).toMatchObject({
      ok: false,
      hint: "entry_list_not_available",
    });
    await inPostalWindow(id);
    await postal(id, "Margaret Holt", "14 Orchard Road, Harrogate HG1 2AB");
    const page = await db().call<{ rows: unknown[]; has_after: boolean; has_before: boolean; ticket_count: number }>(
      anon,
      "get_entry_list",
      { p_slug: slug, p_limit: 2 },
    );
    expect(page.ticket_count).toBe(4);
    expect(page.rows).toEqual([
      { number: 1, ticket_id: expect.any(String), entrant: "Priya P.", town: "Leeds", route: "online" },
      { number: 2, ticket_id: expect.any(String), entrant: "Priya P.", town: "Leeds", route: "online" },
    ]);
    expect(page).toMatchObject({ has_before: false, has_after: true });
    const next = await db().call<{
      rows: Array<{ number: number; entrant: string; town: string | null }>;
      has_after: boolean;
    }>(anon, "get_entry_list", { p_slug: slug, p_after: 2, p_limit: 2 });
    expect(next.rows.map((r) => [r.number, r.entrant, r.town])).toEqual([
      [3, "Q. Q. J.", null],
      [11, "Postal entry", null],
    ]);
    expect(next.has_after).toBe(false);
    const back = await db().call<{ rows: Array<{ number: number }> }>(anon, "get_entry_list", {
      p_slug: slug,
      p_before: 11,
      p_limit: 2,
    });
    expect(back.rows.map((r) => r.number)).toEqual([2, 3]);
    const one = await db().call<{ rows: Array<{ number: number }> }>(anon, "get_entry_list", {
      p_slug: slug,
      p_ticket: 11,
    });
    expect(one.rows.map((r) => r.number)).toEqual([11]);
    const none = await db().call<{ rows: unknown[] }>(anon, "get_entry_list", { p_slug: slug, p_ticket: 7 });
    expect(none.rows).toEqual([]);
  });

  it("serves a ticket-list CSV whose SHA-256 is the draw's hash, in chunks, that verifies; and an entrants CSV joined by ticket id", async () => {
    const id = await db().createCompetition(admin, {
      ticket_price: "0.25",
      total_tickets: 30,
      max_tickets_per_user: 30,
    });
    const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [id]);
    const a = await db().createPlayer({ name: "Ann Comma, Jr", credits: 10 });
    await enter(a, id, 12);
    await postal(id, "Margaret Holt", "14 Orchard Road, Harrogate HG1 2AB");
    await drawDue(id);
    await db().call(service, "run_due_draws");

    const csv = await ticketListCsv(slug, 5);
    expect(csv.split("\n")[0]).toBe("ticket_number,ticket_id");
    expect(csv.split("\n")).toHaveLength(1 + 16 + 1);
    expect(csv).toBe(await ticketListCsv(slug));
    const [draw] = await db().sql<{ id: string; ticket_list_hash: string }>(
      "select id, ticket_list_hash from public.draws where competition_id = $1",
      [id],
    );
    expect(createHash("sha256").update(csv, "utf8").digest("hex")).toBe(draw.ticket_list_hash);

    const published = await db().call<{
      tickets: null;
      winning_position: number;
      winning_number: number;
      winning_ticket_id: string;
    }>(anon, "get_draw", { p_draw_id: draw.id });
    expect(published.tickets).toBeNull();
    const rows = csv
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(","));
    const ids = rows.map((row) => row[1]);
    expect(rows[published.winning_position - 1]).toEqual([
      String(published.winning_number),
      published.winning_ticket_id,
    ]);

    const entrants = await db().call<CsvChunk>(anon, "get_entrants_csv", { p_slug: slug });
    const lines = entrants.csv.trim().split("\n");
    expect(lines[0]).toBe("ticket_number,ticket_id,entrant,town,route");
    expect(lines[1]).toBe(`1,${ids[0]},Ann J.,,online`);
    expect(lines[13]).toBe(`31,${ids[12]},Postal entry,,postal`);
  });

  it("is refused for unknown, draft and cancelled competitions", async () => {
    expect(await attempt(db().call(anon, "get_entry_list", { p_slug: "no-such-thing" }))).toMatchObject({
      ok: false,
      hint: "competition_not_found",
    });
    const draft = await db().createCompetition(admin, {}, false);
    const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [draft]);
    expect(await attempt(db().call(anon, "get_ticket_list_csv", { p_slug: slug }))).toMatchObject({
      ok: false,
      hint: "competition_not_found",
    });
    const cancelled = await db().createCompetition(admin);
    await db().call(asUser(admin), "admin_cancel_competition", { p_id: cancelled, p_reason: "Supplier problem" });
    const [{ slug: cSlug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [
      cancelled,
    ]);
    expect(await attempt(db().call(anon, "get_entrants_csv", { p_slug: cSlug }))).toMatchObject({
      ok: false,
      hint: "entry_list_not_available",
    });
  });
});

describe("winners and claims", () => {
  async function drawnFor(name: string, fields: Record<string, unknown> = {}) {
    const id = await db().createCompetition(admin, { total_tickets: 1, max_tickets_per_user: 1, ...fields });
    const winner = await db().createPlayer({ name, credits: 5 });
    await db().sql("update public.profiles set town = 'Harrogate' where id = $1", [winner]);
    return { id, winner };
  }

  it("publishes first name, surname initial and town, or initials only when chosen before the draw", async () => {
    const named = await drawnFor("Priya Kaur Patel");
    await enter(named.winner, named.id, 1);
    const initials = await drawnFor("Oscar Wilde");
    await db().call(asUser(initials.winner), "set_initials_only", { p_initials_only: true });
    const account = await db().call<{ show_initials_only: boolean }>(asUser(initials.winner), "get_my_account");
    expect(account.show_initials_only).toBe(true);
    await enter(initials.winner, initials.id, 1);
    await drawDue(named.id);
    await drawDue(initials.id);
    await db().call(service, "run_due_draws");
    const rows = await db().sql<{ competition_id: string; winner_display_name: string; winner_town: string | null }>(
      "select competition_id, winner_display_name, winner_town from public.draws where competition_id = any($1)",
      [[named.id, initials.id]],
    );
    const byId = Object.fromEntries(rows.map((r) => [r.competition_id, r]));
    expect(byId[named.id]).toMatchObject({ winner_display_name: "Priya P.", winner_town: "Harrogate" });
    expect(byId[initials.id]).toMatchObject({ winner_display_name: "O. W.", winner_town: null });
  });

  it("lets the winner choose the cash alternative, change it until verified, and nobody else", async () => {
    const { id, winner } = await drawnFor("Cash Taker", { cash_alternative: 1200 });
    expect((await publicView(id)).cash_alternative).toBe(1200);
    await enter(winner, id, 1);
    await drawDue(id);
    await db().call(service, "run_due_draws");
    const [{ id: drawId }] = await db().sql<{ id: string }>("select id from public.draws where competition_id = $1", [
      id,
    ]);

    const other = await db().createPlayer();
    expect(
      await attempt(db().call(asUser(other), "claim_prize", { p_draw_id: drawId, p_choice: "prize" })),
    ).toMatchObject({ ok: false, hint: "not_the_winner" });
    expect(await attempt(db().call(anon, "claim_prize", { p_draw_id: drawId, p_choice: "prize" }))).toMatchObject({
      ok: false,
    });
    expect(await db().call(asUser(winner), "claim_prize", { p_draw_id: drawId, p_choice: "cash" })).toMatchObject({
      prize_choice: "cash",
    });
    // The prize needs an address to send it to.
    expect(
      await attempt(db().call(asUser(winner), "claim_prize", { p_draw_id: drawId, p_choice: "prize" })),
    ).toMatchObject({ ok: false, hint: "delivery_address_required" });
    expect(
      await db().call(asUser(winner), "claim_prize", {
        p_draw_id: drawId,
        p_choice: "prize",
        p_delivery_address: "4 Mill Lane, Harrogate HG1 2AB",
      }),
    ).toMatchObject({
      prize_choice: "prize",
      prize_status: "claimed",
      delivery_address: "4 Mill Lane, Harrogate HG1 2AB",
    });
    const entries = await db().call<Array<{ draw: { won: boolean; prize_choice: string; cash_alternative: number } }>>(
      asUser(winner),
      "get_my_entries",
    );
    expect(entries[0].draw).toMatchObject({
      won: true,
      prize_choice: "prize",
      cash_alternative: 1200,
      prize_status: "claimed",
    });

    await db().call(asUser(admin), "admin_update_prize_fulfilment", {
      p_draw_id: drawId,
      p_status: "verified",
      p_document_type: "passport",
      p_document_last_four: "1234",
    });
    expect(
      await attempt(db().call(asUser(winner), "claim_prize", { p_draw_id: drawId, p_choice: "cash" })),
    ).toMatchObject({ ok: false, hint: "claim_closed" });

    const noCash = await drawnFor("Prize Only");
    await enter(noCash.winner, noCash.id, 1);
    await drawDue(noCash.id);
    await db().call(service, "run_due_draws");
    const [{ id: noCashDraw }] = await db().sql<{ id: string }>(
      "select id from public.draws where competition_id = $1",
      [noCash.id],
    );
    expect(
      await attempt(db().call(asUser(noCash.winner), "claim_prize", { p_draw_id: noCashDraw, p_choice: "cash" })),
    ).toMatchObject({ ok: false, hint: "cash_not_offered" });
  });
});

describe("complaints", () => {
  it("gives a reference and deadlines, mails a confirmation, limits to 3 a day, and shows them to the complainant and admins only", async () => {
    const player = await db().createUser({ name: "Cara Complainer" });
    const details = "My entry receipt never arrived after I paid.";
    const bad = await attempt(
      db().call(asUser(player), "submit_complaint", { p_subject: "x", p_reference: null, p_details: details }),
    );
    expect(bad).toMatchObject({ ok: false, hint: "invalid_input" });
    expect(await db().sql("select * from public.complaints where user_id = $1", [player])).toEqual([]);

    const first = await db().call<{ reference: string; status: string; acknowledge_by: string; respond_by: string }>(
      asUser(player),
      "submit_complaint",
      { p_subject: "Missing receipt", p_reference: "iphone-17-pro-max", p_details: details },
    );
    expect(first.reference).toMatch(/^LC-\d{6}$/);
    expect(first.status).toBe("received");
    expect(new Date(first.respond_by).getTime() - Date.now()).toBeGreaterThan(27 * 86_400_000);
    const [mail] = await db().sql<{ subject: string; body_text: string }>(
      "select subject, body_text from public.mail_outbox where to_user = $1 and kind = 'complaint_received'",
      [player],
    );
    expect(mail.subject).toBe(`Your complaint ${first.reference}: Missing receipt`);
    expect(mail.body_text).toContain("CEDR");

    await db().call(asUser(player), "submit_complaint", { p_subject: "Second", p_reference: "", p_details: details });
    await db().call(asUser(player), "submit_complaint", { p_subject: "Third", p_reference: "", p_details: details });
    const fourth = await attempt(
      db().call(asUser(player), "submit_complaint", { p_subject: "Fourth", p_reference: "", p_details: details }),
    );
    expect(fourth).toMatchObject({ ok: false, hint: "rate_limited" });

    expect(await db().call<unknown[]>(asUser(player), "get_my_complaints")).toHaveLength(3);
    const stranger = await db().createPlayer();
    expect(await db().call<unknown[]>(asUser(stranger), "get_my_complaints")).toEqual([]);
    expect((await db().as(asUser(stranger), "select * from public.complaints")).rows).toEqual([]);
    expect(await attempt(db().call(asUser(stranger), "admin_list_complaints"))).toMatchObject({
      ok: false,
      hint: "admin_required",
    });
    expect(
      await attempt(db().call(anon, "submit_complaint", { p_subject: "Anon", p_reference: null, p_details: details })),
    ).toMatchObject({ ok: false });

    const queue = await db().call<Array<{ id: string; reference: string; overdue: boolean; email: string }>>(
      asUser(admin),
      "admin_list_complaints",
    );
    const mine = queue.find((c) => c.reference === first.reference)!;
    expect(mine.overdue).toBe(false);
    await db().sql("update public.complaints set acknowledge_by = now() - interval '1 minute' where reference = $1", [
      first.reference,
    ]);
    const overdue = await db().call<Array<{ reference: string; overdue: boolean }>>(
      asUser(admin),
      "admin_list_complaints",
      { p_status: "received" },
    );
    expect(overdue.find((c) => c.reference === first.reference)!.overdue).toBe(true);
    const answered = await db().call<{ status: string; response: string }>(asUser(admin), "admin_update_complaint", {
      p_id: mine.id,
      p_status: "resolved",
      p_response: "We re-sent your receipt and checked your tickets.",
    });
    expect(answered).toMatchObject({
      status: "resolved",
      response: "We re-sent your receipt and checked your tickets.",
    });
  });
});
