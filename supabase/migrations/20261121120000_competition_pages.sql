-- ============================================================================
-- What the competition page needs to show a signed-in user before they enter:
-- their credit, how many more tickets they may buy, and the price of each
-- quantity with the amount missing, all worked out here because money
-- arithmetic happens only in SQL (ARCHITECTURE §1). enter_competition() stays
-- the last word: this is a quote, not a reservation.
-- ============================================================================

alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke execute on functions from anon, authenticated;

create function public.get_entry_quote(p_competition_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := public.require_user();
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  held integer;
  cap_left integer;
  tickets_left integer;
  balance numeric(12, 2);
  quoted integer;
begin
  select * into c from public.competitions where id = p_competition_id;
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'P0002';
  end if;
  select * into acct from public.user_account_data a where a.id = uid;
  balance := coalesce(acct.credits, 0);
  select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  cap_left := greatest(c.max_tickets_per_user - held, 0);
  tickets_left := greatest(c.total_tickets - c.tickets_sold, 0);
  -- Prices for every quantity the selector can offer, capped so the answer stays small.
  quoted := least(cap_left, tickets_left, 1000);
  return jsonb_build_object(
    'balance', balance,
    'approved', coalesce(acct.approved, false),
    'rejected', acct.rejected_at is not null and not coalesce(acct.approved, false),
    'held', held,
    'cap_left', cap_left,
    'tickets_left', tickets_left,
    'costs', coalesce((select jsonb_agg(c.ticket_price * q order by q) from generate_series(1, quoted) q), '[]'::jsonb),
    'shortfalls', coalesce((select jsonb_agg(greatest(c.ticket_price * q - balance, 0) order by q)
                              from generate_series(1, quoted) q), '[]'::jsonb));
end;
$$;
comment on function public.get_entry_quote(uuid) is 'Signed-in users: what the competition page shows before entering: credit balance, approval, tickets held, how many more the per-user cap and the tickets left allow, and for each quantity up to 1000 (costs[i] and shortfalls[i] are for i + 1 tickets) the cost and the credit still missing. enter_competition() re-checks everything.';
revoke execute on function public.get_entry_quote(uuid) from public, anon;
grant execute on function public.get_entry_quote(uuid) to authenticated;

-- The winner's e-mail linked to /draws/<id>; the public verification page is /winners/<id>
-- (under /winners so it is public and exempt from the approval redirect). Same function otherwise.
create or replace function public.draw_competition(p_id uuid, p_trigger text default 'close_time') returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  the_seed bytea;
  list_hash bytea;
  ext bytea;
  result record;
  winner public.tickets%rowtype;
  holder_name text;
  new_draw uuid;
begin
  -- The row lock makes racing triggers (the sell-out purchase, cron runs) queue;
  -- whoever comes second finds the competition drawn and does nothing.
  select * into c from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'P0002';
  end if;
  if c.status not in ('live', 'sold_out', 'closed') or exists (select 1 from public.draws d where d.competition_id = p_id) then
    return null;
  end if;
  if c.status = 'live' and c.tickets_sold < c.total_tickets and c.closes_at > now() then
    raise exception 'This competition is still open: it is drawn when it sells out or closes' using errcode = 'P0001';
  end if;
  if c.tickets_sold = 0 then
    update public.competitions set status = 'closed', closed_at = coalesce(closed_at, now()), updated_at = now() where id = p_id;
    perform public.log_activity('competition.closed', p_id, jsonb_build_object('tickets_sold', 0));
    return null;
  end if;

  select s.seed into the_seed from public.competition_seeds s where s.competition_id = p_id;
  if the_seed is null or extensions.digest(the_seed, 'sha256') <> decode(c.seed_commitment, 'hex') then
    raise exception 'The draw seed of this competition is missing or does not match its commitment' using errcode = 'P0001';
  end if;
  list_hash := public.draw_ticket_list_hash(p_id);
  ext := case when c.external_randomness is not null then decode(c.external_randomness ->> 'value_hex', 'hex') end;
  select * into result from public.draw_derive(the_seed, p_id, list_hash, ext, c.tickets_sold);

  select * into winner from public.tickets t where t.competition_id = p_id and t.number = result.winning_number;
  if winner.user_id is not null then
    select p.name into holder_name from public.profiles p where p.id = winner.user_id;
  end if;
  if holder_name is null then
    select pe.name into holder_name from public.postal_entries pe where pe.entry_id = winner.entry_id;
  end if;

  insert into public.draws (competition_id, trigger, ticket_count, ticket_list_hash, seed_commitment, seed_hex,
                            external_randomness, external_hex, counter, winning_number, winning_ticket_id,
                            winner_user_id, winner_display_name)
  values (p_id, case when p_trigger = 'sold_out' then 'sold_out' else 'close_time' end, c.tickets_sold,
          encode(list_hash, 'hex'), c.seed_commitment, encode(the_seed, 'hex'), c.external_randomness,
          encode(ext, 'hex'), result.counter, result.winning_number, winner.id, winner.user_id,
          public.display_name(holder_name))
  returning id into new_draw;

  update public.competitions
     set status = 'drawn', closed_at = coalesce(closed_at, now()), updated_at = now()
   where id = p_id;

  if winner.user_id is not null then
    perform public.queue_mail(winner.user_id, 'competition_won', 'You won: ' || c.title,
      format(E'Congratulations! Your ticket #%s won %s.\n\nPrize: %s\n\nWe will be in touch to arrange delivery. '
             'You can check the draw yourself: /winners/%s', result.winning_number, c.title, c.prize_description, new_draw));
  end if;
  perform public.log_activity('competition.drawn', p_id,
    jsonb_build_object('draw_id', new_draw, 'winning_number', result.winning_number, 'trigger', p_trigger));
  return new_draw;
end;
$$;
