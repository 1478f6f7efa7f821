// The admin console's reads return declared types now (docs/decisions/007):
// admin_dashboard (public.admin_dashboard: counts, 30 days and totals) and admin_list_activity
// (public.activity_page: rows, the next page's key, every kind recorded). The old bodies (80-admin-and-audit.sql
// before 20261201200501) run here word for word beside the new functions: the dashboard in the same transaction
// (it says when it was worked out), before and after sign-ups, purchases, top-ups, complaints and flags; the log
// page by page under several filters, and an empty one; both answers are compared as JSON. The fifth batch: the
// health checks and the System page (ops_check, admin_deep_health, admin_system_overview, admin_webhook_refusals),
// their old bodies (90-operations.sql before 20261202200101) beside them through job runs, webhook deliveries and
// refusals, payments needing a person, failed mail, refused sign-ins, an overdue draw and its alert. Its third part:
// the activity log's CSV (public.activity_csv_chunk; 80-admin-and-audit.sql before 20261202500001), every chunk two
// rows at a time under the same filters as the log pages and a date range, and its refusals.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, claimsOf, dbPerFile, eachPage, service, type Caller } from "./support";

const db = dbPerFile();

// String.raw: admin_activity_csv's E'\n' literals keep their backslashes.
const OLD_BODIES = String.raw`
create schema old;
create function old.admin_dashboard() returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  today date := (now() at time zone 'Europe/London')::date;
  first_day date := today - 29;
  since timestamptz := first_day::timestamp at time zone 'Europe/London';
  day_rows jsonb;
  phases jsonb;
begin
  perform private.require_admin();

  -- One row per Europe/London calendar day, the 29 days before today and today, zeros included.
  select jsonb_agg(jsonb_build_object('day', d.day,
                                      'signups', coalesce(s.n, 0),
                                      'tickets', coalesce(t.n, 0),
                                      'credit_sold', coalesce(c.amount, 0))
                   order by d.day)
    into day_rows
    from (select g::date as day from generate_series(first_day, today, interval '1 day') g) d
    left join (select (a.created_at at time zone 'Europe/London')::date as day, count(*) as n
                 from public.user_account_data a
                where a.created_at >= since
                group by 1) s on s.day = d.day
    -- Paid tickets as sold that day (a later refund does not rewrite the day's sales).
    left join (select (e.created_at at time zone 'Europe/London')::date as day, sum(e.quantity) as n
                 from public.entries e
                where e.kind = 'paid' and e.created_at >= since
                group by 1) t on t.day = d.day
    -- Credit bought: the ledger's top_up rows (money paid in, bonus not included).
    left join (select (l.created_at at time zone 'Europe/London')::date as day, sum(l.amount) as amount
                 from public.credit_ledger l
                where l.kind = 'top_up' and l.created_at >= since
                group by 1) c on c.day = d.day;

  -- Competitions by phase, the public site's definition (the unfinished ones only: the others grow forever).
  select coalesce(jsonb_object_agg(x.phase, x.n), '{}'::jsonb)
    into phases
    from (select private.competition_phase(c, now()) as phase, count(*) as n
            from public.competitions c
           where c.status in ('live', 'sold_out', 'closed')
           group by 1) x;

  return jsonb_build_object(
    'generated_at', now(),
    'from', first_day,
    'to', today,
    'counts', jsonb_build_object(
      'players', (select count(*) from public.user_account_data a where a.role = 'user'),
      'approved_players', (select count(*) from public.user_account_data a where a.role = 'user' and a.approved),
      -- The same accounts the approval queue lists.
      'pending_approvals', (select count(*) from public.user_account_data a where not a.approved and a.rejected_at is null),
      'live_competitions', coalesce((phases ->> 'live')::bigint, 0),
      'opening_soon', coalesce((phases ->> 'upcoming')::bigint, 0),
      'awaiting_draw', coalesce((phases ->> 'postal_window')::bigint, 0) + coalesce((phases ->> 'awaiting_draw')::bigint, 0),
      'open_complaints', (select count(*) from public.complaints c where c.status <> 'resolved'),
      'overdue_complaints', (select count(*) from public.complaints c
                              where (c.status = 'received' and c.acknowledge_by < now())
                                 or (c.status <> 'resolved' and c.respond_by < now())),
      -- Players with a player-protection flag awaiting review (player_flags, *_player_protection.sql).
      'flagged_players', (select count(distinct f.user_id) from public.player_flags f where f.status = 'open')),
    'days', day_rows,
    'totals', jsonb_build_object(
      'signups', (select sum((x ->> 'signups')::bigint) from jsonb_array_elements(day_rows) x),
      'tickets', (select sum((x ->> 'tickets')::bigint) from jsonb_array_elements(day_rows) x),
      'credit_sold', (select sum((x ->> 'credit_sold')::numeric) from jsonb_array_elements(day_rows) x)));
end;
$$;

create function old.admin_list_activity(p_actor text default null, p_kind text default null,
                                           p_subject text default null, p_from date default null,
                                           p_to date default null, p_before bigint default null,
                                           p_limit integer default 50)
returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  page_rows jsonb;
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.activity_filter_check(p_actor, p_kind, p_subject, p_from, p_to);
  -- One row more than the page shows says whether there is an older page.
  select coalesce(jsonb_agg(to_jsonb(r) - 'n' order by r.id desc) filter (where r.n <= page_size), '[]'::jsonb),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select a.*, row_number() over (order by a.id desc) as n
            from private.activity_rows(p_actor, p_kind, p_subject, p_from, p_to, p_before, page_size + 1) a) r;
  return jsonb_build_object(
    'rows', page_rows,
    'next_before', case when fetched > page_size then last_id end,
    -- Every kind recorded, for the filter: a loose index scan over activity_log_action_idx.
    'kinds', (with recursive k(action) as (
                (select l.action from public.activity_log l order by l.action limit 1)
                union all
                select (select l.action from public.activity_log l where l.action > k.action order by l.action limit 1)
                  from k where k.action is not null)
              select coalesce(jsonb_agg(k.action order by k.action), '[]'::jsonb) from k where k.action is not null));
end;
$$;

create function old.ops_check() returns jsonb
language plpgsql set search_path = '' as $$
declare
  last_run public.cron_runs;
  oldest_queued timestamptz;
  failed_lately boolean;
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
  -- The uptime monitor calling /api/health is what notices a stopped job, so the check raises alerts too.
  perform private.raise_ops_alerts();
  last_run := private.last_cron_run();
  select min(m.created_at) into oldest_queued from public.mail_outbox m where m.status = 'queued';
  select exists (select 1 from public.mail_outbox m where m.status = 'failed' and m.created_at > now() - interval '1 hour')
    into failed_lately;
  return jsonb_build_object(
    'cron', jsonb_build_object(
      'state', case when last_run.id is null and not private.cron_stale() then 'waiting'
                    when last_run.id is null or private.cron_stale() then 'stale'
                    when not last_run.ok then 'failing'
                    else 'ok' end,
      'last_run_at', last_run.started_at),
    'mail', case when failed_lately or oldest_queued < now() - interval '15 minutes' then 'failing' else 'ok' end);
end;
$$;

create function old.admin_system_overview() returns jsonb
language plpgsql set search_path = '' as $$
declare
  result jsonb;
begin
  perform private.require_admin();
  -- Opening the page is a check too: what it shows has been told.
  perform private.raise_ops_alerts();
  select jsonb_build_object(
    'can_act', public.is_super_admin(),
    'cron', jsonb_build_object(
      'stale', private.cron_stale(),
      'runs', coalesce((select jsonb_agg(to_jsonb(r) - 'job' order by r.started_at desc)
                          from (select * from public.cron_runs order by started_at desc limit 20) r), '[]'::jsonb)),
    'overdue_draws', coalesce((select jsonb_agg(to_jsonb(o) order by o.draw_at) from private.overdue_draws() o), '[]'::jsonb),
    'webhooks', coalesce((select jsonb_agg(to_jsonb(w) order by w.last_seen_at desc)
                            from (select * from public.webhook_deliveries where status <> 'handled'
                                   order by last_seen_at desc limit 50) w), '[]'::jsonb),
    'payments', coalesce((select jsonb_agg(jsonb_build_object(
                             'kind', p.kind, 'reference', p.reference, 'top_up_id', p.top_up_id, 'amount', p.amount,
                             'detail', p.detail, 'since', p.since,
                             'player', case when p.user_id is null then null
                                            else jsonb_build_object('id', p.user_id, 'name', pr.name) end)
                             order by p.since)
                            from private.payments_needing_person() p
                            left join public.profiles pr on pr.id = p.user_id), '[]'::jsonb),
    'mail', jsonb_build_object(
      'queued', (select count(*) from public.mail_outbox where status = 'queued'),
      'failed', (select count(*) from public.mail_outbox where status = 'failed'),
      'failures', coalesce((select jsonb_agg(jsonb_build_object(
                               'id', m.id, 'to_email', m.to_email, 'kind', m.kind, 'subject', m.subject,
                               'attempts', m.attempts, 'error', m.error, 'created_at', m.created_at) order by m.id desc)
                              from (select * from public.mail_outbox where status = 'failed' order by id desc limit 50) m),
                           '[]'::jsonb)),
    'auth_refusals', coalesce((select jsonb_agg(jsonb_build_object(
                                  'hour', h.hour,
                                  'sign_in', h.sign_in, 'sign_in_limited', h.sign_in_limited,
                                  'code', h.code, 'code_limited', h.code_limited) order by h.hour desc)
                                 from (select a.hour,
                                              coalesce(sum(a.refusals) filter (where a.kind = 'sign_in'), 0)::int as sign_in,
                                              coalesce(sum(a.refusals) filter (where a.kind = 'sign_in_limited'), 0)::int as sign_in_limited,
                                              coalesce(sum(a.refusals) filter (where a.kind = 'code'), 0)::int as code,
                                              coalesce(sum(a.refusals) filter (where a.kind = 'code_limited'), 0)::int as code_limited
                                         from public.auth_refusal_counts a
                                        where a.hour > now() - interval '24 hours'
                                        group by a.hour) h), '[]'::jsonb),
    'storage', jsonb_build_object(
      'database_bytes', pg_database_size(current_database()),
      'image_count', (select count(*) from storage.objects o where o.bucket_id = 'competition-images'),
      'image_bytes', (select coalesce(sum((o.metadata ->> 'size')::bigint), 0) from storage.objects o
                       where o.bucket_id = 'competition-images')),
    'alerts', coalesce((select jsonb_agg(to_jsonb(a) - 'acknowledged_by' order by a.raised_at desc)
                          from (select * from public.ops_alerts order by raised_at desc limit 50) a), '[]'::jsonb))
  into result;
  return result;
end;
$$;

create function old.admin_deep_health() returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  perform private.require_super_admin();
  return jsonb_build_object(
    'overdue_draws', (select count(*) from private.overdue_draws()),
    'oldest_overdue_draw_at', (select min(o.draw_at) from private.overdue_draws() o),
    'mail_queued', (select count(*) from public.mail_outbox where status = 'queued'),
    'oldest_queued_mail_at', (select min(created_at) from public.mail_outbox where status = 'queued'),
    'mail_failed', (select count(*) from public.mail_outbox where status = 'failed'),
    'webhooks_waiting', (select count(*) from public.webhook_deliveries where status = 'failed'),
    'payments_needing_person', (select count(*) from private.payments_needing_person()),
    'open_alerts', (select count(*) from public.ops_alerts where acknowledged_at is null),
    'last_cron_run', (select to_jsonb(r) - 'job' from private.last_cron_run() r where r.id is not null));
end;
$$;

create function old.admin_webhook_refusals() returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  perform private.require_admin();
  return coalesce((select jsonb_agg(jsonb_build_object('hour', w.hour, 'provider', w.provider, 'refusals', w.refusals)
                                    order by w.hour desc, w.provider)
                     from public.webhook_refusal_counts w
                    where w.hour > now() - interval '24 hours'), '[]'::jsonb);
end;
$$;

create function old.admin_activity_csv(p_actor text default null, p_kind text default null,
                                          p_subject text default null, p_from date default null,
                                          p_to date default null, p_before bigint default null,
                                          p_limit integer default 5000)
returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  chunk_size integer := least(greatest(coalesce(p_limit, 5000), 1), 10000);
  body text;
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.activity_filter_check(p_actor, p_kind, p_subject, p_from, p_to);
  select string_agg(
           r.id || ',' || to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ','
           || private.csv_field(r.action) || ',' || coalesce(r.actor_id::text, '') || ','
           || private.csv_field(r.actor_name) || ',' || private.csv_field(r.actor_email) || ','
           || coalesce(r.subject_id::text, '') || ',' || coalesce(r.subject_kind, '') || ','
           || private.csv_field(r.subject_label) || ',' || private.csv_field(r.details::text) || E'\n',
           '' order by r.id desc),
         count(*), min(r.id)
    into body, fetched, last_id
    from private.activity_rows(p_actor, p_kind, p_subject, p_from, p_to, p_before, chunk_size) r;
  return jsonb_build_object(
    'csv', case when p_before is null
                then E'id,created_at,action,actor_id,actor,actor_email,subject_id,subject_kind,subject,details\n'
                else '' end || coalesce(body, ''),
    'next_before', case when fetched = chunk_size then last_id end,
    'done', fetched < chunk_size);
end;
$$;
`;

