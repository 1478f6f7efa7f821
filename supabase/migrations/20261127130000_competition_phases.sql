-- ============================================================================
-- One definition of where a competition stands (issue 22, operators): the
-- dashboard counted every competition with status 'live' as live, including
-- one published but not open yet ("Opening soon" on the public site) and one
-- past its close waiting for the draw. private.competition_phase mirrors
-- phaseOf in lib/competitions/status.ts, which the public site and the console
-- both use; the dashboard counts by it.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

create function private.competition_phase(c public.competitions, p_now timestamptz) returns text
language sql stable set search_path = '' as $$
  select case
    when c.status in ('draft', 'cancelled', 'drawn') then c.status
    when c.status = 'live' and p_now < c.opens_at then 'upcoming'
    when c.status = 'live' and p_now < c.closes_at and c.tickets_sold < c.total_tickets then 'live'
    when p_now < c.postal_deadline then 'postal_window'
    when p_now < c.draw_at or c.tickets_sold + c.postal_tickets > 0 then 'awaiting_draw'
    else 'closed'
  end;
$$;
comment on function private.competition_phase(public.competitions, timestamptz) is 'Where a competition stands at a moment, as the public site shows it (phaseOf in lib/competitions/status.ts): draft, upcoming (published, not open yet), live (online sales open), postal_window (online sales ended, letters still enter), awaiting_draw, drawn, closed (no tickets at the draw time) or cancelled.';
revoke execute on function private.competition_phase(public.competitions, timestamptz) from public;

create or replace function public.admin_dashboard() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
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
comment on function public.admin_dashboard() is 'Admins: the dashboard in one call. counts: players (role user), approved_players, pending_approvals (as the approval queue), live_competitions (open for online entries now, as the public site''s "Live now": private.competition_phase), opening_soon (published, not open yet), awaiting_draw (online sales ended, not drawn: postal window or waiting for the draw), open_complaints (not resolved), overdue_complaints (past a deadline), flagged_players (players with a protection flag awaiting review); days: the last 30 Europe/London days (from .. to, today included, zeros included) with signups, tickets (paid tickets sold that day) and credit_sold (top_up ledger rows, pounds); totals over those days.';
