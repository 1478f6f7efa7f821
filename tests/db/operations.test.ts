// Operations: what the System page lists and what raises an alert. Overdue draws (the draw
// time passed, no draw), payments needing a person (a mismatched payment, money owed after a refund),
// failing webhooks and a stalled job; one alert per incident, e-mailed to every super admin once; the
// page's actions are super admins' only and audited.
import { describe, expect, it } from "vitest";
import { SUPER_ADMIN_REQUIRED, asUser, dbPerFile, service } from "./support";

const db = dbPerFile();

type Overview = {
  can_act: boolean;
  cron: { stale: boolean; runs: { ok: boolean; result: unknown }[] };
  overdue_draws: { id: string; title: string; overdue_minutes: number }[];
  webhooks: { event_id: string; status: string; attempts: number }[];
  payments: { kind: string; reference: string; amount: number | null; player: { name: string } | null }[];
  mail: { queued: number; failed: number; failures: { id: number }[] };
  auth_refusals: { hour: string; sign_in: number; code_limited: number }[];
  storage: { database_bytes: number; image_bytes: number };
  alerts: { kind: string; incident: string; acknowledged_at: string | null }[];
};

async function people() {
  const admin = await db().createUser({ name: "Ada Admin", role: "admin", approved: true });
  const superAdmin = await db().createUser({
    name: "Sam Super",
    email: `super-${crypto.randomUUID()}@labcash.test`,
    role: "super_admin",
    approved: true,
  });
  return { admin, superAdmin };
}

/** Moves a live competition's dates so its draw time was `minutesAgo` minutes ago (as the e2e fixture does). */
async function drawTimePassed(id: string, minutesAgo: number) {
  await db().sql(
    `update public.competitions
        set opens_at = now() - interval '1 day',
            closes_at = now() - make_interval(mins => $2),
            postal_deadline = now() - make_interval(mins => $2),
            draw_at = now() - make_interval(mins => $2)
      where id = $1`,
    [id, minutesAgo],
  );
}

const alertMails = (subject: string) =>
  db().sql<{ to_email: string }>(
    "select to_email from public.mail_outbox where kind = 'ops_alert' and subject like $1",
    [`%${subject}%`],
  );

describe("overdue draws", () => {
  it("lists every competition past its draw time without a draw, and alerts once when it is over 5 minutes late", async () => {
    const { admin, superAdmin } = await people();
    const late = await db().createCompetition(admin, { title: "Late prize" });
    const justDue = await db().createCompetition(admin, { title: "Just due prize" });
    const future = await db().createCompetition(admin, { title: "Future prize" });
    await drawTimePassed(late, 8);
    await drawTimePassed(justDue, 2);

    const overview = await db().call<Overview>(asUser(admin), "admin_system_overview");
    const overdue = overview.overdue_draws.map((d) => d.id);
    expect(overdue).toContain(late);
    expect(overdue).toContain(justDue);
    expect(overdue).not.toContain(future);
    expect(overview.overdue_draws.find((d) => d.id === late)!.overdue_minutes).toBe(8);
    expect(overview.can_act).toBe(false);

    // Only the one more than five minutes late is an incident, told once however often anyone looks.
    await db().call(asUser(superAdmin), "admin_system_overview");
    await db().call(service, "ops_check");
    const alerts = await db().sql<{ incident: string }>(
      "select incident from public.ops_alerts where kind = 'draw_overdue'",
    );
    expect(alerts.map((a) => a.incident)).toContain(`draw_overdue:${late}`);
    expect(alerts.map((a) => a.incident)).not.toContain(`draw_overdue:${justDue}`);
    const mails = await alertMails('the draw of "Late prize" is overdue');
    const superEmail = (
      await db().sql<{ email: string }>("select email from auth.users where id = $1", [superAdmin])
    )[0].email;
    expect(mails.filter((m) => m.to_email === superEmail)).toHaveLength(1);
    const [body] = await db().sql<{ body_text: string }>(
      "select body_text from public.mail_outbox where kind = 'ops_alert' and to_user = $1 and subject like '%Late prize%'",
      [superAdmin],
    );
    expect(body.body_text).toContain("/admin/system");
    // Plain admins are not e-mailed.
    expect(
      await db().sql("select 1 from public.mail_outbox where kind = 'ops_alert' and to_user = $1", [admin]),
    ).toEqual([]);

    // Once drawn (here: closed, no tickets) it is no longer overdue.
    await db().call(service, "run_due_draws");
    const after = await db().call<Overview>(asUser(admin), "admin_system_overview");
    expect(after.overdue_draws.map((d) => d.id)).not.toContain(late);
  });
});

