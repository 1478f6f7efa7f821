-- ============================================================================
-- Transparency: the public trust page's figures (/transparency), computed from the records themselves, and the
-- count of draws checked in visitors' browsers.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

-- One row per visitor, draw and London day whose browser reported that it recomputed the draw and found it checks
-- out. The visitor is kept only as a hash of their network (an IPv4 address, an IPv6 /48) with the draw, the day and
-- that day's secret salt, and no time of day: one network counts once a day per draw, no address is stored, and once
-- the day's salt is gone no row can be traced to an address by trying every address, nor two rows linked to one
-- visitor.
create table public.draw_checks (
  draw_id uuid not null,
  checked_on date not null,
  visitor_hash text not null,
  constraint draw_checks_pkey primary key (draw_id, checked_on, visitor_hash),
  constraint draw_checks_draw_id_fkey foreign key (draw_id) references public.draws(id) on delete cascade,
  constraint draw_checks_visitor_hash_check check ((visitor_hash ~ '^[0-9a-f]{64}$'::text))
);
alter table public.draw_checks enable row level security;
comment on table public.draw_checks is 'Draws a visitor''s browser reported it recomputed and found correct: one row per draw, London day and visitor network, the network only as sha256(the day''s secret salt, network, draw, day), with no time of day. Written by record_draw_check (the site, secret key only); counted by get_transparency_report.';
revoke all on table public.draw_checks from public, anon, authenticated, service_role;
grant all on table public.draw_checks to service_role;

create index draw_checks_checked_on_idx on public.draw_checks (checked_on);

-- Each London day's secret salt for those hashes, made by the database's CSPRNG on the day's first check and dropped
-- by the cron once the day is over (forget_draw_check_salts): no API role may read it.
create table private.draw_check_salts (
  checked_on date not null,
  salt bytea not null,
  constraint draw_check_salts_pkey primary key (checked_on),
  constraint draw_check_salts_salt_check check ((octet_length(salt) = 32))
);
alter table private.draw_check_salts enable row level security;
comment on table private.draw_check_salts is 'The secret salt of each London day''s draw-check hashes (32 random bytes): written and read only by record_draw_check; earlier days'' salts are dropped by forget_draw_check_salts (the cron).';
revoke all on table private.draw_check_salts from public, anon, authenticated, service_role;

-- ----------------------------------------------------------------------------
-- Types
-- ----------------------------------------------------------------------------

create type public.transparency_figures as (
  period text,
  competitions_drawn integer,
  prize_value numeric(12,2),
  prizes_chosen integer,
  cash_chosen integer,
  cash_paid numeric(12,2),
  awaiting_claim integer,
  prizes_delivered integer,
  median_tickets numeric,
  instant_wins_published integer,
  instant_wins_won integer,
  online_entries integer,
  online_tickets integer,
  postal_received integer,
  postal_entered integer,
  postal_tickets integer,
  complaints_received integer,
  complaints_acknowledged_in_time integer,
  complaints_answered_in_time integer,
  complaints_open integer,
  complaints_overdue integer,
  draw_checks integer,
  draws_checked integer
);
comment on type public.transparency_figures is 'One period''s figures on the trust page (period ''all'' or a London month ''YYYY-MM''): draws and prizes by the draw''s month (prize or cash as winners chose, and the cash alternatives paid, null unless at least five winners in the period have chosen, so a period with one draw does not give its winner''s choice away; prizes awaiting a claim, delivered), the median tickets in a draw (odds of 1 in that many per ticket), instant wins published and won in the competitions drawn, online and postal entries by the month made (postal received, and entered: not voided), complaints by the month received (acknowledged and answered within their deadlines, open, overdue), browser checks by the day made.';

create type public.transparency_town as (town text, winners integer);
comment on type public.transparency_town is 'A town or county as winners published it, and how many draw winners it has.';

create type public.transparency_draw as (
  draw_id uuid,
  slug text,
  title text,
  month text,
  drawn_at timestamp with time zone,
  ticket_count integer,
  postal_tickets integer,
  prize_value numeric(12,2),
  prize_status public.prize_status,
  winner_town text,
  instant_wins_published integer,
  instant_wins_won integer,
  checks integer
);
comment on type public.transparency_draw is 'A drawn competition behind the trust page''s figures: its draw, tickets (postal among them), prize and its step (never what the winner chose), the town as published, its instant wins published and won, and browser checks (all time).';

create type public.transparency_report as (
  generated_at timestamp with time zone,
  all_time public.transparency_figures,
  months public.transparency_figures[],
  towns public.transparency_town[],
  winners_without_town integer,
  draws public.transparency_draw[]
);
comment on type public.transparency_report is 'The trust page: figures for all time and each of the last twelve London months with any, newest first; winners by town as published; the draws of those months, newest first.';

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

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
    -- One row per prize drawn; what belongs to the competition (its instant wins) on its first prize's row only.
    select d.id, d.competition_id, d.prize_position, d.drawn_at,
           to_char(d.drawn_at at time zone 'Europe/London', 'YYYY-MM') as month, d.ticket_count,
           d.prize_choice, d.prize_status, d.winner_town, c.slug, c.title, d.prize_value, d.cash_alternative,
           c.postal_tickets,
           case when d.prize_position = 1 then
             coalesce((select sum(p.quantity) from public.instant_win_prizes p where p.competition_id = c.id), 0)
           else 0 end::integer as instant_wins_published,
           case when d.prize_position = 1 then
             (select count(*) from public.instant_wins w where w.competition_id = c.id)
           else 0 end::integer as instant_wins_won,
           (select count(*) from public.draw_checks k where k.draw_id = d.id)::integer as checks
      from public.draws d
      join public.competitions c on c.id = d.competition_id
  ),
  draw_figures as (
    select coalesce(month, 'all') as period,
           (count(*) filter (where prize_position = 1))::integer as competitions_drawn,
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
           (percentile_cont(0.5) within group (order by ticket_count) filter (where prize_position = 1))::numeric
             as median_tickets,
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
    -- A draw is a competition's: the checks of its several prizes' pages are checks of one draw.
    select coalesce(to_char(k.checked_on, 'YYYY-MM'), 'all') as period,
           count(*)::integer as draw_checks,
           count(distinct d.competition_id)::integer as draws_checked
      from public.draw_checks k
      join public.draws d on d.id = k.draw_id
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
    -- A competition's row: its first prize's draw, with every prize's value and every prize's browser checks.
    (select coalesce(array_agg(row(d.id, d.slug, d.title, d.month, d.drawn_at, d.ticket_count, d.postal_tickets,
                                   (select sum(x.prize_value) from drawn x where x.competition_id = d.competition_id),
                                   d.prize_status, d.winner_town, d.instant_wins_published, d.instant_wins_won,
                                   (select sum(x.checks) from drawn x where x.competition_id = d.competition_id)
                               )::public.transparency_draw order by d.drawn_at desc), '{}')
       from drawn d
      where d.prize_position = 1 and d.month >= coalesce((select min(period) from recent_months), ''))
  )::public.transparency_report
$$;
comment on function public.get_transparency_report() is 'The site (secret key only; it reads every entry, so the site computes it at most once a minute and serves the cached page): the trust page''s figures, all time and for each of the last twelve London months with any activity, computed from draws, entries, instant wins, complaints and browser checks; winners by town only as published (initials-only winners have none); no person, address or complaint text.';
revoke all on function public.get_transparency_report() from public, anon, authenticated, service_role;
grant execute on function public.get_transparency_report() to service_role;
