-- transparency_report: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function public.record_draw_check(p_draw_id uuid, p_visitor text) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  visitor text := private.visitor_network(p_visitor);
  today date := (now() at time zone 'Europe/London')::date;
  today_salt bytea;
  added integer;
begin
  perform private.require_server();
  if not exists (select 1 from public.draws d where d.id = p_draw_id) then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  -- A request with no address the site can key (a misconfigured proxy) is not counted rather than counted as one
  -- visitor for everyone.
  if visitor is null then
    return false;
  end if;
  insert into private.draw_check_salts (checked_on, salt) values (today, extensions.gen_random_bytes(32))
  on conflict (checked_on) do nothing;
  select s.salt into today_salt from private.draw_check_salts s where s.checked_on = today;
  insert into public.draw_checks (draw_id, checked_on, visitor_hash)
  values (p_draw_id, today,
          encode(sha256(today_salt || convert_to(visitor || ' ' || p_draw_id::text || ' ' || today::text, 'UTF8')), 'hex'))
  on conflict do nothing;
  get diagnostics added = row_count;
  return added = 1;
end;
$$;
comment on function public.record_draw_check(uuid,text) is 'The site (secret key only): counts a visitor''s browser check of a draw that checked out, once per visitor network (an IPv4 address, an IPv6 /48), draw and London day, keeping only sha256(the day''s secret salt, network, draw, day); true when counted, false when already counted today or the address is not one (draw_not_found for an unknown draw).';
revoke all on function public.record_draw_check(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.record_draw_check(uuid,text) to service_role;

create or replace function public.forget_draw_check_salts() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  forgotten integer;
begin
  perform private.require_server();
  delete from private.draw_check_salts s where s.checked_on < (now() at time zone 'Europe/London')::date;
  get diagnostics forgotten = row_count;
  return forgotten;
end;
$$;
comment on function public.forget_draw_check_salts() is 'The cron (secret key only): drops the draw-check salts of London days that are over, so their hashes can no longer be traced to any address; how many were dropped.';
revoke all on function public.forget_draw_check_salts() from public, anon, authenticated, service_role;
grant execute on function public.forget_draw_check_salts() to service_role;

-- Each source is grouped by month and for all time in one pass (grouping sets), so the all-time figures are the
-- same sums as the months', and the median is over all draws, not of the months' medians.
create or replace function public.get_transparency_report() returns public.transparency_report
language sql stable security definer set search_path = '' as $$
  with drawn as (
    select d.id, d.drawn_at, to_char(d.drawn_at at time zone 'Europe/London', 'YYYY-MM') as month, d.ticket_count,
           d.prize_choice, d.prize_status, d.winner_town, c.slug, c.title, c.prize_value, c.cash_alternative,
           c.postal_tickets,
           coalesce((select sum(p.quantity) from public.instant_win_prizes p where p.competition_id = c.id), 0)::integer
             as instant_wins_published,
           (select count(*) from public.instant_wins w where w.competition_id = c.id)::integer as instant_wins_won,
           (select count(*) from public.draw_checks k where k.draw_id = d.id)::integer as checks
      from public.draws d
      join public.competitions c on c.id = d.competition_id
  ),
  draw_figures as (
    select coalesce(month, 'all') as period,
           count(*)::integer as competitions_drawn,
           sum(prize_value)::numeric(12,2) as prize_value,
           -- What winners chose is theirs: shown only where at least five in the period have chosen.
           case when count(prize_choice) >= 5 then (count(*) filter (where prize_choice = 'prize'))::integer end
             as prizes_chosen,
           case when count(prize_choice) >= 5 then (count(*) filter (where prize_choice = 'cash'))::integer end
             as cash_chosen,
           case when count(prize_choice) >= 5 then
             coalesce(sum(cash_alternative) filter (where prize_choice = 'cash' and prize_status = 'delivered'), 0)
           end::numeric(12,2) as cash_paid,
           (count(*) filter (where prize_status = 'awaiting_claim'))::integer as awaiting_claim,
           (count(*) filter (where prize_status = 'delivered'))::integer as prizes_delivered,
           percentile_cont(0.5) within group (order by ticket_count)::numeric as median_tickets,
           sum(instant_wins_published)::integer as instant_wins_published,
           sum(instant_wins_won)::integer as instant_wins_won
      from drawn
     group by grouping sets ((month), ())
  ),
  entry_figures as (
    select coalesce(to_char(e.created_at at time zone 'Europe/London', 'YYYY-MM'), 'all') as period,
           (count(*) filter (where e.kind = 'paid' and e.status = 'active'))::integer as online_entries,
           coalesce(sum(e.quantity) filter (where e.kind = 'paid' and e.status = 'active'), 0)::integer as online_tickets,
           (count(*) filter (where e.kind = 'postal'))::integer as postal_received,
           (count(*) filter (where e.kind = 'postal' and e.status <> 'void'))::integer as postal_entered,
           coalesce(sum(e.quantity) filter (where e.kind = 'postal' and e.status <> 'void'), 0)::integer as postal_tickets
      from public.entries e
     group by grouping sets ((to_char(e.created_at at time zone 'Europe/London', 'YYYY-MM')), ())
  ),
  complaint_figures as (
    select coalesce(to_char(c.created_at at time zone 'Europe/London', 'YYYY-MM'), 'all') as period,
           count(*)::integer as complaints_received,
           (count(*) filter (where c.acknowledged_at <= c.acknowledge_by))::integer as complaints_acknowledged_in_time,
           (count(*) filter (where c.resolved_at <= c.respond_by))::integer as complaints_answered_in_time,
           (count(*) filter (where c.status <> 'resolved'))::integer as complaints_open,
           (count(*) filter (where (c.status <> 'resolved' and now() > c.respond_by)
                                or (c.acknowledged_at is null and now() > c.acknowledge_by)))::integer
             as complaints_overdue
      from public.complaints c
     group by grouping sets ((to_char(c.created_at at time zone 'Europe/London', 'YYYY-MM')), ())
  ),
  check_figures as (
    select coalesce(to_char(k.checked_on, 'YYYY-MM'), 'all') as period,
           count(*)::integer as draw_checks,
           count(distinct k.draw_id)::integer as draws_checked
      from public.draw_checks k
     group by grouping sets ((to_char(k.checked_on, 'YYYY-MM')), ())
  ),
  periods as (
    select period from draw_figures
    union select period from entry_figures
    union select period from complaint_figures
    union select period from check_figures
    union select 'all'
  ),
  figures as (
    select row(p.period, coalesce(d.competitions_drawn, 0), coalesce(d.prize_value, 0), d.prizes_chosen,
               d.cash_chosen, d.cash_paid, coalesce(d.awaiting_claim, 0),
               coalesce(d.prizes_delivered, 0), d.median_tickets, coalesce(d.instant_wins_published, 0),
               coalesce(d.instant_wins_won, 0), coalesce(e.online_entries, 0), coalesce(e.online_tickets, 0),
               coalesce(e.postal_received, 0), coalesce(e.postal_entered, 0), coalesce(e.postal_tickets, 0),
               coalesce(c.complaints_received, 0), coalesce(c.complaints_acknowledged_in_time, 0),
               coalesce(c.complaints_answered_in_time, 0), coalesce(c.complaints_open, 0),
               coalesce(c.complaints_overdue, 0), coalesce(k.draw_checks, 0), coalesce(k.draws_checked, 0)
           )::public.transparency_figures as f,
           p.period
      from periods p
      left join draw_figures d on d.period = p.period
      left join entry_figures e on e.period = p.period
      left join complaint_figures c on c.period = p.period
      left join check_figures k on k.period = p.period
  ),
  recent_months as (
    select f, period from figures where period <> 'all' order by period desc limit 12
  )
  select row(
    now(),
    (select f from figures where period = 'all'),
    (select coalesce(array_agg(f order by period desc), '{}') from recent_months),
    (select coalesce(array_agg(row(t.town, t.winners)::public.transparency_town order by t.winners desc, t.town), '{}')
       from (select min(btrim(winner_town)) as town, count(*)::integer as winners from drawn
              where nullif(btrim(winner_town), '') is not null group by lower(btrim(winner_town))) t),
    (select count(*)::integer from drawn where nullif(btrim(winner_town), '') is null),
    (select coalesce(array_agg(row(d.id, d.slug, d.title, d.month, d.drawn_at, d.ticket_count, d.postal_tickets,
                                   d.prize_value, d.prize_status, d.winner_town,
                                   d.instant_wins_published, d.instant_wins_won, d.checks
                               )::public.transparency_draw order by d.drawn_at desc), '{}')
       from drawn d
      where d.month >= coalesce((select min(period) from recent_months), ''))
  )::public.transparency_report
$$;
comment on function public.get_transparency_report() is 'The site (secret key only; it reads every entry, so the site computes it at most once a minute and serves the cached page): the trust page''s figures, all time and for each of the last twelve London months with any activity, computed from draws, entries, instant wins, complaints and browser checks; winners by town only as published (initials-only winners have none); no person, address or complaint text.';
revoke all on function public.get_transparency_report() from public, anon, authenticated, service_role;
grant execute on function public.get_transparency_report() to service_role;
