-- console_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_dashboard();

drop function public.admin_list_activity(text,text,text,date,date,bigint,integer);

create or replace function public.admin_dashboard() returns public.admin_dashboard
language plpgsql stable security definer set search_path = '' as $$
declare
  today date := (now() at time zone 'Europe/London')::date;
  first_day date := today - 29;
  since timestamptz := first_day::timestamp at time zone 'Europe/London';
  day_rows public.dashboard_day[];
  phases jsonb;
begin
  perform private.require_admin();

  -- One row per Europe/London calendar day, the 29 days before today and today, zeros included.
  select array_agg(row(d.day, coalesce(s.n, 0), coalesce(t.n, 0), coalesce(c.amount, 0))::public.dashboard_day
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

  return row(
    now(),
    first_day,
    today,
    row(
      (select count(*) from public.user_account_data a where a.role = 'user'),
      (select count(*) from public.user_account_data a where a.role = 'user' and a.approved),
      -- The same accounts the approval queue lists.
      (select count(*) from public.user_account_data a where not a.approved and a.rejected_at is null),
      coalesce((phases ->> 'live')::bigint, 0),
      coalesce((phases ->> 'upcoming')::bigint, 0),
      coalesce((phases ->> 'postal_window')::bigint, 0) + coalesce((phases ->> 'awaiting_draw')::bigint, 0),
      (select count(*) from public.complaints c where c.status <> 'resolved'),
      (select count(*) from public.complaints c
        where (c.status = 'received' and c.acknowledge_by < now())
           or (c.status <> 'resolved' and c.respond_by < now())),
      -- Players with a player-protection flag awaiting review (player_flags, *_player_protection.sql).
      (select count(distinct f.user_id) from public.player_flags f where f.status = 'open'))::public.dashboard_counts,
    day_rows,
    (select row(sum(x.signups), sum(x.tickets), sum(x.credit_sold))::public.dashboard_totals
       from unnest(day_rows) x))::public.admin_dashboard;
end;
$$;
comment on function public.admin_dashboard() is 'Admins: the dashboard in one call. counts: players (role user), approved_players, pending_approvals (as the approval queue), live_competitions (open for online entries now, as the public site''s "Live now": private.competition_phase), opening_soon (published, not open yet), awaiting_draw (online sales ended, not drawn: postal window or waiting for the draw), open_complaints (not resolved), overdue_complaints (past a deadline), flagged_players (players with a protection flag awaiting review); days: the last 30 Europe/London days (from .. to, today included, zeros included) with signups, tickets (paid tickets sold that day) and credit_sold (top_up ledger rows, pounds); totals over those days.';
revoke all on function public.admin_dashboard() from public, anon, authenticated, service_role;
grant execute on function public.admin_dashboard() to authenticated;
grant execute on function public.admin_dashboard() to service_role;

create or replace function public.admin_list_activity(p_actor text default null, p_kind text default null,
                                           p_subject text default null, p_from date default null,
                                           p_to date default null, p_before bigint default null,
                                           p_limit integer default 50)
returns public.activity_page
language plpgsql stable security definer set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  page_rows public.activity_row[];
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.activity_filter_check(p_actor, p_kind, p_subject, p_from, p_to);
  -- One row more than the page shows says whether there is an older page.
  select coalesce(array_agg(row(r.id, r.created_at, r.action, r.actor_id, r.actor_name, r.actor_email, r.subject_id,
                                r.subject_kind, r.subject_label, r.details)::public.activity_row
                            order by r.id desc) filter (where r.n <= page_size), '{}'),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select a.*, row_number() over (order by a.id desc) as n
            from private.activity_rows(p_actor, p_kind, p_subject, p_from, p_to, p_before, page_size + 1) a) r;
  return row(
    page_rows,
    case when fetched > page_size then last_id end,
    -- Every kind recorded, for the filter: a loose index scan over activity_log_action_idx.
    (with recursive k(action) as (
       (select l.action from public.activity_log l order by l.action limit 1)
       union all
       select (select l.action from public.activity_log l where l.action > k.action order by l.action limit 1)
         from k where k.action is not null)
     select coalesce(array_agg(k.action order by k.action), '{}') from k where k.action is not null))::public.activity_page;
end;
$$;
comment on function public.admin_list_activity(text,text,text,date,date,bigint,integer) is 'Admins: one page of the activity log, newest first (keyset: pass next_before), filtered by actor (id, or text in the name or e-mail), kind (an action such as competition.entered, or a family such as competition), subject (id, or text in its name, e-mail, title or reference) and Europe/London dates from/to inclusive; rows carry the actor''s name and e-mail and the subject''s kind and label. kinds lists every action recorded.';
revoke all on function public.admin_list_activity(text,text,text,date,date,bigint,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_activity(text,text,text,date,date,bigint,integer) to authenticated;
grant execute on function public.admin_list_activity(text,text,text,date,date,bigint,integer) to service_role;
