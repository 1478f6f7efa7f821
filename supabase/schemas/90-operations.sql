-- ============================================================================
-- Operations: cron runs, webhook deliveries, alerts, the health checks.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create table public.cron_runs (
  id bigint generated always as identity primary key,
  job text not null check (job in ('draws')),
  started_at timestamptz not null,
  finished_at timestamptz not null default now(),
  ok boolean not null,
  result jsonb not null default '{}'::jsonb,
  error text check (char_length(error) <= 1000)
);
alter table public.cron_runs enable row level security;
comment on table public.cron_runs is 'One row per run of the scheduled job (/api/cron/draws): when, whether it worked, what it did. Kept 30 days.';
revoke all on table public.cron_runs from public, anon, authenticated, service_role;
grant all on table public.cron_runs to service_role;

create index cron_runs_started_idx on public.cron_runs (started_at DESC);

create type public.webhook_status as enum ('handled', 'failed', 'mismatch');
comment on type public.webhook_status is 'What became of a payment provider''s event.';
create table public.webhook_deliveries (
  id bigint generated always as identity,
  provider text not null,
  event_id text not null,
  event_type text not null,
  status public.webhook_status not null,
  http_status integer not null,
  attempts integer default 1 not null,
  last_error text,
  first_seen_at timestamp with time zone default now() not null,
  last_seen_at timestamp with time zone default now() not null,
  constraint webhook_deliveries_pkey primary key (id),
  constraint webhook_deliveries_provider_event_id_key unique (provider, event_id),
  constraint webhook_deliveries_attempts_check check ((attempts >= 1)),
  constraint webhook_deliveries_event_id_check check (((char_length(event_id) >= 1) AND (char_length(event_id) <= 255))),
  constraint webhook_deliveries_event_type_check check (((char_length(event_type) >= 1) AND (char_length(event_type) <= 255))),
  constraint webhook_deliveries_last_error_check check ((char_length(last_error) <= 500)),
  constraint webhook_deliveries_provider_check check ((provider = 'stripe'::text))
);
alter table public.webhook_deliveries enable row level security;
comment on table public.webhook_deliveries is 'Each payment-provider event the webhook answered, by event id: how it was answered last and how many times it arrived. failed = the provider will retry; mismatch = the amount paid is not the top-up''s (a person must look).';
revoke all on table public.webhook_deliveries from public, anon, authenticated, service_role;
grant all on table public.webhook_deliveries to service_role;

create index webhook_deliveries_open_idx on public.webhook_deliveries (last_seen_at DESC) where (status <> 'handled'::public.webhook_status);

create type public.auth_refusal as enum ('sign_in', 'sign_in_limited', 'code', 'code_limited');
comment on type public.auth_refusal is 'A refused sign-in or two-step code, and whether a rate limit refused it.';
create table public.auth_refusal_counts (
  hour timestamp with time zone not null,
  kind public.auth_refusal not null,
  refusals integer default 0 not null,
  constraint auth_refusal_counts_pkey primary key (hour, kind),
  constraint auth_refusal_counts_refusals_check check ((refusals >= 0))
);
alter table public.auth_refusal_counts enable row level security;
comment on table public.auth_refusal_counts is 'Refused sign-ins and two-step codes per hour, as the site was answered by the auth server: wrong password or code, or refused by the per-visitor limits (_limited). Counts only, no address or account.';
revoke all on table public.auth_refusal_counts from public, anon, authenticated, service_role;
grant all on table public.auth_refusal_counts to service_role;

