// What the admin console reads: the dashboard (counts, 30 days and totals) before and after sign-ups, purchases and
// flags; the activity log and its CSV page by page under several filters, an empty one and a date range, and their
// refusals; the health checks and the System page (ops_check, admin_deep_health, admin_system_overview,
// admin_webhook_refusals) through job runs, webhook deliveries and refusals, payments needing a person, failed
// mail, refused sign-ins, an overdue draw and its alert.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, dbPerFile, eachPage, service, type Caller } from "./support";

const db = dbPerFile();

let admin: string;
beforeAll(async () => {
  admin = await db().createUser({ role: "super_admin", approved: true });
});

describe("the admin console's reads", () => {
  it("answer the dashboard and every activity page", async () => {
    const first = await db().call(asUser(admin), "admin_dashboard");
    expect(first).toMatchObject({ counts: { live_competitions: 0, flagged_players: 0 } });

    const player = await db().createPlayer({ credits: 25 });
    await db().createUser();
    const competition = await db().createCompetition(admin, { ticket_price: 1.5 });
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 3,
      p_answer: "4",
    });
    await db().sql(
      "insert into public.player_flags (user_id, kind, period, details) values ($1, 'large_top_ups', '2026-11', '{}')",
      [player],
    );
    const later = await db().call(asUser(admin), "admin_dashboard");
    expect(later).toMatchObject({ counts: { live_competitions: 1, flagged_players: 1 } });

    const listed: Record<string, number> = {};
    for (const [actor, kind, subject] of [
      [null, null, null],
      [null, "competition", null],
      ["nobody-at-all", null, null],
      [null, null, "Test prize"],
    ] as const) {
      let rows = 0;
      await eachPage<number>(async (before) => {
        const now: { rows: unknown[]; next_before: number | null } = await db().call(
          asUser(admin),
          "admin_list_activity",
          { p_actor: actor, p_kind: kind, p_subject: subject, p_before: before, p_limit: 2 },
        );
        expect(now.rows.length).toBeLessThanOrEqual(2);
        rows += now.rows.length;
        return now.next_before;
      });
      listed[actor ?? kind ?? subject ?? "all"] = rows;
    }
    expect(listed["nobody-at-all"]).toBe(0);
    expect(listed.competition).toBeGreaterThan(0);
    expect(listed.all).toBeGreaterThan(listed.competition);

    const today = new Date().toISOString().slice(0, 10);
    for (const [actor, kind, subject, from, to] of [
      [null, null, null, null, null],
      [null, "competition", null, null, null],
      ["nobody-at-all", null, null, null, null],
      [null, null, "Test prize", null, null],
      [null, null, null, "2026-01-01", today],
    ] as const) {
      let chunks = 0;
      let rows = 0;
      await eachPage<number>(async (before) => {
        const now: { rows: unknown[]; next_before: number | null } = await db().call(
          asUser(admin),
          "admin_activity_export",
          {
            p_actor: actor,
            p_kind: kind,
            p_subject: subject,
            p_from: from,
            p_to: to,
            p_before: before,
            p_limit: 2,
          },
        );
        rows += now.rows.length;
        chunks += 1;
        return now.next_before;
      });
      // The whole log spans several chunks, so the cursor is followed too.
      if (actor === null && kind === null && subject === null && from === null) {
        expect(chunks).toBeGreaterThan(2);
        expect(rows).toBe(listed.all);
      }
    }
    // The refusals: a date range that ends before it starts, and a player.
    for (const [caller, from, to] of [
      [admin, "2026-05-02", "2026-05-01"],
      [player, null, null],
    ] as const) {
      const refused = await db().rpc(asUser(caller), "admin_activity_export", { p_from: from, p_to: to });
      expect(refused.error?.hint).toBe(caller === admin ? "invalid_input" : "admin_required");
    }
  });
});

describe("the health checks and the System page", () => {
  it("answer from nothing through runs, deliveries, payments, mail and alerts", async () => {
    const plain = await db().createUser({ role: "admin", approved: true });
    const call = (caller: Caller, fn: string) => db().call<Record<string, unknown>>(caller, fn);
    const everything = async () => {
      await call(service, "ops_check");
      await call(asUser(admin), "admin_deep_health");
      await call(asUser(plain), "admin_system_overview");
      await call(asUser(admin), "admin_system_overview");
      return call(asUser(admin), "admin_webhook_refusals");
    };
    expect(await everything()).toEqual([]);

    for (const [ok, minutesAgo] of [
      [true, 30],
      [false, 10],
    ] as const)
      await db().call(service, "record_cron_run", {
        p_job: "draws",
        p_started_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
        p_ok: ok,
        p_result: ok ? { drawn: 2, closed: 1 } : {},
        p_error: ok ? null : "the database went away",
      });
    for (const [status, http] of [
      ["failed", 500],
      ["mismatch", 422],
      ["handled", 200],
      ["failed", 500],
    ] as const)
      await db().call(service, "record_webhook_delivery", {
        p_provider: "stripe",
        p_event_id: `evt_${crypto.randomUUID()}`,
        p_event_type: "checkout.session.completed",
        p_status: status,
        p_http_status: http,
        p_error: status === "handled" ? null : "it went wrong",
      });
    for (let n = 0; n < 5; n++) await db().call(service, "record_webhook_refusal", { p_provider: "stripe" });
    for (const kind of ["sign_in", "sign_in", "code_limited"])
      await db().call(service, "record_auth_refusal", { p_kind: kind });
    const player = await db().createPlayer({ name: "Owen Owes" });
    await db().sql(
      `insert into public.top_ups (user_id, amount, status, provider, payment_id, refunded_amount, owed, credited_at)
       values ($1, 20, 'refunded', 'test', 'test_pay_owed', 20, 7.5, now())`,
      [player],
    );
    await db().sql(
      `insert into public.mail_outbox (to_email, kind, subject, body_text, status, attempts, error)
       values ('bounce@labcash.test', 'entry_receipt', 'Your tickets', 'Hello', 'failed', 5, 'mailbox full')`,
    );
    const late = await db().createCompetition(admin);
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '90 minutes' where id = $1`,
      [late],
    );
    expect(await everything()).toHaveLength(1);
    const overview = await call(asUser(admin), "admin_system_overview");
    expect(overview).toMatchObject({ can_act: true, storage: { image_count: 0 } });
    expect(overview.webhooks).toHaveLength(3);
    expect(overview.payments).toHaveLength(2);
    // A plain admin sees the page but may not act on it.
    expect(await call(asUser(plain), "admin_system_overview")).toMatchObject({ can_act: false });
    type Alert = { id: number; acknowledged_at: string | null };
    const alerts = overview.alerts as Alert[];
    expect(alerts.length).toBeGreaterThan(0);
    expect(alerts.every((a) => a.acknowledged_at === null)).toBe(true);
    await db().call(asUser(admin), "admin_acknowledge_alert", { p_id: alerts[0].id });
    const after = (await call(asUser(admin), "admin_system_overview")).alerts as Alert[];
    expect(after.find((a) => a.id === alerts[0].id)?.acknowledged_at).toEqual(expect.any(String));
    await everything();
  });
});
