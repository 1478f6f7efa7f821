-- competition_calls_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.get_entry_quote(uuid);

drop function public.get_my_entries();

drop function public.get_my_prizes();

create or replace function public.get_my_entries() returns setof public.my_entry
language plpgsql stable security definer set search_path = '' as $$
begin
  return query
    select e.id, e.kind, e.quantity, e.amount, e.status, e.created_at, private.entry_ticket_numbers(e.id),
           row(c.id, c.slug, c.title, c.status, c.images[1], c.closes_at, c.total_tickets,
               c.tickets_sold)::public.entry_competition,
           (select row(d.id, d.winning_number, d.drawn_at,
                       d.winning_ticket_id in (select t.id from public.tickets t where t.entry_id = e.id),
                       c.prize_description,
                       c.cash_alternative,
                       case when d.winner_user_id = e.user_id
                             and d.winning_ticket_id in (select t.id from public.tickets t where t.entry_id = e.id)
                            then d.prize_choice end,
                       d.prize_status)::public.entry_draw
              from public.draws d where d.competition_id = c.id)
      from public.entries e
      join public.competitions c on c.id = e.competition_id
     where e.user_id = private.require_user()
     order by e.created_at desc, e.id;
end;
$$;
comment on function public.get_my_entries() is 'The caller''s entries, newest first, with ticket numbers, competition summary and the draw once drawn (won, the cash alternative, and for the winning entry the claim choice and the prize''s progress).';
revoke all on function public.get_my_entries() from public, anon, authenticated, service_role;
grant execute on function public.get_my_entries() to authenticated;
grant execute on function public.get_my_entries() to service_role;

-- The latest body (20261127100400_entry_quote_before_second_step) with 'block' added. Not stable any more:
-- play_block applies a due limit increase (private.protections_of writes), as every other caller does.
create or replace function public.get_entry_quote(p_competition_id uuid) returns public.entry_quote
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  held integer;
  cap_left integer;
  tickets_left integer;
  balance numeric(12, 2);
  quoted integer;
  block jsonb;
begin
  select * into c from public.competitions where id = p_competition_id;
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  select * into acct from public.user_account_data a where a.id = uid;
  balance := coalesce(acct.credits, 0);
  select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  cap_left := greatest(c.max_tickets_per_user - held, 0);
  tickets_left := greatest(c.total_tickets - c.tickets_sold, 0);
  -- Prices for every quantity the selector can offer, capped so the answer stays small.
  quoted := least(cap_left, tickets_left, 1000);
  block := private.play_block(uid);
  return row(
    balance,
    coalesce(acct.approved, false),
    acct.rejected_at is not null and not coalesce(acct.approved, false),
    held,
    cap_left,
    tickets_left,
    coalesce((select array_agg(c.ticket_price * q order by q) from generate_series(1, quoted) q), '{}'),
    coalesce((select array_agg(greatest(c.ticket_price * q - balance, 0) order by q)
                from generate_series(1, quoted) q), '{}'),
    case when c.skill_question is not null then private.skill_answer_retry_at(uid, c.id) end,
    -- play_block answers null or {code, message}; populating from null would give a refusal of nulls instead.
    case when block is not null then jsonb_populate_record(null::public.refusal, block) end)::public.entry_quote;
end;
$$;
comment on function public.get_entry_quote(uuid) is 'Signed-in users: what the competition page shows before entering: credit balance, approval, tickets held, how many more the per-user cap and the tickets left allow, for each quantity up to 1000 (costs[i] and shortfalls[i] are for i + 1 tickets) the cost and the credit still missing, skill_retry_at (until when a wrong skill answer closes the question to them), block: what stops them playing now ({code, message} as enter_competition refuses, with the end of a break or exclusion in the message; or null). enter_competition() re-checks everything.';
revoke all on function public.get_entry_quote(uuid) from public, anon, authenticated, service_role;
grant execute on function public.get_entry_quote(uuid) to authenticated;
grant execute on function public.get_entry_quote(uuid) to service_role;

create or replace function public.get_my_prizes() returns setof public.my_prize
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  return query
    select d.id,
           row(c.id, c.slug, c.title, c.images[1])::public.prize_competition,
           c.prize_description,
           c.prize_value,
           c.cash_alternative,
           d.winning_number,
           d.drawn_at,
           d.prize_status,
           d.prize_choice,
           d.delivery_address,
           d.claimed_at,
           d.verified_at,
           d.delivered_at,
           case when d.prize_status = 'delivered' then d.proof_of_delivery end,
           (select row(s.consent, s.consent_source, s.consent_changed_at,
                       s.photo_path is not null or s.quote is not null)::public.my_prize_story
              from public.winner_stories s where s.draw_id = d.id)
      from public.draws d
      join public.competitions c on c.id = d.competition_id
     where d.winner_user_id = uid
     order by d.drawn_at desc;
end;
$$;
comment on function public.get_my_prizes() is 'The caller''s prizes, newest draw first: the prize and its cash alternative, the claim (choice, delivery address), each step''s date (claimed, verified, delivered) and, once delivered, the proof reference; whether they consent to their photo and quote being published.';
revoke all on function public.get_my_prizes() from public, anon, authenticated, service_role;
grant execute on function public.get_my_prizes() to authenticated;
grant execute on function public.get_my_prizes() to service_role;