create type public.alert_kind as enum ('draw_overdue', 'cron_stale', 'webhook_failing', 'payment_needs_person', 'webhook_refused');
comment on type public.alert_kind is 'What an operations alert is about.';
create table public.ops_alerts (
  id bigint generated always as identity,
  kind public.alert_kind not null,
  incident text not null,
  subject text not null,
  detail text not null,
  raised_at timestamp with time zone default now() not null,
  acknowledged_at timestamp with time zone,
  acknowledged_by uuid,
  constraint ops_alerts_pkey primary key (id),
  constraint ops_alerts_incident_key unique (incident),
  constraint ops_alerts_incident_check check (((char_length(incident) >= 1) AND (char_length(incident) <= 300))),
  constraint ops_alerts_acknowledged_by_fkey foreign key (acknowledged_by) references auth.users(id) on delete set null
);
alter table public.ops_alerts enable row level security;
comment on table public.ops_alerts is 'One row per incident (incident is its key: a competition, a stall since a given run, a webhook event, a payment), so each is told once; super admins are e-mailed when it is raised and see it in the console until one acknowledges it.';
revoke all on table public.ops_alerts from public, anon, authenticated, service_role;
grant all on table public.ops_alerts to service_role;

create index ops_alerts_open_idx on public.ops_alerts (raised_at DESC) where (acknowledged_at IS NULL);
create index ops_alerts_acknowledged_by_idx on public.ops_alerts (acknowledged_by);

create table public.webhook_refusal_counts (
  hour timestamptz not null,
  provider text not null check (provider in ('stripe')),
  refusals integer not null default 0 check (refusals >= 0),
  primary key (hour, provider)
);
alter table public.webhook_refusal_counts enable row level security;
comment on table public.webhook_refusal_counts is 'Calls to a payment webhook refused for a missing or bad signature, per hour and provider. Counts only: no body, event or address (anyone can make such a call).';
revoke all on table public.webhook_refusal_counts from public, anon, authenticated, service_role;
grant all on table public.webhook_refusal_counts to service_role;

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.overdue_draws(p_grace interval default interval '0 minutes')
returns table (id uuid, slug text, title text, draw_at timestamptz, overdue_minutes integer)
language sql stable security definer set search_path = '' as $$
  -- The same competitions run_due_draws would draw or close now, whose draw time passed p_grace ago.
  select c.id, c.slug, c.title, c.draw_at, floor(extract(epoch from now() - c.draw_at) / 60)::integer
    from public.competitions c
   where c.draw_at <= now() - p_grace
     and (c.status in ('live', 'sold_out')
          or (c.status = 'closed' and exists (select 1 from public.tickets t where t.competition_id = c.id)))
     and not exists (select 1 from public.draws d where d.competition_id = c.id)
   order by c.draw_at
$$;
comment on function private.overdue_draws(interval) is 'Competitions whose draw time passed more than p_grace ago with no draw yet (what run_due_draws would pick), oldest first.';
revoke all on function private.overdue_draws(interval) from public, anon, authenticated, service_role;

create or replace function private.payments_needing_person()
returns table (kind text, reference text, top_up_id uuid, user_id uuid, amount numeric, detail text, since timestamptz)
language sql stable security definer set search_path = '' as $$
  select 'mismatch', w.event_id, null::uuid, null::uuid, null::numeric,
         format('Stripe event %s (%s): the amount paid does not match its top-up', w.event_id, w.event_type),
         w.first_seen_at
    from public.webhook_deliveries w
   where w.status = 'mismatch'
     and not exists (select 1 from public.payment_resolutions r where r.kind = 'mismatch' and r.reference = w.event_id)
  union all
  select 'owed', t.id::text, t.id, t.user_id, t.owed,
         format('£%s refunded after it was spent: owed by the player', to_char(t.owed, 'FM999999990.00')),
         coalesce((select max(f.created_at) from public.top_up_refunds f where f.top_up_id = t.id), t.updated_at)
    from public.top_ups t
   where t.owed > 0
     and not exists (select 1 from public.payment_resolutions r where r.kind = 'owed' and r.reference = t.id::text)
  order by 7
$$;
comment on function private.payments_needing_person() is 'Payments a person must deal with and nobody has yet: webhook events whose amount did not match their top-up, and top-ups with money owed after a refund.';
revoke all on function private.payments_needing_person() from public, anon, authenticated, service_role;

create or replace function private.last_cron_run() returns public.cron_runs
language sql stable security definer set search_path = '' as $$
  select r.* from public.cron_runs r where r.job = 'draws' order by r.started_at desc limit 1
