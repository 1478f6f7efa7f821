-- competition_outcomes_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.entry_list_rows(uuid,integer,integer,integer,boolean);

drop function public.admin_competition_history();

drop function public.admin_mark_instant_win_delivered(uuid);

drop function public.admin_update_prize_status(uuid,text);

drop function public.get_entry_list(text,integer,integer,integer,integer);

drop function public.run_due_draws();

create or replace function public.run_due_draws() returns public.due_draws
language plpgsql security definer set search_path = '' as $$
declare
  r record;
  draw_id uuid;
  drawn public.drawn_competition[] := '{}';
  closed uuid[] := '{}';
begin
  if not private.is_service_role() then
    perform private.require_admin();
  end if;
  -- skip locked: a competition another caller is working on is left to it; the
  -- next run picks up anything still due.
  for r in
    select c.id from public.competitions c
     where c.draw_at <= now()
       and (c.status in ('live', 'sold_out')
            or (c.status = 'closed' and exists (select 1 from public.tickets t where t.competition_id = c.id)))
       and not exists (select 1 from public.draws d where d.competition_id = c.id)
     order by c.draw_at
     for update skip locked
  loop
    draw_id := private.draw_competition(r.id, 'draw_time');
    if draw_id is not null then
      drawn := drawn || row(r.id, draw_id)::public.drawn_competition;
    else
      closed := closed || r.id;
    end if;
  end loop;
  return row(drawn, closed)::public.due_draws;
end;
$$;
comment on function public.run_due_draws() is 'Server (cron) and admins: draws every competition whose draw time has passed (over its online and postal tickets), and closes those with no tickets. Idempotent and safe to run concurrently.';
revoke all on function public.run_due_draws() from public, anon, authenticated, service_role;
grant execute on function public.run_due_draws() to authenticated;
grant execute on function public.run_due_draws() to service_role;

create or replace function public.admin_update_prize_status(p_draw_id uuid, p_status text) returns public.prize_status_change
language plpgsql security definer set search_path = '' as $$
declare
  moved public.draws%rowtype;
  prev_status text;
begin
  perform private.require_admin();
  select d.prize_status into prev_status from public.draws d where d.id = p_draw_id;
  select * into moved from private.prize_move(p_draw_id, p_status,
    (select d.proof_of_delivery from public.draws d where d.id = p_draw_id));
  perform private.log_activity('prize.status_changed', p_draw_id, jsonb_build_object('from', prev_status, 'status', p_status));
  return row(moved.id, moved.prize_status, moved.prize_status_updated_at)::public.prize_status_change;
