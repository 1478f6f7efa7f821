-- ============================================================================
-- Prize fulfilment as one state machine (issue 22, winners): a prize goes
--   awaiting_claim -> claimed (the winner's claim: prize or cash, delivery address)
--   -> verified (an admin checked their identity) -> delivered (with the proof reference)
-- and the row says so: a check constraint ties each status to its dates (and
-- delivered to its proof), so a badge can never say "Delivered" while the dates
-- say "Not yet". The winner's claim_prize and the admins' admin_update_prize_fulfilment
-- and admin_update_prize_status are the only ways to move it, one step forward at a
-- time (a step back corrects a mistake and clears the later dates).
-- Rows that said more than their dates (the demo data and admin_update_prize_status
-- set a status alone) go back to the last step their dates show, with an audit row.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

alter table public.draws
  add column delivery_address text check (delivery_address is null or char_length(delivery_address) between 5 and 500);
comment on column public.draws.delivery_address is 'Where the winner wants the prize sent (their claim); null for cash or before the claim. Admins and the winner only.';

alter table public.draws drop constraint draws_prize_status_check;
alter table public.draws add constraint draws_prize_status_check
  check (prize_status in ('awaiting_claim', 'claimed', 'verified', 'delivered'));

-- ----------------------------------------------------------------------------
-- Existing rows: the status their dates show
-- ----------------------------------------------------------------------------
-- A claim made before this change kept 'awaiting_claim' with claimed_at set: it is 'claimed'.
-- An admin could verify without an online claim (a postal winner, by letter or phone): the claim is then the
-- verification.
update public.draws set claimed_at = verified_at where claimed_at is null and verified_at is not null;

with fixed as (
  select d.id, d.prize_status as was,
         case
           when d.claimed_at is not null and d.verified_at is not null and d.delivered_at is not null
                and d.proof_of_delivery is not null and d.prize_status = 'delivered' then 'delivered'
           when d.claimed_at is not null and d.verified_at is not null and d.prize_status in ('verified', 'delivered') then 'verified'
           when d.claimed_at is not null then 'claimed'
           else 'awaiting_claim'
         end as now_status
    from public.draws d
), changed as (
  update public.draws d
     set prize_status = f.now_status,
         prize_status_updated_at = now(),
         verified_at = case when f.now_status in ('verified', 'delivered') then d.verified_at end,
         delivered_at = case when f.now_status = 'delivered' then d.delivered_at end
    from fixed f
   where f.id = d.id and f.now_status <> f.was
  returning d.id, d.competition_id, f.was, f.now_status
)
insert into public.activity_log (actor_id, action, subject_id, details)
select null, 'prize.fulfilment', c.id,
       jsonb_build_object('competition_id', c.competition_id, 'from', c.was, 'to', c.now_status, 'repaired', true,
                          'reason', 'The status said more than its dates and proof showed')
  from changed c;

alter table public.draws add constraint draws_prize_fulfilment_steps check (
  case prize_status
    when 'awaiting_claim' then claimed_at is null and verified_at is null and delivered_at is null
    when 'claimed' then claimed_at is not null and verified_at is null and delivered_at is null
    when 'verified' then claimed_at is not null and verified_at is not null and delivered_at is null
    when 'delivered' then claimed_at is not null and verified_at is not null and delivered_at is not null
                          and proof_of_delivery is not null
  end);
comment on constraint draws_prize_fulfilment_steps on public.draws is 'Each prize status has its dates: claimed has claimed_at; verified also verified_at; delivered also delivered_at and the proof reference. Awaiting claim has none.';
comment on column public.draws.prize_status is 'awaiting_claim -> claimed (claimed_at) -> verified (verified_at) -> delivered (delivered_at, proof_of_delivery); see draws_prize_fulfilment_steps.';

-- ----------------------------------------------------------------------------
-- The one transition function
-- ----------------------------------------------------------------------------
create function private.prize_step_index(p_status text) returns integer
language sql immutable set search_path = '' as $$
  select array_position(array['awaiting_claim', 'claimed', 'verified', 'delivered'], p_status)
$$;
comment on function private.prize_step_index(text) is 'The position of a prize status in awaiting_claim -> claimed -> verified -> delivered (1 to 4), null for anything else.';
revoke execute on function private.prize_step_index(text) from public;

create function private.prize_move(p_draw_id uuid, p_status text, p_proof text) returns public.draws
language plpgsql security definer set search_path = '' as $$
declare
  prev public.draws%rowtype;
  next_row public.draws%rowtype;
  from_i integer;
  to_i integer := private.prize_step_index(p_status);
begin
  if to_i is null then
    raise exception 'Prize status must be awaiting claim, claimed, verified or delivered' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into prev from public.draws where id = p_draw_id for update;
  if not found then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  from_i := private.prize_step_index(prev.prize_status);
  if to_i > from_i + 1 then
    if p_status = 'delivered' then
      raise exception 'Verify the winner''s claim (their identity) before marking the prize delivered'
        using errcode = 'P0001', hint = 'prize_not_verified';
    end if;
    raise exception 'Record the winner''s claim before verifying it' using errcode = 'P0001', hint = 'prize_not_claimed';
  end if;
  if p_status = 'delivered' and p_proof is null then
    raise exception 'Give the proof-of-delivery reference (a tracking number, signed receipt or bank transfer reference)'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.draws
     set prize_status = p_status,
         prize_status_updated_at = case when to_i <> from_i then now() else prize_status_updated_at end,
         claimed_at = case when to_i = 1 then null else coalesce(claimed_at, now()) end,
         verified_at = case when to_i < 3 then null else coalesce(verified_at, now()) end,
         delivered_at = case when to_i < 4 then null else coalesce(delivered_at, now()) end,
         proof_of_delivery = p_proof
   where id = p_draw_id
  returning * into next_row;
  return next_row;
end;
$$;
comment on function private.prize_move(uuid, text, text) is 'Moves a prize to a status: forward one step at a time (claimed needs nothing more, verified needs a claim, delivered needs verification and the proof reference), back any number of steps (clearing the later dates); sets each step''s date once. The only writer of prize_status.';
revoke execute on function private.prize_move(uuid, text, text) from public;

-- ----------------------------------------------------------------------------
-- Admins
-- ----------------------------------------------------------------------------
create or replace function public.admin_update_prize_fulfilment(p_draw_id uuid, p_status text, p_note text default null,
                                                     p_proof_of_delivery text default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  prev public.draws%rowtype;
  note text := nullif(btrim(coalesce(p_note, '')), '');
  proof text := nullif(btrim(coalesce(p_proof_of_delivery, '')), '');
begin
  perform private.require_admin();
  if char_length(note) > 2000 then
    raise exception 'Keep the note to 2000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(proof) > 200 then
    raise exception 'Keep the proof-of-delivery reference to 200 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into prev from public.draws where id = p_draw_id;
  perform private.prize_move(p_draw_id, p_status, proof);
  update public.draws set fulfilment_note = note where id = p_draw_id;
  perform private.log_activity('prize.fulfilment', p_draw_id, jsonb_build_object(
    'competition_id', prev.competition_id,
    'from', prev.prize_status, 'to', p_status,
    'note_changed', note is distinct from prev.fulfilment_note,
    'proof_of_delivery', proof));
  return private.prize_fulfilment_json(p_draw_id);
end;
$$;
comment on function public.admin_update_prize_fulfilment(uuid, text, text, text) is 'Admins: moves a prize along awaiting_claim -> claimed (a claim by letter or phone) -> verified (identity checked) -> delivered (needs the proof-of-delivery reference), one step forward at a time or back to correct a mistake (private.prize_move), with its note; audited. Once verified, the winner can no longer change their claim (claim_prize).';

create or replace function public.admin_update_prize_status(p_draw_id uuid, p_status text) returns jsonb
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
  return jsonb_build_object('draw_id', moved.id, 'prize_status', moved.prize_status,
                            'prize_status_updated_at', moved.prize_status_updated_at);
end;
$$;
comment on function public.admin_update_prize_status(uuid, text) is 'Admins: moves a prize to a status by the same rules as admin_update_prize_fulfilment (private.prize_move), keeping its proof reference.';

create or replace function private.prize_fulfilment_json(p_draw_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'draw_id', d.id,
    'competition', jsonb_build_object('id', c.id, 'slug', c.slug, 'title', c.title),
    'prize_description', c.prize_description,
    'prize_value', c.prize_value,
    'cash_alternative', c.cash_alternative,
    'winning_number', d.winning_number,
    'drawn_at', d.drawn_at,
    'winner_display_name', d.winner_display_name,
    'winner_town', d.winner_town,
    'winner_user_id', d.winner_user_id,
    -- The person to contact: the account's name and e-mail, or the postal entrant's name and address.
    'winner_name', coalesce(p.name, pe.name),
    'winner_email', p.email,
    'winner_address', pe.address,
    'route', case when e.kind = 'postal' then 'postal' else 'online' end,
    'prize_choice', d.prize_choice,
    'delivery_address', d.delivery_address,
    'claimed_at', d.claimed_at,
    'prize_status', d.prize_status,
    'prize_status_updated_at', d.prize_status_updated_at,
    'verified_at', d.verified_at,
    'delivered_at', d.delivered_at,
    'fulfilment_note', d.fulfilment_note,
    'proof_of_delivery', d.proof_of_delivery,
    -- What the prize costs us: the cash when the winner chose it, else the prize's value.
    'prize_cost', case when d.prize_choice = 'cash' and c.cash_alternative is not null then c.cash_alternative
                       else c.prize_value end)
  from public.draws d
  join public.competitions c on c.id = d.competition_id
  join public.tickets t on t.id = d.winning_ticket_id
  join public.entries e on e.id = t.entry_id
  left join public.profiles p on p.id = d.winner_user_id
  left join public.postal_entries pe on pe.entry_id = e.id
  where d.id = p_draw_id
$$;

create or replace function public.admin_list_prize_fulfilment(p_status text default null) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  if p_status is not null and private.prize_step_index(p_status) is null then
    raise exception 'Prize status must be awaiting claim, claimed, verified or delivered' using errcode = '22023', hint = 'invalid_input';
  end if;
  return coalesce((
    select jsonb_agg(private.prize_fulfilment_json(d.id)
                     order by private.prize_step_index(d.prize_status), d.drawn_at desc)
      from public.draws d
     where p_status is null or d.prize_status = p_status), '[]'::jsonb);
end;
$$;
comment on function public.admin_list_prize_fulfilment(text) is 'Admins: every draw''s prize fulfilment (optionally one status), in the order of the steps (awaiting claim, claimed, verified, delivered), newest draw first within each.';

-- ----------------------------------------------------------------------------
-- The winner's claim
-- ----------------------------------------------------------------------------
drop function public.claim_prize(uuid, text);
create function public.claim_prize(p_draw_id uuid, p_choice text, p_delivery_address text default null) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  d public.draws%rowtype;
  cash numeric(12, 2);
  title text;
  address text := nullif(btrim(regexp_replace(coalesce(p_delivery_address, ''), E'\r\n?', E'\n', 'g')), '');
begin
  if p_choice is null or p_choice not in ('prize', 'cash') then
    raise exception 'Choose the prize or the cash alternative' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into d from public.draws where id = p_draw_id for update;
  if not found then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  if d.winner_user_id is distinct from uid then
    raise exception 'Only the winner can claim this prize' using errcode = '42501', hint = 'not_the_winner';
  end if;
  select c.cash_alternative, c.title into cash, title from public.competitions c where c.id = d.competition_id;
  if p_choice = 'cash' and cash is null then
    raise exception 'This prize has no cash alternative' using errcode = 'P0001', hint = 'cash_not_offered';
  end if;
  if d.prize_status not in ('awaiting_claim', 'claimed') then
    raise exception 'Your claim has been verified, so the choice can no longer change' using errcode = 'P0001', hint = 'claim_closed';
  end if;
  if p_choice = 'prize' and (address is null or char_length(address) > 500 or private.uk_postcode(address) is null) then
    raise exception 'Give the UK address to send the prize to, with its postcode' using errcode = '22023', hint = 'delivery_address_required';
  end if;
  perform private.prize_move(p_draw_id, 'claimed', d.proof_of_delivery);
  update public.draws
     set prize_choice = p_choice,
         delivery_address = case when p_choice = 'prize' then address end,
         claimed_at = now()
   where id = p_draw_id;
  perform private.log_activity('prize.claimed', p_draw_id, jsonb_build_object('choice', p_choice, 'user_id', uid));
  perform private.queue_mail(uid, 'prize_claimed', 'Your claim: ' || title,
    format(E'Thank you: we have your claim for %s.\n\nYou chose %s.\n\nWe will check your identity and arrange delivery; '
           'you can change your choice until then.',
           title, case when p_choice = 'cash' then private.format_gbp(cash) || ' cash'
                       else E'the prize, sent to:\n' || address end));
  return (select jsonb_build_object('draw_id', x.id, 'prize_choice', x.prize_choice, 'claimed_at', x.claimed_at,
                                    'prize_status', x.prize_status, 'delivery_address', x.delivery_address)
            from public.draws x where x.id = p_draw_id);
end;
$$;
comment on function public.claim_prize(uuid, text, text) is 'The winner: claims the prize (with the UK address to send it to) or its cash alternative (when offered); the prize becomes claimed. The claim can change until an admin verifies it (claim_closed after).';
revoke execute on function public.claim_prize(uuid, text, text) from public;
grant execute on function public.claim_prize(uuid, text, text) to authenticated;

create function public.get_my_prizes() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'draw_id', d.id,
             'competition', jsonb_build_object('id', c.id, 'slug', c.slug, 'title', c.title, 'image', c.images[1]),
             'prize_description', c.prize_description,
             'prize_value', c.prize_value,
             'cash_alternative', c.cash_alternative,
             'winning_number', d.winning_number,
             'drawn_at', d.drawn_at,
             'prize_status', d.prize_status,
             'prize_choice', d.prize_choice,
             'delivery_address', d.delivery_address,
             'claimed_at', d.claimed_at,
             'verified_at', d.verified_at,
             'delivered_at', d.delivered_at,
             'proof_of_delivery', case when d.prize_status = 'delivered' then d.proof_of_delivery end)
           order by d.drawn_at desc)
      from public.draws d
      join public.competitions c on c.id = d.competition_id
     where d.winner_user_id = uid), '[]'::jsonb);
