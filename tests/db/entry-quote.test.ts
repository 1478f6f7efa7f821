// get_entry_quote: what the competition page shows before entering, worked out in SQL.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, attempt, dbPerFile } from "./support";

type Quote = {
  balance: number;
  approved: boolean;
  rejected: boolean;
  held: number;
  cap_left: number;
  tickets_left: number;
  costs: number[];
  shortfalls: number[];
};

const db = dbPerFile();
let admin: string;

beforeAll(async () => {
  admin = await db().createAdmin();
});

const quote = (uid: string, id: string) => db().call<Quote>(asUser(uid), "get_entry_quote", { p_competition_id: id });

describe("get_entry_quote", () => {
  it("prices each allowed quantity and the credit still missing, to the penny", async () => {
    const id = await db().createCompetition(admin, {
      ticket_price: "0.35",
      total_tickets: 20,
      max_tickets_per_user: 5,
    });
    const buyer = await db().createPlayer({ credits: "1.00" });
    const q = await quote(buyer, id);
    expect(q).toMatchObject({ balance: 1, approved: true, rejected: false, held: 0, cap_left: 5, tickets_left: 20 });
    expect(q.costs).toEqual([0.35, 0.7, 1.05, 1.4, 1.75]);
    expect(q.shortfalls).toEqual([0, 0, 0.05, 0.4, 0.75]);
  });

  it("counts tickets already held against the per-user cap and the tickets left", async () => {
    const id = await db().createCompetition(admin, { ticket_price: 1, total_tickets: 4, max_tickets_per_user: 3 });
    const buyer = await db().createPlayer({ credits: "10.00" });
    const other = await db().createPlayer({ credits: "10.00" });
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: id, p_quantity: 2, p_answer: "4" });
    await db().call(asUser(other), "enter_competition", { p_competition_id: id, p_quantity: 1, p_answer: "4" });
    const q = await quote(buyer, id);
    expect(q).toMatchObject({ held: 2, cap_left: 1, tickets_left: 1, balance: 8 });
    expect(q.costs).toEqual([1]);
  });

  it("tells an unapproved user they are not approved yet", async () => {
    const id = await db().createCompetition(admin);
    const pending = await db().createUser();
    expect(await quote(pending, id)).toMatchObject({ approved: false, balance: 0 });
  });

  it("is for signed-in users only and hides drafts", async () => {
    const draft = await db().createCompetition(admin, {}, false);
    const buyer = await db().createPlayer();
    expect(await attempt(quote(buyer, draft))).toMatchObject({
      ok: false,
      message: "Competition not found",
      code: "PT404",
    });
    const live = await db().createCompetition(admin);
    expect(await attempt(db().call(anon, "get_entry_quote", { p_competition_id: live }))).toMatchObject({
      ok: false,
      code: "42501",
    });
  });
});