describe("payments needing a person", () => {
  it("lists mismatched payments and amounts owed until a super admin records what was done", async () => {
    const { admin, superAdmin } = await people();
    const player = await db().createPlayer({ name: "Owen Owes" });
    const [{ id: topUp }] = await db().sql<{ id: string }>(
      `insert into public.top_ups (user_id, amount, status, provider, payment_id, refunded_amount, owed, credited_at)
       values ($1, 20, 'refunded', 'test', $2, 20, 7.5, now()) returning id`,
      [player, `test_pay_${crypto.randomUUID()}`],
    );
    const event = `evt_${crypto.randomUUID()}`;
    await db().call(service, "record_webhook_delivery", {
      p_provider: "stripe",
      p_event_id: event,
      p_event_type: "checkout.session.completed",
      p_status: "mismatch",
      p_http_status: 422,
      p_error: "payment does not match the top-up",
    });

    const overview = await db().call<Overview>(asUser(admin), "admin_system_overview");
    const owed = overview.payments.find((p) => p.kind === "owed" && p.reference === topUp)!;
    expect(owed.amount).toBe(7.5);
    expect(owed.player?.name).toBe("Owen Owes");
    expect(overview.payments.some((p) => p.kind === "mismatch" && p.reference === event)).toBe(true);
    const incidents = (await db().sql<{ incident: string }>("select incident from public.ops_alerts")).map(
      (a) => a.incident,
    );
    expect(incidents).toEqual(expect.arrayContaining([`payment_owed:${topUp}`, `payment_mismatch:${event}`]));

    // Admins read; only super admins act, and SQL says so.
    const args = { p_kind: "owed", p_reference: topUp, p_note: "Player repaid by bank transfer" };
    expect((await db().rpc(asUser(admin), "admin_resolve_payment", args)).error).toMatchObject(SUPER_ADMIN_REQUIRED);
    expect((await db().rpc(asUser(player), "admin_resolve_payment", args)).error).toMatchObject(SUPER_ADMIN_REQUIRED);
    await db().call(asUser(superAdmin), "admin_resolve_payment", args);
    expect((await db().rpc(asUser(superAdmin), "admin_resolve_payment", args)).error?.hint).toBe("payment_not_open");

    const after = await db().call<Overview>(asUser(admin), "admin_system_overview");
    expect(after.payments.some((p) => p.reference === topUp)).toBe(false);
    expect(after.payments.some((p) => p.reference === event)).toBe(true);
    const [audit] = await db().sql<{ actor_id: string; subject_id: string; details: { note: string } }>(
      "select actor_id, subject_id, details from public.activity_log where action = 'system.payment_resolved'",
    );
    expect(audit).toMatchObject({
      actor_id: superAdmin,
      subject_id: player,
      details: { note: "Player repaid by bank transfer" },
    });
  });
});