end;
$$;
comment on function public.get_my_prizes() is 'The caller''s prizes, newest draw first: the prize and its cash alternative, the claim (choice, delivery address), each step''s date (claimed, verified, delivered) and, once delivered, the proof reference.';
revoke execute on function public.get_my_prizes() from public;
grant execute on function public.get_my_prizes() to authenticated;

-- ----------------------------------------------------------------------------
-- The public winners list: each prize's progress
-- ----------------------------------------------------------------------------
create or replace function public.list_winners() returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object(
      'draw_id', d.id,
      'competition_id', c.id,
      'slug', c.slug,
      'title', c.title,
      'prize_description', c.prize_description,
      'prize_value', c.prize_value,
      'image', c.images[1],
      'winner_display_name', d.winner_display_name, 'winner_town', d.winner_town,
      'winning_number', d.winning_number,
      'ticket_count', d.ticket_count,
      'drawn_at', d.drawn_at,
      'prize_status', d.prize_status,
      'delivered_at', d.delivered_at) order by d.drawn_at desc), '[]'::jsonb)
  from public.draws d
  join public.competitions c on c.id = d.competition_id
$$;
comment on function public.list_winners() is 'Public: every draw, newest first: prize, winner''s first name and initial and town (if given), winning ticket, draw time, id for the verification page, and the prize''s progress (status, delivery date; never the winner''s address or the proof).';

