// The admin console's reads: the dashboard's figures in one call, and the
// activity log's filter, keyset pages and CSV. Admins and super admins only; everyone else is
// refused with the spec's message (anon cannot execute them at all).
import { describe, expect, it } from "vitest";
import { ACTIVITY_CSV_HEADER, activityCsv } from "@/lib/activity/csv";
import { activitySentence, sentenceText } from "@/lib/activity/sentences";
import type { ActivityRef } from "@/lib/data/admin-console";
import { asUser, dbPerFile, expectRefusedToNonAdmins, service } from "./support";

const db = dbPerFile();

type Dashboard = {
  from: string;
  to: string;
  counts: Record<string, number>;
  days: { day: string; signups: number; tickets: number; credit_sold: number }[];
  totals: { signups: number; tickets: number; credit_sold: number };
};

type ActivityRow = {
  id: number;
  action: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  subject_id: string | null;
  subject_kind: string | null;
  subject_label: string | null;
  details: Record<string, unknown>;
  created_at: string;
  refs: ActivityRef[];
};
type ActivityPage = { rows: ActivityRow[]; next_before: number | null; kinds: string[] };

/** Today in Europe/London as YYYY-MM-DD, from the database's clock. */
async function londonToday(): Promise<string> {
  const [{ today }] = await db().sql<{ today: string }>(
    "select to_char((now() at time zone 'Europe/London')::date, 'YYYY-MM-DD') as today",
  );
  return today;
}

const dayOf = (dashboard: Dashboard, day: string) => dashboard.days.find((d) => d.day === day)!;

/** Appends a log row as the database owner (the way private.log_activity does, with a chosen actor and time). */
async function logRow(action: string, actor: string | null, subject: string | null, details = {}, at?: string) {
  const [{ id }] = await db().sql<{ id: number }>(
    `insert into public.activity_log (actor_id, action, subject_id, details, created_at)
     values ($1, $2, $3, $4, coalesce($5::timestamptz, now())) returning id`,
    [actor, action, subject, JSON.stringify(details), at ?? null],
  );
  return Number(id);
}

