// Charity partners: a competition names a charity and what it gets, fixed once published; what is owed is worked out
// in SQL once it is drawn, from the paid entries that were not refunded; admins record each donation with its proof;
// everyone can read a competition's charity and each charity's totals; the trust page gets them by month.
import { describe, expect, it } from "vitest";
import { anon, asUser, attempt, dbPerFile, expectRefusedToNonAdmins, service } from "./support";

const db = dbPerFile();

type Donation = { donated_on: string; amount: string | number; reference: string; proof_path: string };
type Charity = {
  name: string;
  registered_number: string;
  website: string | null;
  revenue_percent: number | null;
  fixed_amount: number | null;
  owed: number | null;
  paid: number;
  donations: Donation[];
};
type Line = { slug: string; status: string; owed: number | null; paid: number };
type Total = { name: string; registered_number: string; owed: number; paid: number; competitions: Line[] };

const PROOF = "/media/charity-proofs/0f8fad5b-d9cb-469f-a165-70867728950e.pdf";
const charityOf = async (slug: string) =>
  (await db().call<Charity[]>(anon, "get_competition_charity", { p_slug: slug }))[0] ?? null;
const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(new Date());
const shareOfTenPercent = {
  name: "Children's Hospice South West",
  registered_number: "1003314",
  website: "https://www.chsw.org.uk",
  revenue_percent: 10,
};

