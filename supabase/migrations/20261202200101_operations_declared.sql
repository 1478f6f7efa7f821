-- operations_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_deep_health();

drop function public.admin_system_overview();

drop function public.admin_webhook_refusals();

drop function public.ops_check();

create or replace function public.ops_check() returns public.ops_check
language plpgsql security definer set search_path = '' as $$
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