-- ----------------------------------------------------------------------------
-- The win e-mail points at the claim
-- ----------------------------------------------------------------------------
create or replace function private.draw_competition(p_id uuid, p_trigger text default 'draw_time') returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  the_seed bytea;
  list_hash bytea;
  ext bytea;
  ticket_total integer;
  result record;
  winner public.tickets%rowtype;
  holder_name text;
  holder_town text;
  initials_only boolean := false;
  new_draw uuid;
begin
  -- The row lock makes racing callers (cron runs, an admin) queue; whoever comes
  -- second finds the competition drawn and does nothing.
  select * into c from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if c.status not in ('live', 'sold_out', 'closed') or exists (select 1 from public.draws d where d.competition_id = p_id) then
    return null;
  end if;
  if now() < c.draw_at then
    raise exception 'This competition is drawn on %', to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI')
      using errcode = 'P0001', hint = 'draw_not_due';
  end if;
  select count(*) into ticket_total from public.tickets t where t.competition_id = p_id;
  if ticket_total = 0 then
    update public.competitions set status = 'closed', closed_at = coalesce(closed_at, now()), updated_at = now() where id = p_id;
    perform private.log_activity('competition.closed', p_id, jsonb_build_object('tickets', 0));
    return null;
  end if;

  select s.seed into the_seed from public.competition_seeds s where s.competition_id = p_id;
  if the_seed is null or extensions.digest(the_seed, 'sha256') <> decode(c.seed_commitment, 'hex') then
    raise exception 'The draw seed of this competition is missing or does not match its commitment' using errcode = 'P0001', hint = 'draw_seed_mismatch';
  end if;
  list_hash := private.ticket_list_hash_v2(p_id);
  ext := case when c.external_randomness is not null then decode(c.external_randomness ->> 'value_hex', 'hex') end;
  select * into result from private.draw_derive(the_seed, p_id, list_hash, ext, ticket_total);

  select * into winner from public.tickets t where t.competition_id = p_id order by t.number offset result.winning_number - 1 limit 1;
  if winner.user_id is not null then
    select p.name, p.town, p.show_initials_only into holder_name, holder_town, initials_only
      from public.profiles p where p.id = winner.user_id;
  end if;
  if holder_name is null then
    select pe.name into holder_name from public.postal_entries pe where pe.entry_id = winner.entry_id;
  end if;

  insert into public.draws (competition_id, algorithm, trigger, ticket_count, ticket_list_hash, seed_commitment, seed_hex,
                            external_randomness, external_hex, counter, winning_position, winning_number, winning_ticket_id,
                            winner_user_id, winner_display_name, winner_town)
  values (p_id, 'labcash-draw-v2', 'draw_time', ticket_total, encode(list_hash, 'hex'), c.seed_commitment,
          encode(the_seed, 'hex'), c.external_randomness, encode(ext, 'hex'), result.counter, result.winning_number,
          winner.number, winner.id, winner.user_id, private.public_name(holder_name, coalesce(initials_only, false)),
          case when coalesce(initials_only, false) then null else holder_town end)
  returning id into new_draw;

  update public.competitions
     set status = 'drawn', closed_at = coalesce(closed_at, now()), updated_at = now()
   where id = p_id;

  if winner.user_id is not null then
    perform private.queue_mail(winner.user_id, 'competition_won', 'You won: ' || c.title,
      format(E'Congratulations! Your ticket #%s won %s.\n\nPrize: %s\n\n%s'
             'Claim your prize (choose how you want it and where it goes): %s/account/prizes\nYou can check the draw yourself: %s/winners/%s',
             winner.number, c.title, c.prize_description,
             case when c.cash_alternative is not null
                  then 'You may take ' || private.format_gbp(c.cash_alternative) || E' cash instead: choose when you claim.\n\n'
                  else '' end,
             private.setting('site_url') #>> '{}', private.setting('site_url') #>> '{}', new_draw));
  end if;
  perform private.log_activity('competition.drawn', p_id,
    jsonb_build_object('draw_id', new_draw, 'winning_number', winner.number, 'tickets', ticket_total, 'trigger', p_trigger));
  return new_draw;
end;
$$;