describe("charity partners", () => {
  it("owe a share of the paid, not refunded ticket revenue once drawn, and publish each donation with its proof", async () => {
    const admin = await db().createAdmin();
    const player = await db().createPlayer({ credits: "50.00" });
    const other = await db().createPlayer({ credits: "50.00" });
    const competitionId = await db().createCompetition(admin, {
      slug: "charity-share",
      ticket_price: "2.50",
      charity: shareOfTenPercent,
    });

    // Shown before entry: the charity and its share, nothing owed yet.
    expect(await charityOf("charity-share")).toMatchObject({
      name: "Children's Hospice South West",
      registered_number: "1003314",
      revenue_percent: 10,
      fixed_amount: null,
      owed: null,
      paid: 0,
      donations: [],
    });

    // 7 tickets at £2.50 paid (£17.50), a free postal entry (no revenue), and 3 more paid then refunded by an admin.
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competitionId,
      p_quantity: 7,
      p_answer: "4",
    });
    await db().postalEntry(admin, competitionId);
    await db().call(asUser(other), "enter_competition", {
      p_competition_id: competitionId,
      p_quantity: 3,
      p_answer: "4",
    });
    await db().sql("update public.entries set status = 'refunded' where user_id = $1", [other]);

    // A donation before the draw is refused: nothing is owed yet.
    const early = await attempt(
      db().call(asUser(admin), "admin_record_charity_donation", {
        p_competition_id: competitionId,
        p: { amount: "1.75", donated_on: today(), reference: "EARLY", proof_path: PROOF },
      }),
    );
    expect(early).toMatchObject({ ok: false, hint: "not_drawn" });

    await db().drawNow(admin, competitionId);
    // 10 % of £17.50 = £1.75: the refunded entry and the postal one give nothing.
    expect(await charityOf("charity-share")).toMatchObject({ owed: 1.75, paid: 0 });

    const recorded = await db().call<Charity>(asUser(admin), "admin_record_charity_donation", {
      p_competition_id: competitionId,
      p: { amount: "1.75", donated_on: today(), reference: " BACS 20261207 ", proof_path: PROOF },
    });
    expect(recorded).toMatchObject({ owed: 1.75, paid: 1.75 });
    expect(recorded.donations).toEqual([
      expect.objectContaining({ amount: 1.75, donated_on: today(), reference: "BACS 20261207", proof_path: PROOF }),
    ]);
    expect(await charityOf("charity-share")).toEqual(recorded);

    // The charity's public total over its competitions.
    const [total] = await db().call<Total[]>(anon, "list_charities");
    expect(total).toMatchObject({ registered_number: "1003314", owed: 1.75, paid: 1.75 });
    expect(total.competitions).toEqual([expect.objectContaining({ slug: "charity-share", owed: 1.75, paid: 1.75 })]);

    // The admin history takes what is owed to the charity off the net.
    const history = await db().call<{
      rows: Array<{ slug: string; charity_owed: number; net: number; revenue: number; prize_cost: number }>;
    }>(asUser(admin), "admin_competition_history");
    const row = history.rows.find((r) => r.slug === "charity-share")!;
    expect(row).toMatchObject({ revenue: 17.5, prize_cost: 100, charity_owed: 1.75 });
    expect(row.net).toBeCloseTo(17.5 - 100 - 1.75, 2);

    // The activity log names the donation.
    const [logged] = await db().sql<{ action: string }>(
      "select action from public.activity_log where action = 'charity.donation_recorded'",
    );
    expect(logged).toBeDefined();
  });

  it("owe a fixed sum once drawn, nothing when cancelled, and keep one charity per registered number", async () => {
    const admin = await db().createAdmin();
    const player = await db().createPlayer({ credits: "10.00" });
    const sameCharity = { name: "Children's Hospice SW", registered_number: "1003314", fixed_amount: "500.00" };
    const fixed = await db().createCompetition(admin, { slug: "charity-fixed", charity: sameCharity });
    const cancelled = await db().createCompetition(admin, {
      slug: "charity-cancelled",
      charity: { name: "Shelter", registered_number: "SC 002327", fixed_amount: 100 },
    });
    await db().call(asUser(player), "enter_competition", { p_competition_id: fixed, p_quantity: 1, p_answer: "4" });
    await db().call(asUser(admin), "admin_cancel_competition", {
      p_id: cancelled,
      p_reason: "The prize is no longer available",
    });
    expect(await charityOf("charity-fixed")).toMatchObject({ fixed_amount: 500, owed: null });
    expect(await charityOf("charity-cancelled")).toMatchObject({ registered_number: "SC002327", owed: 0 });

    await db().drawNow(admin, fixed);
    expect(await charityOf("charity-fixed")).toMatchObject({ owed: 500, paid: 0 });

    // The name as an admin last gave it, one row per registered number; the first test's competition is counted too.
    const totals = await db().call<Total[]>(anon, "list_charities");
    const hospice = totals.find((t) => t.registered_number === "1003314");
    expect(hospice).toMatchObject({ name: "Children's Hospice SW", owed: 501.75, paid: 1.75 });
    expect(hospice?.competitions.map((c) => c.slug).sort()).toEqual(["charity-fixed", "charity-share"]);
    expect(totals.find((t) => t.registered_number === "SC002327")).toMatchObject({ owed: 0, paid: 0 });

    // The trust page's figures: this month's draws owe £501.75 to one charity, £1.75 paid.
    const figures = await db().call<{ period: string; owed: number; paid: number; charities: number }[]>(
      service,
      "get_transparency_charity_figures",
    );
    expect(figures.find((f) => f.period === "all")).toMatchObject({ owed: 501.75, paid: 1.75, charities: 1 });
    expect(figures.find((f) => f.period === today().slice(0, 7))).toMatchObject({ owed: 501.75, paid: 1.75 });
  });

  it("are fixed once published, checked when given, and only shown for published competitions", async () => {
    const admin = await db().createAdmin();
    const refused = async (p: Record<string, unknown>) =>
      attempt(db().call(asUser(admin), "admin_create_competition", { p: { ...minimal(), ...p } }));
    for (const charity of [
      { name: "X", registered_number: "1003314", revenue_percent: 5 },
      { name: "Shelter", registered_number: "12345", revenue_percent: 5 },
      { name: "Shelter", registered_number: "263710", revenue_percent: 5, fixed_amount: 10 },
      { name: "Shelter", registered_number: "263710" },
      { name: "Shelter", registered_number: "263710", revenue_percent: 100.5 },
      { name: "Shelter", registered_number: "263710", revenue_percent: "ten" },
      { name: "Shelter", registered_number: "263710", fixed_amount: 0 },
      { name: "Shelter", registered_number: "263710", fixed_amount: 5, website: "http://shelter.org.uk" },
    ]) {
      expect(await refused({ charity }), JSON.stringify(charity)).toMatchObject({ ok: false, hint: "invalid_input" });
    }
    // Nothing half-written: no competition, no charity.
    expect(await db().sql("select 1 from public.charities where registered_number = '263710'")).toEqual([]);

    const draft = await db().createCompetition(
      admin,
      { slug: "charity-draft", charity: { name: "Shelter", registered_number: "263710", revenue_percent: 5 } },
      false,
    );
    // A draft is no one's business but the admins'.
    expect(await attempt(charityOf("charity-draft"))).toMatchObject({ ok: false, hint: "competition_not_found" });
    await db().call(asUser(admin), "admin_update_competition", {
      p_id: draft,
      p: { charity: { name: "Shelter", registered_number: "263710", revenue_percent: 7.5 } },
    });
    await db().call(asUser(admin), "admin_publish_competition", { p_id: draft });
    expect(await charityOf("charity-draft")).toMatchObject({ revenue_percent: 7.5 });

    const change = (charity: unknown) =>
      attempt(db().call(asUser(admin), "admin_update_competition", { p_id: draft, p: { charity } }));
    expect(await change({ name: "Shelter", registered_number: "263710", revenue_percent: 10 })).toMatchObject({
      ok: false,
      hint: "edit_not_allowed",
    });
    expect(await change(null)).toMatchObject({ ok: false, hint: "edit_not_allowed" });
    expect(await change({ name: "Crisis", registered_number: "1082947", revenue_percent: 7.5 })).toMatchObject({
      ok: false,
      hint: "edit_not_allowed",
    });
    // The same charity on the same terms may have its name or website corrected.
    expect(
      await change({
        name: "Shelter England",
        registered_number: "263710",
        revenue_percent: "7.50",
        website: "https://england.shelter.org.uk",
      }),
    ).toMatchObject({ ok: true });
    expect(await charityOf("charity-draft")).toMatchObject({ name: "Shelter England", revenue_percent: 7.5 });

    // A competition without a charity answers no row, and a donation to it is refused.
    const none = await db().createCompetition(admin, { slug: "charity-none" });
    expect(await charityOf("charity-none")).toBeNull();
    expect(
      await attempt(
        db().call(asUser(admin), "admin_record_charity_donation", {
          p_competition_id: none,
          p: { amount: 1, donated_on: today(), reference: "X", proof_path: PROOF },
        }),
      ),
    ).toMatchObject({ ok: false, hint: "no_charity" });
  });

  it("take donations only from admins, with a proof, a reference and a date that makes sense", async () => {
    const admin = await db().createAdmin();
    const player = await db().createPlayer({ credits: "5.00" });
    const competitionId = await db().createCompetition(admin, {
      slug: "charity-donations",
      charity: { name: "Shelter", registered_number: "263710", fixed_amount: 20 },
    });
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competitionId,
      p_quantity: 1,
      p_answer: "4",
    });
    await db().drawNow(admin, competitionId);

    const donate = (p: Record<string, unknown>) =>
      attempt(
        db().call(asUser(admin), "admin_record_charity_donation", {
          p_competition_id: competitionId,
          p: { amount: "20.00", donated_on: today(), reference: "REF-1", proof_path: PROOF, ...p },
        }),
      );
    for (const wrong of [
      { amount: "0" },
      { amount: "1.234" },
      { amount: "lots" },
      { donated_on: "2999-01-01" },
      { donated_on: "2000-01-01" },
      { donated_on: "yesterday" },
      { reference: "  " },
      { proof_path: "/media/competition-images/0f8fad5b-d9cb-469f-a165-70867728950e.jpg" },
      { proof_path: "https://example.com/receipt.pdf" },
    ]) {
      expect(await donate(wrong), JSON.stringify(wrong)).toMatchObject({ ok: false, hint: "invalid_input" });
    }
    expect(await db().sql("select 1 from public.charity_donations where competition_id = $1", [competitionId])).toEqual(
      [],
    );

    await expectRefusedToNonAdmins(db(), "admin_record_charity_donation", {
      p_competition_id: competitionId,
      p: { amount: "20.00", donated_on: today(), reference: "REF-1", proof_path: PROOF },
    });
    await expectRefusedToNonAdmins(db(), "admin_competition_charity", { p_id: competitionId });
    // The trust page's figures are the site's to compute, like the rest of its report.
    for (const caller of [anon, asUser(player), asUser(admin)]) {
      expect(await attempt(db().call(caller, "get_transparency_charity_figures"))).toMatchObject({ ok: false });
    }
    // No API role reads the tables directly.
    for (const table of ["charities", "competition_charities", "charity_donations"]) {
      const read = await db().as(anon, `select * from public.${table}`);
      expect(read.error?.code, table).toBe("42501");
    }

    expect(await donate({})).toMatchObject({ ok: true });
    expect(await charityOf("charity-donations")).toMatchObject({ owed: 20, paid: 20 });
  });
});

function minimal() {
  return {
    title: "Charity checks",
    prize_description: "A prize",
    prize_value: 10,
    images: [],
    ticket_price: 1,
    total_tickets: 10,
    max_tickets_per_user: 10,
    closes_at: new Date(Date.now() + 86400_000).toISOString(),
  };
}