end;
$$;
comment on function public.admin_update_prize_status(uuid,text) is 'Admins: moves a prize to a status by the same rules as admin_update_prize_fulfilment (private.prize_move), keeping its proof reference.';
revoke all on function public.admin_update_prize_status(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_prize_status(uuid,text) to authenticated;
grant execute on function public.admin_update_prize_status(uuid,text) to service_role;

create or replace function private.entry_list_rows(p_competition_id uuid, p_from integer, p_to integer, p_limit integer, p_descending boolean)
returns public.entry_list_row[]
language plpgsql stable security definer set search_path = '' as $$
declare
  page public.entry_list_row[];
begin
  -- Two queries rather than one ordered by a case expression, so both walk the ticket-number index.
  with chunk as (
    select x.number, x.id, x.user_id, x.entry_id from (
      select t.number, t.id, t.user_id, t.entry_id from public.tickets t
       where t.competition_id = p_competition_id and t.number > p_from and t.number < p_to and not p_descending
       order by t.number limit p_limit) x
    union all
    select y.number, y.id, y.user_id, y.entry_id from (
      select t.number, t.id, t.user_id, t.entry_id from public.tickets t
       where t.competition_id = p_competition_id and t.number > p_from and t.number < p_to and p_descending
       order by t.number desc limit p_limit) y
  )
  select coalesce(array_agg(row(
           c.number, c.id,
           case when e.kind = 'postal' then 'Postal entry'
                else private.public_name(p.name, coalesce(p.show_initials_only, false)) end,
           case when e.kind = 'postal' or coalesce(p.show_initials_only, false) then null else p.town end,
           case when e.kind = 'postal' then 'postal' else 'online' end)::public.entry_list_row
           order by c.number), '{}')
    into page
    from chunk c
    join public.entries e on e.id = c.entry_id
    left join public.profiles p on p.id = c.user_id;
  return page;
end;
$$;
comment on function private.entry_list_rows(uuid,integer,integer,integer,boolean) is 'Entry-list rows (number, ticket id, public entrant name and town, or "Postal entry") with p_from < number < p_to, the first or (p_descending) the last p_limit, returned in number order.';
revoke all on function private.entry_list_rows(uuid,integer,integer,integer,boolean) from public, anon, authenticated, service_role;

create or replace function public.get_entry_list(
  p_slug text, p_after integer default null, p_before integer default null, p_ticket integer default null,
  p_limit integer default 50
) returns public.entry_list_page
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions := private.entry_list_competition(p_slug);
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  rows public.entry_list_row[];
  first_no integer;
  last_no integer;
begin
  if p_ticket is not null then
    rows := private.entry_list_rows(c.id, p_ticket - 1, p_ticket + 1, 1, false);
  elsif p_before is not null then
    rows := private.entry_list_rows(c.id, 0, p_before, page_size, true);
  else
    rows := private.entry_list_rows(c.id, coalesce(p_after, 0), 2147483647, page_size, false);
  end if;
  first_no := (rows[1]).number;
  last_no := (rows[cardinality(rows)]).number;
  return row(
    row(c.id, c.slug, c.title, c.status, c.closes_at, c.postal_deadline, c.draw_at, c.total_tickets, c.tickets_sold,
        c.postal_tickets)::public.entry_list_summary,
    (select row(d.id, d.algorithm, d.ticket_list_hash)::public.entry_list_draw
       from public.draws d where d.competition_id = c.id),
    c.tickets_sold + c.postal_tickets,
    rows,
    first_no is not null and exists (select 1 from public.tickets t where t.competition_id = c.id and t.number < first_no),
    last_no is not null and exists (select 1 from public.tickets t where t.competition_id = c.id and t.number > last_no)
  )::public.entry_list_page;
end;
$$;
comment on function public.get_entry_list(text,integer,integer,integer,integer) is 'Public, once online sales end: one page of the entry list in ticket-number order (after p_after, the page before p_before, or the one ticket p_ticket), with the public entrant name and town or "Postal entry", the draw''s ticket-list hash once drawn, and whether there are pages before and after.';
revoke all on function public.get_entry_list(text,integer,integer,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.get_entry_list(text,integer,integer,integer,integer) to anon;
grant execute on function public.get_entry_list(text,integer,integer,integer,integer) to authenticated;
grant execute on function public.get_entry_list(text,integer,integer,integer,integer) to service_role;

create or replace function public.admin_competition_history() returns public.competition_history
language plpgsql stable security definer set search_path = '' as $$
declare
  finished public.competition_history_row[];
begin
  perform private.require_admin();
  select coalesce(array_agg(x.line order by x.finished_at desc, x.id), '{}')
    into finished
    from (select c.id,
                 coalesce(d.drawn_at, c.cancelled_at, c.closed_at, c.draw_at, c.closes_at) as finished_at,
                 row(c.id, c.slug, c.title, c.status, c.closes_at, c.draw_at,
                     coalesce(d.drawn_at, c.cancelled_at, c.closed_at, c.draw_at, c.closes_at),
                     c.ticket_price, c.total_tickets, c.tickets_sold, c.postal_tickets, m.revenue, m.refunded,
                     c.prize_value, c.cash_alternative, d.prize_choice, d.prize_status, d.id, d.winner_display_name,
                     pc.cost, m.revenue - pc.cost)::public.competition_history_row as line
            from public.competitions c
            left join public.draws d on d.competition_id = c.id
            cross join lateral (
              select coalesce(sum(e.amount) filter (where e.kind = 'paid' and e.status = 'active'), 0) as revenue,
                     coalesce(sum(e.amount) filter (where e.status = 'refunded'), 0) as refunded
                from public.entries e where e.competition_id = c.id) m
            -- Only a drawn competition has a prize to pay: its value, or the cash the winner chose.
            cross join lateral (
              select case when d.id is null then 0::numeric(12, 2)
                          when d.prize_choice = 'cash' and c.cash_alternative is not null then c.cash_alternative
                          else c.prize_value end as cost) pc
           where c.status in ('drawn', 'closed', 'cancelled')) x;
  return row(
    finished,
    (select row(count(*)::integer, coalesce(sum(h.revenue), 0), coalesce(sum(h.refunded_total), 0),
                coalesce(sum(h.prize_cost), 0), coalesce(sum(h.net), 0))::public.competition_history_totals
       from unnest(finished) h))::public.competition_history;
end;
$$;
comment on function public.admin_competition_history() is 'Admins: finished competitions (drawn, closed, cancelled), most recently finished first, each with revenue (active paid entries), refunds, prize cost (drawn only: the cash alternative when the winner chose cash, else the prize value) and net (revenue - prize cost); totals over all of them.';
revoke all on function public.admin_competition_history() from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_history() to authenticated;
grant execute on function public.admin_competition_history() to service_role;

create or replace function public.admin_mark_instant_win_delivered(p_id uuid) returns public.instant_win_delivered
language plpgsql security definer set search_path = '' as $$
declare
  w public.instant_wins%rowtype;
begin
  perform private.require_admin();
  update public.instant_wins set status = 'delivered', delivered_at = now()
   where id = p_id and status = 'awaiting_fulfilment'
  returning * into w;
  if not found then
    raise exception 'No instant win awaiting delivery with that id' using errcode = 'PT404', hint = 'instant_win_not_found';
  end if;
  perform private.log_activity('competition.instant_win_delivered', w.competition_id, jsonb_build_object('instant_win_id', w.id));
  if w.user_id is not null then
    perform private.notify(w.user_id, 'prize', 'instant_win:' || w.id || ':delivered', 'Prize update',
      'Your instant-win prize has been delivered.', '/account/prizes');
  end if;
  return row(w.id, w.status, w.delivered_at)::public.instant_win_delivered;
end;
$$;
comment on function public.admin_mark_instant_win_delivered(uuid) is 'Admins: marks an instant win awaiting fulfilment as delivered (audited; the winner is notified).';
revoke all on function public.admin_mark_instant_win_delivered(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_mark_instant_win_delivered(uuid) to authenticated;
grant execute on function public.admin_mark_instant_win_delivered(uuid) to service_role;