describe("admin_dashboard", () => {
  it("counts players, pending approvals, live competitions and open complaints", async () => {
    const admin = await db().createAdmin();
    const before = await db().call<Dashboard>(asUser(admin), "admin_dashboard");

    await db().createPlayer();
    await db().createUser(); // waiting for approval
    const rejected = await db().createUser();
    await db().call(asUser(admin), "admin_reject_user", { p_user_id: rejected, p_reason: "Not eligible" });
    await db().createUser({ role: "super_admin", approved: true }); // not a player
    await db().createCompetition(admin);
    await db().createCompetition(admin, {}, false); // a draft is not live
    const complainant = await db().createPlayer();
    const complaint = (text: string) =>
      db().call<{ id: string }>(asUser(complainant), "submit_complaint", {
        p_subject: text,
        p_reference: null,
        p_details: "The details of what went wrong, at length.",
      });
    const open = await complaint("Still open");
    const resolved = await complaint("Resolved one");
    await complaint("Overdue one");
    await db().call(asUser(admin), "admin_update_complaint", {
      p_id: resolved.id,
      p_status: "resolved",
      p_response: "Sorted, with our apologies.",
    });
    await db().call(asUser(admin), "admin_update_complaint", { p_id: open.id, p_status: "acknowledged" });
    await db().sql(
      "update public.complaints set acknowledge_by = now() - interval '1 hour' where subject = 'Overdue one'",
    );

    const after = await db().call<Dashboard>(asUser(admin), "admin_dashboard");
    const delta = (key: string) => after.counts[key] - before.counts[key];
    expect({
      players: delta("players"),
      approved_players: delta("approved_players"),
      pending_approvals: delta("pending_approvals"),
      live_competitions: delta("live_competitions"),
      open_complaints: delta("open_complaints"),
      overdue_complaints: delta("overdue_complaints"),
    }).toEqual({
      players: 4, // the player, the pending one, the rejected one and the complainant; not the admins
      approved_players: 2,
      pending_approvals: 1,
      live_competitions: 1,
      open_complaints: 2,
      overdue_complaints: 1,
    });
  });

  it("counts live competitions as the public site does: an opening-soon or closed one is not live", async () => {
    const admin = await db().createAdmin();
    const before = await db().call<Dashboard>(asUser(admin), "admin_dashboard");
    const hours = (n: number) => new Date(Date.now() + n * 3600_000).toISOString();
    await db().createCompetition(admin); // open now
    await db().createCompetition(admin, { opens_at: hours(24), closes_at: hours(72) }); // opening soon
    const ended = await db().createCompetition(admin); // online sales ended, waiting for the draw
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '1 hour',
              postal_deadline = now() + interval '1 day', draw_at = now() + interval '1 day' where id = $1`,
      [ended],
    );
    const after = await db().call<Dashboard>(asUser(admin), "admin_dashboard");
    const delta = (key: string) => after.counts[key] - before.counts[key];
    expect({
      live_competitions: delta("live_competitions"),
      opening_soon: delta("opening_soon"),
      awaiting_draw: delta("awaiting_draw"),
    }).toEqual({ live_competitions: 1, opening_soon: 1, awaiting_draw: 1 });
  });

  it("gives the last 30 UK days, today last, with sign-ups, paid tickets and credit bought per day", async () => {
    const admin = await db().createAdmin();
    const today = await londonToday();
    const before = await db().call<Dashboard>(asUser(admin), "admin_dashboard");
    expect(before.days).toHaveLength(30);
    expect(before.to).toBe(today);
    expect(before.days.at(-1)!.day).toBe(today);
    expect(before.days[0].day).toBe(before.from);

    // Today: a sign-up, 3 paid tickets, £20 of credit bought (plus £5 of free credit, which is not sold).
    const player = await db().createPlayer({ name: "Bea Buyer" });
    await db().call(service, "add_credits", { user_id: player, amount: 20, transaction_amount: 20 });
    await db().call(service, "add_credits", { user_id: player, amount: 5 });
    const competition = await db().createCompetition(admin, {
      ticket_price: 2,
      skill_question: null,
      skill_options: null,
      skill_answer: null,
    });
    await db().call(asUser(player), "enter_competition", { p_competition_id: competition, p_quantity: 3 });
    // Ten days ago (UK): a sign-up. Forty days ago: one that is outside the window.
    const older = await db().createUser();
    const ancient = await db().createUser();
    await db().sql(
      `update public.user_account_data
          set created_at = ((now() at time zone 'Europe/London')::date - 10 + time '12:00') at time zone 'Europe/London'
        where id = $1`,
      [older],
    );
    await db().sql("update public.user_account_data set created_at = now() - interval '40 days' where id = $1", [
      ancient,
    ]);

    const after = await db().call<Dashboard>(asUser(admin), "admin_dashboard");
    const tenDaysAgo = after.days.at(-11)!.day;
    // The two moved accounts were made today too, then moved away from it.
    expect(dayOf(after, today).signups - dayOf(before, today).signups).toBe(1);
    expect(dayOf(after, today).tickets - dayOf(before, today).tickets).toBe(3);
    expect(dayOf(after, today).credit_sold - dayOf(before, today).credit_sold).toBe(20);
    expect(dayOf(after, tenDaysAgo).signups - dayOf(before, tenDaysAgo).signups).toBe(1);
    expect(after.totals.signups - before.totals.signups).toBe(2);
    expect(after.totals.tickets).toBe(after.days.reduce((sum, d) => sum + d.tickets, 0));
    expect(after.totals.credit_sold - before.totals.credit_sold).toBe(20);
  });

  it("is for admins and super admins only", async () => {
    const superAdmin = await db().createUser({ role: "super_admin", approved: true });
    expect((await db().rpc(asUser(superAdmin), "admin_dashboard")).error).toBeNull();
    await expectRefusedToNonAdmins(db(), "admin_dashboard");
  });
});

describe("admin_list_activity", () => {
  it("pages newest first with a keyset cursor, and lists every kind recorded", async () => {
    const admin = await db().createAdmin();
    const ids: number[] = [];
    for (let i = 0; i < 7; i += 1) ids.push(await logRow("test.paging", admin, null, { i }));
    const page = (before: number | null) =>
      db().call<ActivityPage>(asUser(admin), "admin_list_activity", {
        p_kind: "test.paging",
        p_before: before,
        p_limit: 3,
      });
    const first = await page(null);
    expect(first.rows.map((r) => r.id)).toEqual([ids[6], ids[5], ids[4]]);
    expect(first.next_before).toBe(ids[4]);
    const second = await page(first.next_before);
    expect(second.rows.map((r) => r.id)).toEqual([ids[3], ids[2], ids[1]]);
    const third = await page(second.next_before);
    expect(third.rows.map((r) => r.id)).toEqual([ids[0]]);
    expect(third.next_before).toBeNull();
    expect(first.kinds).toContain("test.paging");
    expect(first.kinds).toContain("user.signed_up");
    expect(first.kinds).toEqual([...first.kinds].sort());
    expect(new Set(first.kinds).size).toBe(first.kinds.length);
  });

  it("names the actor and the subject: a user, a competition, a draw's competition, a top-up, a complaint", async () => {
    const admin = await db().createUser({
      name: "Olive Operator",
      email: "olive@ops.test",
      role: "admin",
      approved: true,
    });
    const user = await db().createUser({ name: "Sid Subject", email: "sid@subject.test" });
    await db().call(asUser(admin), "admin_approve_user", { p_user_id: user });
    const competition = await db().createCompetition(admin, { title: "Named Prize Draw" });
    const complaint = await db().call<{ id: string; reference: string }>(asUser(user), "submit_complaint", {
      p_subject: "About the draw",
      p_reference: null,
      p_details: "Something I would like to complain about.",
    });
    const page = await db().call<ActivityPage>(asUser(admin), "admin_list_activity", { p_actor: admin, p_limit: 200 });
    const approved = page.rows.find((r) => r.action === "user.approved")!;
    expect(approved).toMatchObject({
      actor_id: admin,
      actor_name: "Olive Operator",
      actor_email: "olive@ops.test",
      subject_id: user,
      subject_kind: "user",
      subject_label: "Sid Subject (sid@subject.test)",
    });
    expect(page.rows.find((r) => r.action === "competition.created")).toMatchObject({
      subject_id: competition,
      subject_kind: "competition",
      subject_label: "Named Prize Draw",
      details: { title: "Named Prize Draw" },
    });
    const complaints = await db().call<ActivityPage>(asUser(admin), "admin_list_activity", {
      p_subject: complaint.reference,
    });
    expect(complaints.rows).toHaveLength(1);
    expect(complaints.rows[0]).toMatchObject({
      action: "complaint.submitted",
      actor_id: user,
      subject_kind: "complaint",
      subject_label: `Complaint ${complaint.reference}`,
    });
  });

  it("filters by actor, kind or family, subject and UK dates, together", async () => {
    const admin = await db().createUser({
      name: "Fay Filter",
      email: "fay@filters.test",
      role: "admin",
      approved: true,
    });
    const other = await db().createAdmin();
    const subject = await db().createUser({ name: "Tom Target", email: "tom@target.test" });
    const a = await logRow("filter.one", admin, subject, {}, "2026-03-10T12:00:00Z");
    const b = await logRow("filter.two", admin, null, {}, "2026-03-11T23:30:00Z"); // 11 March UTC = 11 March UK (GMT)
    const c = await logRow("filter.one", other, subject, {}, "2026-06-30T23:30:00Z"); // 1 July in the UK (BST)
    const d = await logRow("filterx.one", admin, null, {}, "2026-03-10T12:00:00Z"); // another family
    const ids = async (args: Record<string, unknown>) =>
      (await db().call<ActivityPage>(asUser(admin), "admin_list_activity", { p_limit: 200, ...args })).rows
        .map((r) => r.id)
        .filter((id) => [a, b, c, d].includes(id));

    expect(await ids({ p_kind: "filter" })).toEqual([c, b, a]);
    expect(await ids({ p_kind: "filter.one" })).toEqual([c, a]);
    expect(await ids({ p_actor: "fay@FILTERS" })).toEqual([d, b, a]);
    expect(await ids({ p_actor: "Fay", p_kind: "filter" })).toEqual([b, a]);
    expect(await ids({ p_actor: other })).toEqual([c]);
    expect(await ids({ p_subject: "tom target" })).toEqual([c, a]);
    expect(await ids({ p_subject: subject, p_actor: admin })).toEqual([a]);
    expect(await ids({ p_from: "2026-03-11", p_to: "2026-03-11" })).toEqual([b]);
    expect(await ids({ p_from: "2026-07-01" })).toEqual([c]);
    expect(await ids({ p_to: "2026-06-30" })).toEqual([d, b, a]);
    // LIKE's wildcards are text like any other.
    expect(await ids({ p_actor: "%" })).toEqual([]);
    expect(await ids({ p_actor: "F_y" })).toEqual([]);
  });

  it("refuses a bad filter with invalid_input", async () => {
    const admin = await db().createAdmin();
    for (const args of [
      { p_kind: "drop table" },
      { p_kind: "Competition" },
      { p_actor: "x".repeat(201) },
      { p_subject: "x".repeat(201) },
      { p_from: "2026-05-02", p_to: "2026-05-01" },
      { p_from: "1999-12-31" },
    ]) {
      const res = await db().rpc(asUser(admin), "admin_list_activity", args);
      expect(res.error, JSON.stringify(args)).toMatchObject({ code: "22023", hint: "invalid_input" });
    }
  });

  it("is for admins and super admins only", async () => {
    const superAdmin = await db().createUser({ role: "super_admin", approved: true });
    expect((await db().rpc(asUser(superAdmin), "admin_list_activity")).error).toBeNull();
    await expectRefusedToNonAdmins(db(), "admin_list_activity");
  });
});

describe("admin_activity_export and the CSV written from it", () => {
  it("names what each row mentions: the buyer, the competition and the entry's tickets, by the real functions", async () => {
    const admin = await db().createAdmin();
    const player = await db().createPlayer({ name: "Pat Purchaser", credits: 20 });
    const competition = await db().createCompetition(admin, { title: "Named Refs Prize", ticket_price: 1.5 });
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 3,
      p_answer: "4",
    });
    const page = await db().call<ActivityPage>(asUser(admin), "admin_list_activity", {
      p_kind: "competition.entered",
      p_subject: competition,
    });
    expect(page.rows).toHaveLength(1);
    const [entered] = page.rows;
    const entryId = entered.details.entry_id as string;
    expect(entered.refs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: competition,
          kind: "competition",
          name: "Named Refs Prize",
          competition_id: competition,
        }),
        expect.objectContaining({ id: player, kind: "user", name: "Pat Purchaser", user_id: player }),
        {
          id: entryId,
          kind: "entry",
          name: "Named Refs Prize",
          competition_id: competition,
          user_id: player,
          user_name: "Pat Purchaser",
          amount: 4.5,
          numbers: [1, 2, 3],
        },
      ]),
    );
    expect(entered.refs).toHaveLength(3);
    expect(sentenceText(activitySentence(entered))).toBe(
      "Pat Purchaser entered Named Refs Prize with 3 tickets (#1, #2, #3) for £4.50.",
    );
    // The export reads the same rows, the same names.
    const exported = await db().call<{ rows: ActivityRow[]; next_before: number | null }>(
      asUser(admin),
      "admin_activity_export",
      { p_kind: "competition.entered", p_subject: competition },
    );
    expect(exported).toEqual({ rows: page.rows, next_before: null });
  });

  it("leaves out an id that names nothing, and a details value that is no id", async () => {
    const admin = await db().createAdmin();
    const gone = "00000000-0000-4000-8000-00000000dead";
    await logRow("refstest.gone", admin, gone, { user_id: gone, entry_id: "not an id", competition_id: null });
    const page = await db().call<ActivityPage>(asUser(admin), "admin_list_activity", { p_kind: "refstest" });
    expect(page.rows[0].refs).toEqual([]);
  });

  it("writes the filtered log as CSV in chunks: the old columns, the sentence, the JSON last, formulas defused", async () => {
    const admin = await db().createUser({ name: "=Csv Admin", email: "csv@admin.test", role: "admin", approved: true });
    const subject = await db().createUser({ name: "Cas Subject", email: "cas@subject.test", approved: true });
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push(await logRow("user.rejected", admin, subject, { reason: `a, "quoted" ${i}`, by: admin }));
    }
    const chunks = async function* () {
      let before: number | null = null;
      let calls = 0;
      for (;;) {
        const chunk: { rows: ActivityRow[]; next_before: number | null } = await db().call(
          asUser(admin),
          "admin_activity_export",
          { p_actor: admin, p_kind: "user.rejected", p_before: before, p_limit: 2 },
        );
        calls += 1;
        yield chunk.rows;
        if (chunk.next_before === null) break;
        before = chunk.next_before;
      }
      expect(calls).toBe(3);
    };
    let csv = "";
    for await (const part of activityCsv(chunks())) csv += part;
    const lines = csv.trimEnd().split("\n");
    expect(lines[0]).toBe(
      "id,created_at,action,actor_id,actor,actor_email,subject_id,subject_kind,subject,details,details_json",
    );
    expect(lines).toHaveLength(6);
    expect(lines.slice(1).map((line) => Number(line.split(",")[0]))).toEqual([...ids].reverse());
    expect(lines[1]).toBe(
      [
        ids[4],
        lines[1].split(",")[1],
        "user.rejected",
        admin,
        `"'=Csv Admin"`,
        "csv@admin.test",
        subject,
        "user",
        "Cas Subject (cas@subject.test)",
        `"'=Csv Admin rejected Cas Subject: “a, ""quoted"" 4”."`,
        `"{""by"":""${admin}"",""reason"":""a, \\""quoted\\"" 4""}"`,
      ].join(","),
    );
    expect(lines[1].split(",")[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The JSON, read back, is the details as recorded.
    const json = lines[1].slice(lines[1].lastIndexOf(',"{') + 2, -1).replace(/""/g, '"');
    expect(JSON.parse(json)).toEqual({ reason: 'a, "quoted" 4', by: admin });
  });

  it("writes just the header for a filter that matches nothing", async () => {
    const admin = await db().createAdmin();
    const none = db().call<{ rows: ActivityRow[]; next_before: number | null }>(
      asUser(admin),
      "admin_activity_export",
      {
        p_kind: "nothing.matches",
      },
    );
    let csv = "";
    for await (const part of activityCsv(
      (async function* () {
        yield (await none).rows;
      })(),
    ))
      csv += part;
    expect(csv).toBe(`${ACTIVITY_CSV_HEADER}\n`);
  });

  it("refuses a bad filter, and everyone but admins", async () => {
    const admin = await db().createAdmin();
    const res = await db().rpc(asUser(admin), "admin_activity_export", { p_from: "2026-05-02", p_to: "2026-05-01" });
    expect(res.error).toMatchObject({ code: "22023", hint: "invalid_input" });
    await expectRefusedToNonAdmins(db(), "admin_activity_export");
  });
});
