// The admin competition screens' RPCs: the detail page's extras, the admin entries
// CSV (every ticket number, held against the tickets table), the history with revenue and prize cost, and prize
// fulfilment. Admins and super admins only; everyone else is refused with the spec's message (anon cannot execute
// them at all).
import { describe, expect, it } from "vitest";
import { anon, asUser, dbPerFile, expectRefusedToNonAdmins, eachPage } from "./support";

const db = dbPerFile();

type Fulfilment = {
  draw_id: string;
  competition: { id: string; title: string };
  winner_name: string;
  winner_email: string | null;
  route: "online" | "postal";
  prize_choice: "prize" | "cash" | null;
  prize_status: "awaiting_claim" | "verified" | "delivered";
  verified_at: string | null;
  delivered_at: string | null;
  fulfilment_note: string | null;
  proof_of_delivery: string | null;
  prize_cost: number;
};
type HistoryRow = {
  id: string;
  status: string;
  revenue: number;
  refunded_total: number;
  prize_cost: number;
  net: number;
  prize_choice: string | null;
};
type History = { rows: HistoryRow[]; totals: Record<string, number> };
type Detail = {
  competition: { id: string; status: string; postal_deadline: string; draw_at: string };
  stored_dates: { postal_deadline: string | null; draw_at: string | null };
  figures: Record<string, number>;
  postal_entries: { name: string; postcode: string; email: string | null; ticket_numbers: number[]; status: string }[];
  fulfilment: Fulfilment | null;
};

const enter = (user: string, id: string, quantity: number) =>
  db().call(asUser(user), "enter_competition", { p_competition_id: id, p_quantity: quantity, p_answer: "4" });

/** A letter recorded by the admin, linked to an account or not, with the right answer. */
const recordLetter = (admin: string, id: string, name: string, address: string, userId: string | null = null) =>
  db().call(asUser(admin), "admin_record_postal_entry", {
    p_competition_id: id,
    p_user_id: userId,
    p_name: name,
    p_address: address,
    p_answer: "4",
  });