$$;
comment on function private.last_cron_run() is 'The latest run of the scheduled job, or null.';
revoke all on function private.last_cron_run() from public, anon, authenticated, service_role;

create or replace function private.cron_stale() returns boolean
language sql stable security definer set search_path = '' as $$
  -- Counted from the database's start when the job has never run, so a fresh install is not stale at once.
  select coalesce((private.last_cron_run()).started_at, pg_postmaster_start_time()) < now() - interval '5 minutes'
$$;
comment on function private.cron_stale() is 'True when the scheduled job has not run for five minutes.';
revoke all on function private.cron_stale() from public, anon, authenticated, service_role;

create or replace function private.raise_alert(p_kind text, p_incident text, p_subject text, p_detail text) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  new_id bigint;
  link text := coalesce(private.setting('site_url') #>> '{}', 'http://localhost:3000') || '/admin/system';
  sa record;
begin
  insert into public.ops_alerts (kind, incident, subject, detail)
  values (p_kind::public.alert_kind, p_incident, p_subject, p_detail)
  on conflict (incident) do nothing
  returning id into new_id;
  if new_id is null then
    return false;
  end if;
  for sa in
    select a.id from public.user_account_data a join auth.users u on u.id = a.id
     where a.role = 'super_admin' and u.email is not null
  loop
    perform private.queue_mail(sa.id, 'ops_alert', 'LabCash alert: ' || p_subject,
      p_detail || E'\n\nSee the System page: ' || link || E'\n\nYou get this because you are a super admin of LabCash.');
  end loop;
  return true;
end;
$$;
comment on function private.raise_alert(text,text,text,text) is 'Records an incident once (by its key) and, the first time only, queues an e-mail to every super admin with a link to /admin/system.';
revoke all on function private.raise_alert(text,text,text,text) from public, anon, authenticated, service_role;

create or replace function private.raise_ops_alerts() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  raised integer := 0;
  r record;
  last_run public.cron_runs := private.last_cron_run();
begin
  for r in select * from private.overdue_draws(interval '5 minutes') loop
    if private.raise_alert('draw_overdue', 'draw_overdue:' || r.id,
         format('the draw of "%s" is overdue', r.title),
         format('"%s" should have been drawn at %s (UK time) and has not been: %s minutes late. The scheduled job draws it; check that it runs.',
                r.title, to_char(r.draw_at at time zone 'Europe/London', 'DD Mon YYYY HH24:MI'), r.overdue_minutes)) then
      raised := raised + 1;
    end if;
  end loop;

  if private.cron_stale() then
    if private.raise_alert('cron_stale', 'cron_stale:' || coalesce(last_run.id::text, 'never'),
         'the scheduled job has stopped',
         case when last_run.id is null then 'The scheduled job (/api/cron/draws) has not run since the database started.'
              else format('The scheduled job (/api/cron/draws) last ran at %s (UK time). Draws, mail and revalidation wait for it.',
                          to_char(last_run.started_at at time zone 'Europe/London', 'DD Mon YYYY HH24:MI')) end) then
      raised := raised + 1;
    end if;
  end if;

  for r in select w.* from public.webhook_deliveries w where w.status = 'failed' and w.attempts >= 3 loop
    if private.raise_alert('webhook_failing', 'webhook_failing:' || r.provider || ':' || r.event_id,
         format('a %s webhook has failed %s times', r.provider, r.attempts),
         format('The %s event %s (%s) has been answered with an error %s times; the last answer was %s.',
                r.provider, r.event_id, r.event_type, r.attempts, r.http_status)) then
      raised := raised + 1;
    end if;
  end loop;

  for r in select * from private.payments_needing_person() loop
    if private.raise_alert('payment_needs_person', 'payment_' || r.kind || ':' || r.reference,
         'a payment needs a person', r.detail || '.') then
      raised := raised + 1;
    end if;
  end loop;
  return raised;
end;
$$;
comment on function private.raise_ops_alerts() is 'Raises an alert for each incident not yet told: a draw overdue by more than 5 minutes, the job not run for 5 minutes, a webhook event failed 3 times, a payment needing a person. Returns how many were new.';
revoke all on function private.raise_ops_alerts() from public, anon, authenticated, service_role;

create or replace function public.record_cron_run(p_job text, p_started_at timestamptz, p_ok boolean, p_result jsonb, p_error text)
returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  if p_job is distinct from 'draws' or p_started_at is null or p_ok is null then
    raise exception 'A cron run needs its job, start and outcome' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.cron_runs (job, started_at, ok, result, error)
  values (p_job, p_started_at, p_ok, coalesce(p_result, '{}'::jsonb), left(p_error, 1000));
  delete from public.cron_runs where started_at < now() - interval '30 days';
end;
$$;
comment on function public.record_cron_run(text,timestamp with time zone,boolean,jsonb,text) is 'Server: records one run of the scheduled job (kept 30 days).';
revoke all on function public.record_cron_run(text,timestamp with time zone,boolean,jsonb,text) from public, anon, authenticated, service_role;
grant execute on function public.record_cron_run(text,timestamp with time zone,boolean,jsonb,text) to service_role;

create or replace function public.record_webhook_delivery(p_provider text, p_event_id text, p_event_type text, p_status text, p_http_status integer, p_error text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  if p_status not in ('handled', 'failed', 'mismatch') or p_provider is distinct from 'stripe'
     or coalesce(char_length(p_event_id), 0) not between 1 and 255 then
    raise exception 'Not a webhook delivery' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.webhook_deliveries (provider, event_id, event_type, status, http_status, last_error)
  values (p_provider, p_event_id, left(coalesce(p_event_type, 'unknown'), 255), p_status::public.webhook_status, p_http_status, left(p_error, 500))
  on conflict (provider, event_id) do update
     set status = excluded.status, http_status = excluded.http_status, last_error = excluded.last_error,
         attempts = public.webhook_deliveries.attempts + 1, last_seen_at = now();
end;
$$;
comment on function public.record_webhook_delivery(text,text,text,text,integer,text) is 'Server: records how the webhook answered one delivery of a provider event (attempts count repeats of the same event).';
revoke all on function public.record_webhook_delivery(text,text,text,text,integer,text) from public, anon, authenticated, service_role;
grant execute on function public.record_webhook_delivery(text,text,text,text,integer,text) to service_role;

create or replace function public.record_auth_refusal(p_kind text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  if p_kind not in ('sign_in', 'sign_in_limited', 'code', 'code_limited') then
    raise exception 'Not a kind of refusal' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.auth_refusal_counts (hour, kind, refusals)
  values (date_trunc('hour', now()), p_kind::public.auth_refusal, 1)
  on conflict (hour, kind) do update set refusals = public.auth_refusal_counts.refusals + 1;
  delete from public.auth_refusal_counts where hour < now() - interval '30 days';
end;
$$;
comment on function public.record_auth_refusal(text) is 'Server: counts one refused sign-in or two-step code in the current hour.';
revoke all on function public.record_auth_refusal(text) from public, anon, authenticated, service_role;
grant execute on function public.record_auth_refusal(text) to service_role;

create type public.ops_cron_check as (state text, last_run_at timestamp with time zone);
comment on type public.ops_cron_check is 'Whether the scheduled job runs: ok, waiting (never ran, not yet due), stale or failing, and when it last ran.';

create type public.ops_check as (cron public.ops_cron_check, mail text);
comment on type public.ops_check is 'The public health check''s states (no counts): the scheduled job, and mail (ok or failing).';

create or replace function public.ops_check() returns public.ops_check
language plpgsql security definer set search_path = '' as $$
declare
  last_run public.cron_runs;
  oldest_queued timestamptz;
  failed_lately boolean;
begin
  perform private.require_server();
  -- The uptime monitor calling /api/health is what notices a stopped job, so the check raises alerts too.
  perform private.raise_ops_alerts();
  last_run := private.last_cron_run();
  select min(m.created_at) into oldest_queued from public.mail_outbox m where m.status = 'queued';
  select exists (select 1 from public.mail_outbox m where m.status = 'failed' and m.created_at > now() - interval '1 hour')
    into failed_lately;
  return row(
    row(case when last_run.id is null and not private.cron_stale() then 'waiting'
             when last_run.id is null or private.cron_stale() then 'stale'
             when not last_run.ok then 'failing'
             else 'ok' end,
        last_run.started_at)::public.ops_cron_check,
    case when failed_lately or oldest_queued < now() - interval '15 minutes' then 'failing' else 'ok' end)::public.ops_check;
end;
$$;
comment on function public.ops_check() is 'Server (the public health check): raises any new alerts, then says whether the scheduled job runs (and when it last ran) and whether mail goes out. States only, no counts.';
revoke all on function public.ops_check() from public, anon, authenticated, service_role;
grant execute on function public.ops_check() to service_role;

create type public.ops_alert as (id bigint, kind public.alert_kind, incident text, subject text, detail text, raised_at timestamp with time zone, acknowledged_at timestamp with time zone);
comment on type public.ops_alert is 'An alert as the System page shows it: its kind, incident key, words, when raised and when acknowledged.';

create type public.storage_use as (database_bytes bigint, image_count bigint, image_bytes numeric);
comment on type public.storage_use is 'The database''s size and the competition images stored (how many, how many bytes).';

create type public.auth_refusal_hour as (hour timestamp with time zone, sign_in integer, sign_in_limited integer, code integer, code_limited integer);
comment on type public.auth_refusal_hour is 'Refused sign-ins and two-step codes in one hour, and those refused for the rate limit.';

create type public.mail_failure as (id bigint, to_email text, kind text, subject text, attempts integer, error text, created_at timestamp with time zone);
comment on type public.mail_failure is 'A mail that failed for good: to whom, what, how many attempts and the last error.';

create type public.mail_health as (queued bigint, failed bigint, failures public.mail_failure[]);
comment on type public.mail_health is 'Mail waiting and failed, and the latest 50 failures, newest first.';

create type public.payment_needing_person as (kind public.payment_issue, reference text, top_up_id uuid, amount numeric, detail text, since timestamp with time zone, player public.person_ref);
comment on type public.payment_needing_person is 'A payment a person must deal with: an amount mismatch (by event id) or money owed after a refund (by top-up), since when, and the player (or null).';

create type public.overdue_draw as (id uuid, slug text, title text, draw_at timestamp with time zone, overdue_minutes integer);
comment on type public.overdue_draw is 'A competition whose draw time passed with no draw yet, and by how many minutes.';

create type public.cron_run as (id bigint, started_at timestamp with time zone, finished_at timestamp with time zone, ok boolean, result jsonb, error text);
comment on type public.cron_run is 'One run of the scheduled job: when, whether it worked, what it did (result) or why it failed.';

create type public.cron_health as (stale boolean, runs public.cron_run[]);
comment on type public.cron_health is 'Whether the scheduled job is stale, and its latest 20 runs, newest first.';

create type public.system_overview as (can_act boolean, cron public.cron_health, overdue_draws public.overdue_draw[], webhooks public.webhook_deliveries[], payments public.payment_needing_person[], mail public.mail_health, auth_refusals public.auth_refusal_hour[], storage public.storage_use, alerts public.ops_alert[]);
comment on type public.system_overview is 'The System page: whether the caller may act (super admin), the job''s runs, overdue draws, webhook deliveries failed or waiting, payments needing a person, mail, refused sign-ins per hour, storage and the latest alerts.';

create or replace function public.admin_system_overview() returns public.system_overview
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_admin();
  -- Opening the page is a check too: what it shows has been told.
  perform private.raise_ops_alerts();
  return row(
    public.is_super_admin(),
    row(private.cron_stale(),
        coalesce((select array_agg(row(r.id, r.started_at, r.finished_at, r.ok, r.result, r.error)::public.cron_run
                                   order by r.started_at desc)
                    from (select * from public.cron_runs order by started_at desc limit 20) r), '{}'))::public.cron_health,
    coalesce((select array_agg(row(o.id, o.slug, o.title, o.draw_at, o.overdue_minutes)::public.overdue_draw
                               order by o.draw_at)
                from private.overdue_draws() o), '{}'),
    -- Whole rows, as the page always had them: the table's own row type (a subquery's row would be an anonymous record).
    coalesce((select array_agg(w order by w.last_seen_at desc)
                from public.webhook_deliveries w
               where w.id in (select d.id from public.webhook_deliveries d where d.status <> 'handled'
                               order by d.last_seen_at desc limit 50)), '{}'),
    coalesce((select array_agg(row(p.kind::public.payment_issue, p.reference, p.top_up_id, p.amount, p.detail, p.since,
                                   case when p.user_id is not null then row(p.user_id, pr.name)::public.person_ref end
                                  )::public.payment_needing_person
                               order by p.since)
                from private.payments_needing_person() p
                left join public.profiles pr on pr.id = p.user_id), '{}'),
    row((select count(*) from public.mail_outbox where status = 'queued'),
        (select count(*) from public.mail_outbox where status = 'failed'),
        coalesce((select array_agg(row(m.id, m.to_email, m.kind, m.subject, m.attempts, m.error,
                                       m.created_at)::public.mail_failure order by m.id desc)
                    from (select * from public.mail_outbox where status = 'failed' order by id desc limit 50) m),
                 '{}'))::public.mail_health,
    coalesce((select array_agg(row(h.hour, h.sign_in, h.sign_in_limited, h.code, h.code_limited)::public.auth_refusal_hour
                               order by h.hour desc)
                from (select a.hour,
                             coalesce(sum(a.refusals) filter (where a.kind = 'sign_in'), 0)::int as sign_in,
                             coalesce(sum(a.refusals) filter (where a.kind = 'sign_in_limited'), 0)::int as sign_in_limited,
                             coalesce(sum(a.refusals) filter (where a.kind = 'code'), 0)::int as code,
                             coalesce(sum(a.refusals) filter (where a.kind = 'code_limited'), 0)::int as code_limited
                        from public.auth_refusal_counts a
                       where a.hour > now() - interval '24 hours'
                       group by a.hour) h), '{}'),
    row(pg_database_size(current_database()),
        (select count(*) from storage.objects o where o.bucket_id = 'competition-images'),
        (select coalesce(sum((o.metadata ->> 'size')::bigint), 0) from storage.objects o
          where o.bucket_id = 'competition-images'))::public.storage_use,
    coalesce((select array_agg(row(a.id, a.kind, a.incident, a.subject, a.detail, a.raised_at,
                                   a.acknowledged_at)::public.ops_alert order by a.raised_at desc)
                from (select * from public.ops_alerts order by raised_at desc limit 50) a), '{}'))::public.system_overview;
end;
$$;
comment on function public.admin_system_overview() is 'Admins: the System page in one call (raising any new alerts first): recent job runs, overdue draws, webhook deliveries failed or waiting, payments needing a person, mail failures, refused sign-ins and codes per hour (24 hours), storage used, and the alerts.';
revoke all on function public.admin_system_overview() from public, anon, authenticated, service_role;
grant execute on function public.admin_system_overview() to authenticated;
grant execute on function public.admin_system_overview() to service_role;

create type public.open_alert as (id bigint, kind public.alert_kind, subject text, raised_at timestamp with time zone);
comment on type public.open_alert is 'An alert no super admin has acknowledged yet, as the console''s notice shows it.';

create or replace function public.admin_open_alerts() returns setof public.open_alert
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  -- Alerts are for super admins (they are the ones e-mailed and who can act); other admins see none here.
  if not public.is_super_admin() then
    return;
  end if;
  return query
    select a.id, a.kind, a.subject, a.raised_at
      from public.ops_alerts a
     where a.acknowledged_at is null
     order by a.raised_at desc;
end;
$$;
comment on function public.admin_open_alerts() is 'The alerts no super admin has acknowledged yet, for the console''s notice (super admins; an admin gets an empty list).';
revoke all on function public.admin_open_alerts() from public, anon, authenticated, service_role;
grant execute on function public.admin_open_alerts() to authenticated;
grant execute on function public.admin_open_alerts() to service_role;

create type public.deep_health as (overdue_draws bigint, oldest_overdue_draw_at timestamp with time zone, mail_queued bigint, oldest_queued_mail_at timestamp with time zone, mail_failed bigint, webhooks_waiting bigint, payments_needing_person bigint, open_alerts bigint, last_cron_run public.cron_run);
comment on type public.deep_health is 'The deeper health check: queue lengths, the oldest overdue items and the last run of the scheduled job (or null).';

create or replace function public.admin_deep_health() returns public.deep_health
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_super_admin();
  return row(
    (select count(*) from private.overdue_draws()),
    (select min(o.draw_at) from private.overdue_draws() o),
    (select count(*) from public.mail_outbox where status = 'queued'),
    (select min(created_at) from public.mail_outbox where status = 'queued'),
    (select count(*) from public.mail_outbox where status = 'failed'),
    (select count(*) from public.webhook_deliveries where status = 'failed'),
    (select count(*) from private.payments_needing_person()),
    (select count(*) from public.ops_alerts where acknowledged_at is null),
    (select row(r.id, r.started_at, r.finished_at, r.ok, r.result, r.error)::public.cron_run
       from private.last_cron_run() r where r.id is not null))::public.deep_health;
end;
$$;
comment on function public.admin_deep_health() is 'Super admins: the deeper health check (queue lengths and the oldest overdue items).';
revoke all on function public.admin_deep_health() from public, anon, authenticated, service_role;
grant execute on function public.admin_deep_health() to authenticated;
grant execute on function public.admin_deep_health() to service_role;

create or replace function public.admin_retry_mail(p_id bigint) returns void
language plpgsql security definer set search_path = '' as $$
declare
  m public.mail_outbox;
begin
  perform private.require_super_admin();
  update public.mail_outbox
     set status = 'queued', attempts = 0, claimed_at = null
   where id = p_id and status = 'failed'
  returning * into m;
  if m.id is null then
    raise exception 'That mail is not waiting for a retry' using errcode = 'P0001', hint = 'mail_not_failed';
  end if;
  perform private.log_activity('system.mail_retried', m.to_user,
    jsonb_build_object('mail_id', m.id, 'kind', m.kind, 'error', m.error));
end;
$$;
comment on function public.admin_retry_mail(bigint) is 'Super admins: puts a failed mail back in the queue for five more attempts (audited).';
revoke all on function public.admin_retry_mail(bigint) from public, anon, authenticated, service_role;
grant execute on function public.admin_retry_mail(bigint) to authenticated;
grant execute on function public.admin_retry_mail(bigint) to service_role;

create or replace function public.admin_resolve_payment(p_kind text, p_reference text, p_note text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid;
  subject uuid;
begin
  uid := private.require_super_admin();
  if p_kind is null or p_reference is null
     or not exists (select 1 from private.payments_needing_person() p where p.kind = p_kind and p.reference = p_reference) then
    raise exception 'That payment does not need a person' using errcode = 'P0001', hint = 'payment_not_open';
  end if;
  if char_length(btrim(coalesce(p_note, ''))) not between 3 and 2000 then
    raise exception 'Say what was done, in 3 to 2000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.payment_resolutions (kind, reference, note, resolved_by)
  values (p_kind::public.payment_issue, p_reference, btrim(p_note), uid);
  update public.ops_alerts set acknowledged_at = now(), acknowledged_by = uid
   where incident = 'payment_' || p_kind || ':' || p_reference and acknowledged_at is null;
  if p_kind = 'owed' then
    select t.user_id into subject from public.top_ups t where t.id::text = p_reference;
  end if;
  perform private.log_activity('system.payment_resolved', subject,
    jsonb_build_object('kind', p_kind, 'reference', p_reference, 'note', btrim(p_note)));
end;
$$;
comment on function public.admin_resolve_payment(text,text,text) is 'Super admins: records that a payment needing a person (mismatch by event id, owed by top-up id) was dealt with, and how (audited).';
revoke all on function public.admin_resolve_payment(text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_resolve_payment(text,text,text) to authenticated;
grant execute on function public.admin_resolve_payment(text,text,text) to service_role;

create or replace function public.admin_acknowledge_alert(p_id bigint) returns void
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid;
  a public.ops_alerts;
begin
  uid := private.require_super_admin();
  update public.ops_alerts set acknowledged_at = now(), acknowledged_by = uid
   where id = p_id and acknowledged_at is null
  returning * into a;
  if a.id is null then
    raise exception 'No open alert has that id' using errcode = 'PT404', hint = 'alert_not_found';
  end if;
  perform private.log_activity('system.alert_acknowledged', null,
    jsonb_build_object('alert_id', a.id, 'kind', a.kind, 'incident', a.incident));
end;
$$;
comment on function public.admin_acknowledge_alert(bigint) is 'Super admins: marks an alert seen, so the console stops showing it (audited). The incident stays told: it is never mailed again.';
revoke all on function public.admin_acknowledge_alert(bigint) from public, anon, authenticated, service_role;
grant execute on function public.admin_acknowledge_alert(bigint) to authenticated;
grant execute on function public.admin_acknowledge_alert(bigint) to service_role;

create or replace function public.record_webhook_refusal(p_provider text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  this_hour timestamptz := date_trunc('hour', now());
  refused integer;
begin
  perform private.require_server();
  if p_provider is distinct from 'stripe' then
    raise exception 'Not a webhook provider' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.webhook_refusal_counts (hour, provider, refusals)
  values (this_hour, p_provider, 1)
  on conflict (hour, provider) do update set refusals = public.webhook_refusal_counts.refusals + 1
  returning refusals into refused;
  delete from public.webhook_refusal_counts where hour < now() - interval '30 days';
  -- A few refusals are noise (anyone can post to the webhook); more than three in an hour is told once for that
  -- hour, because a wrongly rotated signing secret refuses every real delivery this way.
  if refused > 3 then
    perform private.raise_alert('webhook_refused',
      'webhook_refused:' || p_provider || ':' || to_char(this_hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24'),
      format('%s webhook calls are being refused for a bad signature', p_provider),
      format('More than three calls to the %s webhook were refused for a missing or wrong signature in the hour from %s (UK time). If real deliveries are among them, the signing secret on the server (STRIPE_WEBHOOK_SECRET) does not match the endpoint''s in the %s dashboard.',
             p_provider, to_char(this_hour at time zone 'Europe/London', 'DD Mon YYYY HH24:MI'), p_provider));
  end if;
end;
$$;
comment on function public.record_webhook_refusal(text) is 'Server: counts one webhook call refused for a bad signature in the current hour; more than three in an hour raise one alert for that hour.';
revoke all on function public.record_webhook_refusal(text) from public, anon, authenticated, service_role;
grant execute on function public.record_webhook_refusal(text) to service_role;

create type public.webhook_refusal_hour as (hour timestamp with time zone, provider text, refusals integer);
comment on type public.webhook_refusal_hour is 'Webhook calls refused for a bad signature in one hour, per provider.';

create or replace function public.admin_webhook_refusals() returns setof public.webhook_refusal_hour
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return query
    select w.hour, w.provider, w.refusals
      from public.webhook_refusal_counts w
     where w.hour > now() - interval '24 hours'
     order by w.hour desc, w.provider;
end;
$$;
comment on function public.admin_webhook_refusals() is 'Admins: webhook calls refused for a bad signature, per hour and provider, the last 24 hours (the System page).';
revoke all on function public.admin_webhook_refusals() from public, anon, authenticated, service_role;
grant execute on function public.admin_webhook_refusals() to authenticated;
grant execute on function public.admin_webhook_refusals() to service_role;