let admin: string;
beforeAll(async () => {
  await db().pg.exec(OLD_BODIES);
  admin = await db().createUser({ role: "super_admin", approved: true });
});

/** The old body's answer, as the admin. */
const asOld = (fn: string, args: unknown[]) => db().oldAnswer(asUser(admin), fn, args);

/** Both dashboards in one transaction, so `generated_at` (now()) is the same moment. */
async function bothDashboards(): Promise<{ now: unknown; before: unknown }> {
  return db().pg.transaction(async (tx) => {
    await tx.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claimsOf(asUser(admin)))]);
    const now = (await tx.query<{ value: unknown }>("select to_json(t) as value from public.admin_dashboard() t"))
      .rows[0]?.value;
    const before = (await tx.query<{ value: unknown }>("select old.admin_dashboard() as value")).rows[0]?.value;
    return { now, before };
  });
}

describe("the admin console's reads as declared types", () => {
  it("answer the dashboard and every activity page what the jsonb versions did", async () => {
    const first = await bothDashboards();
    expect(first.now).toEqual(first.before);

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
    const later = await bothDashboards();
    expect(later.now).toEqual(later.before);
    expect(later.now).toMatchObject({ counts: { live_competitions: 1, flagged_players: 1 } });

    for (const [actor, kind, subject] of [
      [null, null, null],
      [null, "competition", null],
      ["nobody-at-all", null, null],
      [null, null, "Test prize"],
    ] as const) {
      await eachPage<number>(async (before) => {
        const now: { next_before: number | null } = await db().call(asUser(admin), "admin_list_activity", {
          p_actor: actor,
          p_kind: kind,
          p_subject: subject,
          p_before: before,
          p_limit: 2,
        });
        expect(now).toEqual(await asOld("admin_list_activity", [actor, kind, subject, null, null, before, 2]));
        return now.next_before;
      });
    }
    const today = new Date().toISOString().slice(0, 10);
    for (const [actor, kind, subject, from, to] of [
      [null, null, null, null, null],
      [null, "competition", null, null, null],
      ["nobody-at-all", null, null, null, null],
      [null, null, "Test prize", null, null],
      [null, null, null, "2026-01-01", today],
    ] as const) {
      let chunks = 0;
      await eachPage<number>(async (before) => {
        const now: { next_before: number | null } = await db().call(asUser(admin), "admin_activity_csv", {
          p_actor: actor,
          p_kind: kind,
          p_subject: subject,
          p_from: from,
          p_to: to,
          p_before: before,
          p_limit: 2,
        });
        expect(now).toEqual(await asOld("admin_activity_csv", [actor, kind, subject, from, to, before, 2]));
        chunks += 1;
        return now.next_before;
      });
      // The whole log spans several chunks, so the cursor and the header-only-first are compared too.
      if (actor === null && kind === null && subject === null && from === null) expect(chunks).toBeGreaterThan(2);
    }
    // The refusals: a date range that ends before it starts, and a player.
    for (const [caller, from, to] of [
      [admin, "2026-05-02", "2026-05-01"],
      [player, null, null],
    ] as const) {
      const refused = await db().rpc(asUser(caller), "admin_activity_csv", { p_from: from, p_to: to });
      expect(refused.error?.hint).toBe(caller === admin ? "invalid_input" : "admin_required");
      await expect(
        db().oldAnswer(asUser(caller), "admin_activity_csv", [null, null, null, from, to, null, 5000]),
      ).rejects.toMatchObject({ hint: refused.error?.hint });
    }
  });
});

describe("the health checks and the System page as declared types", () => {
  it("answer what the jsonb versions did, from nothing through runs, deliveries, payments, mail and alerts", async () => {
    const plain = await db().createUser({ role: "admin", approved: true });
    const same = async (caller: Caller, fn: string) => {
      const { now, old } = await db().oldBeside(caller, fn);
      expect(now, fn).toEqual(old);
      return now as Record<string, unknown>;
    };
    const everything = async () => {
      await same(service, "ops_check");
      await same(asUser(admin), "admin_deep_health");
      await same(asUser(admin), "admin_system_overview");
      await same(asUser(plain), "admin_system_overview");
      return same(asUser(admin), "admin_webhook_refusals");
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
    const overview = await same(asUser(admin), "admin_system_overview");
    expect(overview).toMatchObject({ can_act: true, storage: { image_count: 0 } });
    expect(overview.webhooks).toHaveLength(3);
    expect(overview.payments).toHaveLength(2);
    const alerts = overview.alerts as { id: number }[];
    expect(alerts.length).toBeGreaterThan(0);
    await db().call(asUser(admin), "admin_acknowledge_alert", { p_id: alerts[0].id });
    await everything();
  });
});