/** As if the postal deadline and the draw time had passed. */
async function passDrawTime(id: string) {
  await db().sql(
    `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
            postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
    [id],
  );
}

/** The draw time passes and the cron draws; answers the draw's id. */
async function drawNow(admin: string, id: string) {
  await passDrawTime(id);
  await db().call(asUser(admin), "run_due_draws");
  const [{ id: drawId }] = await db().sql<{ id: string }>("select id from public.draws where competition_id = $1", [
    id,
  ]);
  return drawId;
}

describe("guards", () => {
  it("every admin competition RPC refuses players, the unapproved, no user and anon", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    await expectRefusedToNonAdmins(db(), "admin_competition_detail", { p_id: id });
    await expectRefusedToNonAdmins(db(), "admin_competition_entries_csv", { p_id: id, p_after: 0, p_limit: 10 });
    await expectRefusedToNonAdmins(db(), "admin_competition_history");
    await expectRefusedToNonAdmins(db(), "admin_find_account", { p_email: "someone@labcash.test" });
    await expectRefusedToNonAdmins(db(), "admin_list_prize_fulfilment", { p_status: null });
    await expectRefusedToNonAdmins(db(), "admin_update_prize_fulfilment", {
      p_draw_id: id,
      p_status: "verified",
      p_note: null,
      p_proof_of_delivery: null,
    });
  });

  it("a super admin may call them; unknown ids are not found", async () => {
    const superAdmin = await db().createUser({ role: "super_admin", approved: true });
    const id = "00000000-0000-4000-8000-000000000000";
    expect((await db().rpc(asUser(superAdmin), "admin_competition_detail", { p_id: id })).error?.hint).toBe(
      "competition_not_found",
    );
    expect((await db().rpc(asUser(superAdmin), "admin_competition_entries_csv", { p_id: id })).error?.hint).toBe(
      "competition_not_found",
    );
    expect(
      (await db().rpc(asUser(superAdmin), "admin_update_prize_fulfilment", { p_draw_id: id, p_status: "verified" }))
        .error?.hint,
    ).toBe("draw_not_found");
    expect((await db().rpc(asUser(superAdmin), "admin_competition_history")).error).toBeNull();
  });
});

describe("admin_competition_detail", () => {
  it("gives a draft's stored dates as null (the defaults at publish) and the effective ones in the competition", async () => {
    const admin = await db().createAdmin();
    const id = await db().createCompetition(admin, {}, false);
    const detail = await db().call<Detail>(asUser(admin), "admin_competition_detail", { p_id: id });
    expect(detail.competition.status).toBe("draft");
    expect(detail.stored_dates).toEqual({ postal_deadline: null, draw_at: null });
    expect(detail.competition.postal_deadline).toBeTruthy();
    expect(detail.competition.draw_at).toBe(detail.competition.postal_deadline);
    expect(detail.postal_entries).toEqual([]);
    expect(detail.fulfilment).toBeNull();
  });

  it("counts entries, players and revenue in SQL and lists the postal entries with their ticket numbers", async () => {
    const admin = await db().createAdmin();
    const id = await db().createCompetition(admin, { ticket_price: "0.50", total_tickets: 10 });
    const a = await db().createPlayer({ credits: "10.00", name: "Ann Able" });
    const b = await db().createPlayer({ credits: "10.00" });
    await enter(a, id, 3);
    await enter(b, id, 1);
    await recordLetter(admin, id, "Ann Able", "1 High Street, Harrogate HG1 2AB", a);
    await recordLetter(admin, id, "Bob Post", "2 Low Road, Leeds ls1 4ap");
    const detail = await db().call<Detail>(asUser(admin), "admin_competition_detail", { p_id: id });
    // Stamp parity at £0.50 with a £0.87 stamp: 2 tickets a letter, numbered after the 10 online ones.
    expect(detail.figures).toEqual({
      online_tickets: 4,
      postal_tickets: 4,
      paid_entries: 2,
      postal_entries: 2,
      players: 2,
      revenue: 2,
      refunded_entries: 0,
      refunded_total: 0,
      void_postal_entries: 0,
    });
    expect(detail.postal_entries.map((p) => [p.name, p.postcode, p.ticket_numbers, p.status])).toEqual([
      ["Ann Able", "HG1 2AB", [11, 12], "active"],
      ["Bob Post", "LS1 4AP", [13, 14], "active"],
    ]);
    expect(detail.postal_entries[0].email).toMatch(/@labcash\.test$/);
    expect(detail.postal_entries[1].email).toBeNull();
  });

  it("shows refunds once cancelled", async () => {
    const admin = await db().createAdmin();
    const id = await db().createCompetition(admin, { ticket_price: "1.25" });
    const a = await db().createPlayer({ credits: "10.00" });
    await enter(a, id, 2);
    await db().call(asUser(admin), "admin_cancel_competition", { p_id: id, p_reason: "Prize unavailable" });
    const detail = await db().call<Detail>(asUser(admin), "admin_competition_detail", { p_id: id });
    expect(detail.figures).toMatchObject({ revenue: 0, refunded_entries: 1, refunded_total: 2.5, paid_entries: 0 });
  });
});

describe("admin_find_account", () => {
  it("finds an account by its exact e-mail, case ignored, or answers null", async () => {
    const admin = await db().createAdmin();
    const player = await db().createUser({ email: "Letter.Writer@Labcash.test", name: "Lett Writer" });
    expect(await db().call(asUser(admin), "admin_find_account", { p_email: " letter.writer@labcash.TEST " })).toEqual({
      id: player,
      name: "Lett Writer",
      email: "Letter.Writer@Labcash.test",
    });
    expect(await db().call(asUser(admin), "admin_find_account", { p_email: "letter@labcash.test" })).toBeNull();
    expect((await db().rpc(asUser(admin), "admin_find_account", { p_email: " " })).error?.hint).toBe("invalid_input");
  });
});

describe("admin_competition_entries_csv", () => {
  it("lists every entry with its buyer, in ticket order, in chunks whose concatenation is the whole file", async () => {
    const admin = await db().createAdmin();
    const id = await db().createCompetition(admin, { ticket_price: "2.00", total_tickets: 20 });
    const a = await db().createPlayer({ credits: "20.00", name: "Cat Comma" });
    const b = await db().createPlayer({ credits: "20.00", name: "=Dan Formula" });
    await enter(a, id, 2);
    await enter(b, id, 1);
    await recordLetter(admin, id, "Eve, Letter", "3 Mill Lane\nYork YO1 7HH");

    type Chunk = { csv: string; last_number: number | null; done: boolean };
    const whole = await db().call<Chunk>(asUser(admin), "admin_competition_entries_csv", { p_id: id });
    expect(whole.done).toBe(true);
    const lines = whole.csv.trimEnd().split("\n");
    expect(lines[0]).toBe(
      "entry_id,created_at,route,status,ticket_numbers,tickets,amount,user_id,name,email,postal_address,postcode",
    );
    expect(lines[1]).toMatch(
      /^[0-9a-f-]{36},\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,online,active,"1, 2",2,4\.00,[0-9a-f-]{36},Cat Comma,/,
    );
    expect(lines[2]).toContain(",online,active,3,1,2.00,");
    expect(lines[2]).toContain(',"\'=Dan Formula",');
    expect(whole.csv).toContain(',postal,active,21,1,0.00,,"Eve, Letter",,"3 Mill Lane\nYork YO1 7HH",YO1 7HH\n');

    const first = await db().call<Chunk>(asUser(admin), "admin_competition_entries_csv", { p_id: id, p_limit: 2 });
    expect(first).toMatchObject({ last_number: 3, done: false });
    const second = await db().call<Chunk>(asUser(admin), "admin_competition_entries_csv", {
      p_id: id,
      p_after: first.last_number,
      p_limit: 2,
    });
    expect(second).toMatchObject({ last_number: 21, done: true });
    expect(first.csv + second.csv).toBe(whole.csv);
  });

  it("works for a draft (header only) and for a cancelled competition (refunded entries)", async () => {
    const admin = await db().createAdmin();
    const draft = await db().createCompetition(admin, {}, false);
    expect(await db().call(asUser(admin), "admin_competition_entries_csv", { p_id: draft })).toMatchObject({
      last_number: null,
      done: true,
    });
    const id = await db().createCompetition(admin);
    const a = await db().createPlayer({ credits: "10.00" });
    await enter(a, id, 1);
    await db().call(asUser(admin), "admin_cancel_competition", { p_id: id, p_reason: "Prize unavailable" });
    const { csv } = await db().call<{ csv: string }>(asUser(admin), "admin_competition_entries_csv", { p_id: id });
    expect(csv).toContain(",online,refunded,1,1,1.00,");
  });
});

/** Parses RFC 4180 CSV (quoted cells may hold commas, doubled quotes and line breaks) into rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (quoted || (ch !== "," && ch !== "\n")) {
      cell += ch;
    } else {
      row.push(cell);
      cell = "";
      if (ch === "\n") {
        rows.push(row);
        row = [];
      }
    }
  }
  return rows;
}

/** Reads a ticket_numbers cell back into numbers: "7, 8, 13 to 15" is 7, 8, 13, 14, 15. */
function readTicketNumbers(cell: string): number[] {
  return cell.split(", ").flatMap((item) => {
    const [from, to = from] = item.split(" to ").map(Number);
    return Array.from({ length: to - from + 1 }, (_, k) => from + k);
  });
}

describe("every ticket number in the exports", () => {
  type Chunk = { csv: string; last_number: number | null; done: boolean };
  type Ticket = { number: number; id: string; entry_id: string; user_id: string | null; kind: "paid" | "postal" };

  /** The whole admin entries CSV, read three entries a chunk (so the paging by lowest number is crossed). */
  async function adminCsv(admin: string, id: string) {
    let csv = "";
    await eachPage<number>(async (after) => {
      const chunk = await db().call<Chunk>(asUser(admin), "admin_competition_entries_csv", {
        p_id: id,
        p_after: after ?? 0,
        p_limit: 3,
      });
      csv += chunk.csv;
      return chunk.done ? null : chunk.last_number;
    });
    const [header, ...rows] = parseCsv(csv);
    return rows.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i]])));
  }

  const ticketsOf = (id: string) =>
    db().sql<Ticket>(
      `select t.number, t.id, t.entry_id, t.user_id, e.kind from public.tickets t
         join public.entries e on e.id = t.entry_id where t.competition_id = $1 order by t.number`,
      [id],
    );

  /** Each CSV row's numbers are exactly its entry's tickets, with the entry's owner; every ticket once. */
  async function expectCsvIsTheTicketsTable(admin: string, id: string) {
    const rows = await adminCsv(admin, id);
    const tickets = await ticketsOf(id);
    const listed = rows.flatMap((row) => readTicketNumbers(row.ticket_numbers));
    expect(listed.toSorted((a, b) => a - b)).toEqual(tickets.map((t) => t.number));
    for (const row of rows) {
      const own = tickets.filter((t) => t.entry_id === row.entry_id);
      expect(readTicketNumbers(row.ticket_numbers), row.ticket_numbers).toEqual(own.map((t) => t.number));
      expect(Number(row.tickets)).toBe(own.length);
      expect(row.route).toBe(own[0].kind === "postal" ? "postal" : "online");
      for (const t of own) expect(row.user_id).toBe(t.user_id ?? "");
    }
    return rows;
  }

  it("a pick competition: picked numbers one by one, runs shortened, lucky dips and letters, each once", async () => {
    const admin = await db().createAdmin();
    // £0.50 tickets and a £0.87 stamp: a letter gets two tickets, numbered after the 60 online ones.
    const id = await db().createCompetition(admin, {
      ticket_numbering: "pick",
      ticket_price: "0.50",
      total_tickets: 60,
      max_tickets_per_user: 10,
    });
    const priya = await db().createPlayer({ credits: 10, name: "Priya Picks" });
    const sam = await db().createPlayer({ credits: 10, name: "Sam Runs" });
    const lou = await db().createPlayer({ credits: 10, name: "Lou Dips" });
    const pick = (uid: string, numbers: number[] | null, quantity = numbers?.length ?? 1) =>
      db().call(asUser(uid), "enter_competition", {
        p_competition_id: id,
        p_quantity: quantity,
        p_answer: "4",
        p_numbers: numbers,
      });
    await pick(priya, [21, 7, 13]);
    await pick(sam, [33, 30, 31, 32]);
    await pick(sam, [40, 34]);
    await pick(priya, [8, 9, 12, 14, 15, 16]);
    await pick(lou, null, 3);
    await recordLetter(admin, id, "Pat Post", "3 Mill Lane, York YO1 7HH");
    await recordLetter(admin, id, "Lou Dips", "3 Mill Lane, York YO1 7HH", lou);

    const rows = await expectCsvIsTheTicketsTable(admin, id);
    const byName = (name: string) => rows.filter((r) => r.name === name).map((r) => r.ticket_numbers);
    expect(byName("Priya Picks")).toEqual(["7, 13, 21", "8, 9, 12, 14 to 16"]);
    expect(byName("Sam Runs")).toEqual(["30 to 33", "34, 40"]);
    expect(byName("Pat Post")).toEqual(["61, 62"]);
    expect(rows.find((r) => r.name === "Lou Dips" && r.route === "postal")?.ticket_numbers).toBe("63, 64");

    // The public entry list and its entrants CSV: every ticket once, with its id, its owner's public name (or
    // "Postal entry") and its route.
    await db().sql(
      `update public.competitions set opens_at = now() - interval '2 days', closes_at = now() - interval '1 minute'
        where id = $1`,
      [id],
    );
    const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [id]);
    const tickets = await ticketsOf(id);
    const names = new Map(
      (
        await db().sql<{ id: string; name: string }>(
          "select id, private.public_name(name, show_initials_only) as name from public.profiles where id = any($1)",
          [[priya, sam, lou]],
        )
      ).map((p) => [p.id, p.name]),
    );
    const expected = tickets.map((t) => ({
      number: t.number,
      ticket_id: t.id,
      entrant: t.kind === "postal" ? "Postal entry" : names.get(t.user_id!),
      route: t.kind === "postal" ? "postal" : "online",
    }));
    const list = await db().call<{ rows: { number: number; ticket_id: string; entrant: string; route: string }[] }>(
      anon,
      "get_entry_list",
      { p_slug: slug, p_limit: 200 },
    );
    expect(list.rows.map(({ number, ticket_id, entrant, route }) => ({ number, ticket_id, entrant, route }))).toEqual(
      expected,
    );
    const entrants = await db().call<Chunk>(anon, "get_entrants_csv", { p_slug: slug });
    expect(entrants.done).toBe(true);
    const [, ...entrantRows] = parseCsv(entrants.csv);
    expect(
      entrantRows.map(([number, ticket_id, entrant, , route]) => ({
        number: Number(number),
        ticket_id,
        entrant,
        route,
      })),
    ).toEqual(expected);
  });

  it("an in-order competition: each order and letter one true run", async () => {
    const admin = await db().createAdmin();
    const id = await db().createCompetition(admin, { ticket_price: "0.50", total_tickets: 40 });
    const ann = await db().createPlayer({ credits: 10, name: "Ann Order" });
    const ben = await db().createPlayer({ credits: 10, name: "Ben Order" });
    await enter(ann, id, 3);
    await enter(ben, id, 1);
    await enter(ann, id, 2);
    await enter(ben, id, 5);
    await recordLetter(admin, id, "Ben Order", "3 Mill Lane, York YO1 7HH", ben);
    const rows = await expectCsvIsTheTicketsTable(admin, id);
    expect(rows.map((r) => [r.name, r.route, r.ticket_numbers])).toEqual([
      ["Ann Order", "online", "1 to 3"],
      ["Ben Order", "online", "4"],
      ["Ann Order", "online", "5, 6"],
      ["Ben Order", "online", "7 to 11"],
      ["Ben Order", "postal", "41, 42"],
    ]);
  });
});

describe("history and fulfilment", () => {
  it("history lists finished competitions with revenue and prize cost (the cash when the winner chose it)", async () => {
    const admin = await db().createAdmin();
    const before = await db().call<History>(asUser(admin), "admin_competition_history");

    const cash = await db().createCompetition(admin, { ticket_price: "2.00", cash_alternative: 80 });
    const winner = await db().createPlayer({ credits: "20.00" });
    await enter(winner, cash, 5);
    const cashDraw = await drawNow(admin, cash);
    await db().call(asUser(winner), "claim_prize", { p_draw_id: cashDraw, p_choice: "cash" });

    const prize = await db().createCompetition(admin, { ticket_price: "1.00", cash_alternative: 50 });
    await enter(winner, prize, 3);
    await drawNow(admin, prize);

    const cancelled = await db().createCompetition(admin, { ticket_price: "1.00" });
    await enter(winner, cancelled, 2);
    await db().call(asUser(admin), "admin_cancel_competition", { p_id: cancelled, p_reason: "Prize unavailable" });

    const empty = await db().createCompetition(admin);
    await passDrawTime(empty);
    await db().call(asUser(admin), "run_due_draws"); // no tickets: closed, no draw

    const live = await db().createCompetition(admin);
    await enter(winner, live, 1);

    const history = await db().call<History>(asUser(admin), "admin_competition_history");
    const row = (id: string) => history.rows.find((r) => r.id === id);
    expect(row(live)).toBeUndefined();
    expect(row(cash)).toMatchObject({ status: "drawn", revenue: 10, prize_cost: 80, net: -70, prize_choice: "cash" });
    expect(row(prize)).toMatchObject({ status: "drawn", revenue: 3, prize_cost: 100, net: -97, prize_choice: null });
    expect(row(cancelled)).toMatchObject({ status: "cancelled", revenue: 0, refunded_total: 2, prize_cost: 0, net: 0 });
    expect(row(empty)).toMatchObject({ status: "closed", revenue: 0, prize_cost: 0 });
    expect(history.totals.competitions - before.totals.competitions).toBe(4);
    expect(history.totals.revenue - before.totals.revenue).toBe(13);
    expect(history.totals.prize_cost - before.totals.prize_cost).toBe(180);
    expect(history.totals.refunded_total - before.totals.refunded_total).toBe(2);
  });

  it("a prize goes awaiting claim -> claimed -> verified -> delivered, with notes and proof, each change audited", async () => {
    const admin = await db().createAdmin();
    const id = await db().createCompetition(admin, { cash_alternative: 60 });
    const winner = await db().createPlayer({ credits: "5.00", name: "Wyn Winner" });
    await enter(winner, id, 1);
    const drawId = await drawNow(admin, id);
    const update = (status: string, note: string | null = null, proof: string | null = null) =>
      db().rpc<Fulfilment>(asUser(admin), "admin_update_prize_fulfilment", {
        p_draw_id: drawId,
        p_status: status,
        p_note: note,
        p_proof_of_delivery: proof,
        ...(status === "verified" ? { p_document_type: "passport", p_document_last_four: "1234" } : {}),
      });

    const listed = await db().call<Fulfilment[]>(asUser(admin), "admin_list_prize_fulfilment", {
      p_status: "awaiting_claim",
    });
    expect(listed.find((f) => f.draw_id === drawId)).toMatchObject({
      winner_name: "Wyn Winner",
      route: "online",
      prize_status: "awaiting_claim",
      prize_cost: 100,
    });

    // Not delivered before the claim is verified, nor without proof.
    expect((await update("delivered", null, "RM123")).error).toMatchObject({ hint: "prize_not_verified" });
    await db().call(asUser(winner), "claim_prize", { p_draw_id: drawId, p_choice: "cash" });
    const verified = await update("verified", "Passport checked");
    expect(verified.data).toMatchObject({
      prize_status: "verified",
      prize_choice: "cash",
      prize_cost: 60,
      fulfilment_note: "Passport checked",
    });
    expect(verified.data?.verified_at).toBeTruthy();
    // The winner's choice is fixed once verified.
    expect((await db().rpc(asUser(winner), "claim_prize", { p_draw_id: drawId, p_choice: "prize" })).error?.hint).toBe(
      "claim_closed",
    );
    expect((await update("delivered", "Paid", "  ")).error).toMatchObject({ hint: "invalid_input" });
    expect((await update("delivered", "x".repeat(2001), "BACS-1")).error).toMatchObject({ hint: "invalid_input" });
    expect((await update("lost")).error).toMatchObject({ hint: "invalid_input" });
    const delivered = await update("delivered", "Paid by bank transfer", " BACS-2026-0042 ");
    expect(delivered.data).toMatchObject({ prize_status: "delivered", proof_of_delivery: "BACS-2026-0042" });
    expect(delivered.data?.delivered_at).toBeTruthy();

    const log = await db().sql<{ details: { from: string; to: string; proof_of_delivery: string | null } }>(
      "select details from public.activity_log where action = 'prize.fulfilment' and subject_id = $1 order by id",
      [drawId],
    );
    expect(log.map((r) => [r.details.from, r.details.to, r.details.proof_of_delivery])).toEqual([
      ["claimed", "verified", null],
      ["verified", "delivered", "BACS-2026-0042"],
    ]);
    // Fulfilment columns are not readable by signed-in users directly.
    const direct = await db().as(asUser(winner), "select fulfilment_note from public.draws where id = $1", [drawId]);
    expect(direct.error?.code).toBe("42501");
  });
});