describe("webhooks, the job and mail", () => {
  it("alerts when the same webhook event fails a third time, once", async () => {
    const event = `evt_${crypto.randomUUID()}`;
    const fail = () =>
      db().call(service, "record_webhook_delivery", {
        p_provider: "stripe",
        p_event_id: event,
        p_event_type: "charge.refunded",
        p_status: "failed",
        p_http_status: 500,
        p_error: "could not process the event",
      });
    await fail();
    await fail();
    await db().call(service, "ops_check");
    const incident = `webhook_failing:stripe:${event}`;
    expect(await db().sql("select 1 from public.ops_alerts where incident = $1", [incident])).toHaveLength(0);
    await fail();
    await db().call(service, "ops_check");
    await db().call(service, "ops_check");
    expect(await db().sql("select 1 from public.ops_alerts where incident = $1", [incident])).toHaveLength(1);
    const [row] = await db().sql<{ attempts: number }>(
      "select attempts from public.webhook_deliveries where event_id = $1",
      [event],
    );
    expect(row.attempts).toBe(3);
  });

  it("says when the job last ran, and raises one alert for a stall", async () => {
    await db().call(service, "record_cron_run", {
      p_job: "draws",
      p_started_at: new Date().toISOString(),
      p_ok: true,
      p_result: { drawn: 0 },
      p_error: null,
    });
    const fresh = await db().call<{ cron: { state: string; last_run_at: string } }>(service, "ops_check");
    expect(fresh.cron.state).toBe("ok");

    // Make every run ten minutes old: the job has stopped.
    await db().sql("update public.cron_runs set started_at = now() - interval '10 minutes'");
    const stale = await db().call<{ cron: { state: string } }>(service, "ops_check");
    expect(stale.cron.state).toBe("stale");
    await db().call(service, "ops_check");
    expect(await db().sql("select 1 from public.ops_alerts where kind = 'cron_stale'")).toHaveLength(1);
  });

  it("refuses the server's records to anyone but the server", async () => {
    const { superAdmin } = await people();
    for (const [fn, args] of [
      [
        "record_cron_run",
        { p_job: "draws", p_started_at: new Date().toISOString(), p_ok: true, p_result: {}, p_error: null },
      ],
      ["record_auth_refusal", { p_kind: "sign_in" }],
      ["record_webhook_refusal", { p_provider: "stripe" }],
      ["ops_check", {}],
    ] as const) {
      expect((await db().rpc(asUser(superAdmin), fn, args)).error).toBeTruthy();
    }
  });

  it("counts refused sign-ins per hour", async () => {
    const { admin } = await people();
    await db().call(service, "record_auth_refusal", { p_kind: "sign_in" });
    await db().call(service, "record_auth_refusal", { p_kind: "sign_in" });
    await db().call(service, "record_auth_refusal", { p_kind: "code_limited" });
    const overview = await db().call<Overview>(asUser(admin), "admin_system_overview");
    expect(overview.auth_refusals[0]).toMatchObject({ sign_in: 2, code_limited: 1 });
  });

  it("counts webhook calls refused for a bad signature per hour, and alerts once past three in an hour", async () => {
    const { admin, superAdmin } = await people();
    const player = await db().createUser({ name: "Pat Player", approved: true });
    const hour = new Date();
    hour.setUTCMinutes(0, 0, 0);
    const incident = `webhook_refused:stripe:${hour.toISOString().slice(0, 13)}`;
    const refusals = async () =>
      (await db().call<{ hour: string; refusals: number }[]>(asUser(admin), "admin_webhook_refusals")).find(
        (r) => new Date(r.hour).getTime() === hour.getTime(),
      )?.refusals;
    for (let i = 0; i < 3; i++) await db().call(service, "record_webhook_refusal", { p_provider: "stripe" });
    expect(await refusals()).toBe(3);
    expect(await db().sql("select 1 from public.ops_alerts where incident = $1", [incident])).toHaveLength(0);

    await db().call(service, "record_webhook_refusal", { p_provider: "stripe" });
    await db().call(service, "record_webhook_refusal", { p_provider: "stripe" });
    expect(await refusals()).toBe(5);
    const alerts = await db().sql<{ kind: string; subject: string }>(
      "select kind, subject from public.ops_alerts where incident = $1",
      [incident],
    );
    expect(alerts).toEqual([
      { kind: "webhook_refused", subject: "stripe webhook calls are being refused for a bad signature" },
    ]);
    const [{ email }] = await db().sql<{ email: string }>("select email from auth.users where id = $1", [superAdmin]);
    expect((await alertMails("webhook calls are being refused")).map((m) => m.to_email)).toContain(email);
    expect((await alertMails("webhook calls are being refused")).filter((m) => m.to_email === email)).toHaveLength(1);

    // A player may not read them; nothing but the provider is accepted.
    expect((await db().rpc(asUser(player), "admin_webhook_refusals", {})).error).toBeTruthy();
    expect((await db().rpc(service, "record_webhook_refusal", { p_provider: "paypal" })).error?.hint).toBe(
      "invalid_input",
    );
  });

  it("lets only a super admin put a failed mail back in the queue, audited", async () => {
    const { admin, superAdmin } = await people();
    const [{ id }] = await db().sql<{ id: number }>(
      `insert into public.mail_outbox (to_email, kind, subject, body_text, status, attempts, error)
       values ('bounce@labcash.test', 'entry_receipt', 'Your tickets', 'Hello', 'failed', 5, 'mailbox full') returning id`,
    );
    const overview = await db().call<Overview>(asUser(admin), "admin_system_overview");
    expect(overview.mail.failures.map((m) => Number(m.id))).toContain(Number(id));
    expect((await db().rpc(asUser(admin), "admin_retry_mail", { p_id: id })).error).toMatchObject(SUPER_ADMIN_REQUIRED);
    await db().call(asUser(superAdmin), "admin_retry_mail", { p_id: id });
    const [mail] = await db().sql<{ status: string; attempts: number }>(
      "select status, attempts from public.mail_outbox where id = $1",
      [id],
    );
    expect(mail).toEqual({ status: "queued", attempts: 0 });
    expect((await db().rpc(asUser(superAdmin), "admin_retry_mail", { p_id: id })).error?.hint).toBe("mail_not_failed");
    expect(
      await db().sql("select 1 from public.activity_log where action = 'system.mail_retried' and actor_id = $1", [
        superAdmin,
      ]),
    ).toHaveLength(1);
  });

  it("shows super admins the open alerts until one acknowledges them", async () => {
    const { admin, superAdmin } = await people();
    await db().sql("update public.cron_runs set started_at = now() - interval '20 minutes'");
    await db().call(service, "ops_check");
    expect(await db().call(asUser(admin), "admin_open_alerts")).toEqual([]);
    const open = await db().call<{ id: number }[]>(asUser(superAdmin), "admin_open_alerts");
    expect(open.length).toBeGreaterThan(0);
    expect((await db().rpc(asUser(admin), "admin_acknowledge_alert", { p_id: open[0].id })).error).toMatchObject(
      SUPER_ADMIN_REQUIRED,
    );
    await db().call(asUser(superAdmin), "admin_acknowledge_alert", { p_id: open[0].id });
    const left = await db().call<{ id: number }[]>(asUser(superAdmin), "admin_open_alerts");
    expect(left.map((a) => a.id)).not.toContain(open[0].id);
    const deep = await db().call<{ open_alerts: number }>(asUser(superAdmin), "admin_deep_health");
    expect(deep.open_alerts).toBe(left.length);
    expect((await db().rpc(asUser(admin), "admin_deep_health")).error).toMatchObject(SUPER_ADMIN_REQUIRED);
  });
});
