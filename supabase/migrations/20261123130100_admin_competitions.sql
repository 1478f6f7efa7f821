-- ============================================================================
-- Admin competitions (issue 11, item 5): what the admin competition screens read
-- beyond competition_json (the stored dates, the figures, the postal entries),
-- the admin entries CSV (every entry with its buyer, any state), the history of
-- finished competitions with revenue and prize cost, and prize fulfilment
-- (awaiting claim -> verified -> delivered, with notes and a proof-of-delivery
-- reference). Admins only: every function checks with private.require_admin();
-- every change is audited with private.log_activity.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Prize fulfilment on the draw row
-- ----------------------------------------------------------------------------
-- Not granted to anon or authenticated (draws has column grants): only admins read
-- these, through the functions below.
alter table public.draws
  add column fulfilment_note text check (fulfilment_note is null or char_length(fulfilment_note) <= 2000),
  add column proof_of_delivery text check (proof_of_delivery is null or char_length(proof_of_delivery) <= 200),
  add column verified_at timestamptz,
  add column delivered_at timestamptz;
comment on column public.draws.fulfilment_note is 'Admins'' notes on the prize''s fulfilment (ID checked, courier booked, winner''s wishes); never public.';
comment on column public.draws.proof_of_delivery is 'The proof-of-delivery reference (courier tracking number, signed receipt, bank transfer reference), required to mark a prize delivered through admin_update_prize_fulfilment.';
comment on column public.draws.verified_at is 'When an admin marked the claim verified (ID checked); cleared if it goes back to awaiting claim.';
comment on column public.draws.delivered_at is 'When an admin marked the prize (or its cash) delivered.';

-- ----------------------------------------------------------------------------
-- JSON shapes
-- ----------------------------------------------------------------------------
create function private.prize_fulfilment_json(p_draw_id uuid) returns jsonb
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
comment on function private.prize_fulfilment_json(uuid) is 'One draw''s prize fulfilment for admins: the prize, the winner (name, e-mail or postal address), the claim (prize or cash), status with its times, notes, proof of delivery and the prize cost.';

-- ----------------------------------------------------------------------------
-- The competition page (/admin/competitions/{id})
-- ----------------------------------------------------------------------------
create function public.admin_competition_detail(p_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  perform private.require_admin();
  select * into c from public.competitions where id = p_id;
  if not found then
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
  end if;
  return jsonb_build_object(
    'competition', private.competition_json(p_id, true),
    -- competition_json gives the effective dates; a draft's null ones mean "the default at publish".
    'stored_dates', jsonb_build_object('postal_deadline', c.postal_deadline, 'draw_at', c.draw_at),
    'figures', (select jsonb_build_object(
        'online_tickets', c.tickets_sold,
        'postal_tickets', c.postal_tickets,
        'paid_entries', count(*) filter (where e.kind = 'paid' and e.status = 'active'),
        'postal_entries', count(*) filter (where e.kind = 'postal' and e.status = 'active'),
        'players', count(distinct e.user_id) filter (where e.status = 'active'),
        'revenue', coalesce(sum(e.amount) filter (where e.kind = 'paid' and e.status = 'active'), 0),
        'refunded_entries', count(*) filter (where e.status = 'refunded'),
        'refunded_total', coalesce(sum(e.amount) filter (where e.status = 'refunded'), 0),
        'void_postal_entries', count(*) filter (where e.status = 'void'))
      from public.entries e where e.competition_id = p_id),
    'postal_entries', (select coalesce(jsonb_agg(jsonb_build_object(
          'entry_id', e.id,
          'name', pe.name,
          'address', pe.address,
          'postcode', pe.postcode,
          'user_id', pe.user_id,
          'email', p.email,
          'answer', pe.answer,
          'tickets', e.quantity,
          'ticket_numbers', to_jsonb(array(select generate_series(e.first_ticket, e.first_ticket + e.quantity - 1))),
          'status', e.status,
          'recorded_by', r.name,
          'created_at', pe.created_at) order by e.first_ticket), '[]'::jsonb)
      from public.postal_entries pe
      join public.entries e on e.id = pe.entry_id
      left join public.profiles p on p.id = pe.user_id
      left join public.profiles r on r.id = pe.recorded_by
      where pe.competition_id = p_id),
    'fulfilment', (select private.prize_fulfilment_json(d.id) from public.draws d where d.competition_id = p_id));
end;
$$;
comment on function public.admin_competition_detail(uuid) is 'Admins: one competition for its admin page: competition_json with the admin fields, the stored postal deadline and draw time (null in a draft: the default), the figures (online and postal tickets, entries, players, revenue, refunds), every postal entry with its ticket numbers, and the prize fulfilment once drawn.';
grant execute on function public.admin_competition_detail(uuid) to authenticated;

-- ----------------------------------------------------------------------------
-- The admin entries CSV: every entry with its buyer, in any state (the public
-- ticket and entrant lists open only after online sales end, never for a
-- cancelled competition, and name nobody).
-- ----------------------------------------------------------------------------
create function public.admin_competition_entries_csv(p_id uuid, p_after integer default 0, p_limit integer default 10000)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  chunk integer := least(greatest(coalesce(p_limit, 10000), 1), 10000);
  after_no integer := greatest(coalesce(p_after, 0), 0);
  lines text;
  last_no integer;
begin
  perform private.require_admin();
  if not exists (select 1 from public.competitions c where c.id = p_id) then
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
  end if;
  -- first_ticket is unique within a competition (ticket numbers are), so it pages the entries.
  select coalesce(string_agg(concat_ws(',',
             x.id::text,
             to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
             case when x.kind = 'postal' then 'postal' else 'online' end,
             x.status,
             x.first_ticket::text,
             (x.first_ticket + x.quantity - 1)::text,
             x.quantity::text,
             x.amount::text,
             coalesce(x.user_id::text, ''),
             private.csv_field(coalesce(x.person, '')),
             private.csv_field(coalesce(x.email, '')),
             private.csv_field(coalesce(x.address, '')),
             private.csv_field(coalesce(x.postcode, ''))) || E'\n', '' order by x.first_ticket), ''),
         max(x.first_ticket)
    into lines, last_no
    from (select e.id, e.created_at, e.kind, e.status, e.first_ticket, e.quantity, e.amount, e.user_id,
                 coalesce(pe.name, p.name) as person, p.email, pe.address, pe.postcode
            from public.entries e
            left join public.profiles p on p.id = e.user_id
            left join public.postal_entries pe on pe.entry_id = e.id
           where e.competition_id = p_id and e.first_ticket > after_no
           order by e.first_ticket
           limit chunk) x;
  return jsonb_build_object(
    'csv', case when after_no = 0
                then 'entry_id,created_at,route,status,first_ticket,last_ticket,tickets,amount,user_id,name,email,postal_address,postcode' || E'\n'
                else '' end || lines,
    'last_number', last_no,
    'done', last_no is null
            or not exists (select 1 from public.entries e where e.competition_id = p_id and e.first_ticket > last_no));
end;
$$;
comment on function public.admin_competition_entries_csv(uuid, integer, integer) is 'Admins: a chunk of a competition''s entries as CSV (one line per order or postal entry: id, time (UTC), route, status, ticket range, amount, the buyer''s id, name and e-mail, the postal address), in ticket order after first ticket p_after; the header in the first chunk only. Any state, drafts and cancelled ones included.';
grant execute on function public.admin_competition_entries_csv(uuid, integer, integer) to authenticated;

-- ----------------------------------------------------------------------------
-- History: finished competitions with revenue and prize cost
-- ----------------------------------------------------------------------------
create function public.admin_competition_history() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  rows jsonb;
begin
  perform private.require_admin();
  select coalesce(jsonb_agg(x.row order by x.finished_at desc, x.id), '[]'::jsonb)
    into rows
    from (select c.id,
                 coalesce(d.drawn_at, c.cancelled_at, c.closed_at, c.draw_at, c.closes_at) as finished_at,
                 jsonb_build_object(
                   'id', c.id, 'slug', c.slug, 'title', c.title, 'status', c.status,
                   'closes_at', c.closes_at, 'draw_at', c.draw_at,
                   'finished_at', coalesce(d.drawn_at, c.cancelled_at, c.closed_at, c.draw_at, c.closes_at),
                   'ticket_price', c.ticket_price,
                   'total_tickets', c.total_tickets,
                   'tickets_sold', c.tickets_sold,
                   'postal_tickets', c.postal_tickets,
                   'revenue', m.revenue,
                   'refunded_total', m.refunded,
                   'prize_value', c.prize_value,
                   'cash_alternative', c.cash_alternative,
                   'prize_choice', d.prize_choice,
                   'prize_status', d.prize_status,
                   'draw_id', d.id,
                   'winner_display_name', d.winner_display_name,
                   'prize_cost', pc.cost,
                   'net', m.revenue - pc.cost) as row
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
  return jsonb_build_object(
    'rows', rows,
    'totals', jsonb_build_object(
      'competitions', jsonb_array_length(rows),
      'revenue', (select coalesce(sum((r ->> 'revenue')::numeric), 0) from jsonb_array_elements(rows) r),
      'refunded_total', (select coalesce(sum((r ->> 'refunded_total')::numeric), 0) from jsonb_array_elements(rows) r),
      'prize_cost', (select coalesce(sum((r ->> 'prize_cost')::numeric), 0) from jsonb_array_elements(rows) r),
      'net', (select coalesce(sum((r ->> 'net')::numeric), 0) from jsonb_array_elements(rows) r)));
end;
$$;
comment on function public.admin_competition_history() is 'Admins: finished competitions (drawn, closed, cancelled), most recently finished first, each with revenue (active paid entries), refunds, prize cost (drawn only: the cash alternative when the winner chose cash, else the prize value) and net (revenue - prize cost); totals over all of them.';
grant execute on function public.admin_competition_history() to authenticated;

-- ----------------------------------------------------------------------------
-- Winners: prize fulfilment
-- ----------------------------------------------------------------------------
create function public.admin_list_prize_fulfilment(p_status text default null) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  if p_status is not null and p_status not in ('awaiting_claim', 'verified', 'delivered') then
    raise exception 'Unknown prize status: %', p_status using errcode = '22023', hint = 'invalid_input';
  end if;
  return coalesce((
    select jsonb_agg(private.prize_fulfilment_json(d.id)
                     order by array_position(array['awaiting_claim', 'verified', 'delivered'], d.prize_status),
                              d.drawn_at desc, d.id)
      from public.draws d
     where p_status is null or d.prize_status = p_status), '[]'::jsonb);
end;
$$;
comment on function public.admin_list_prize_fulfilment(text) is 'Admins: every draw''s prize fulfilment (optionally one status), awaiting claim first, then verified, then delivered, newest draw first within each.';
grant execute on function public.admin_list_prize_fulfilment(text) to authenticated;

create function public.admin_update_prize_fulfilment(p_draw_id uuid, p_status text, p_note text default null,
                                                     p_proof_of_delivery text default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  prev public.draws%rowtype;
  note text := nullif(btrim(coalesce(p_note, '')), '');
  proof text := nullif(btrim(coalesce(p_proof_of_delivery, '')), '');
begin
  perform private.require_admin();
  if p_status is null or p_status not in ('awaiting_claim', 'verified', 'delivered') then
    raise exception 'Prize status must be awaiting claim, verified or delivered' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(note) > 2000 then
    raise exception 'Keep the note to 2000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(proof) > 200 then
    raise exception 'Keep the proof-of-delivery reference to 200 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into prev from public.draws where id = p_draw_id for update;
  if not found then
    raise exception 'Draw not found' using errcode = 'P0002', hint = 'draw_not_found';
  end if;
  if p_status = 'delivered' and prev.prize_status = 'awaiting_claim' then
    raise exception 'Verify the winner''s claim (their identity) before marking the prize delivered'
      using errcode = 'P0001', hint = 'prize_not_verified';
  end if;
  if p_status = 'delivered' and proof is null then
    raise exception 'Give the proof-of-delivery reference (a tracking number, signed receipt or bank transfer reference)'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.draws
     set prize_status = p_status,
         prize_status_updated_at = case when p_status <> prev.prize_status then now() else prize_status_updated_at end,
         verified_at = case when p_status = 'awaiting_claim' then null
                            when prev.prize_status = 'awaiting_claim' then now()
                            else verified_at end,
         delivered_at = case when p_status = 'delivered' then coalesce(delivered_at, now()) end,
         fulfilment_note = note,
         proof_of_delivery = proof
   where id = p_draw_id;
  perform private.log_activity('prize.fulfilment', p_draw_id, jsonb_build_object(
    'competition_id', prev.competition_id,
    'from', prev.prize_status, 'to', p_status,
    'note_changed', note is distinct from prev.fulfilment_note,
    'proof_of_delivery', proof));
  return private.prize_fulfilment_json(p_draw_id);
end;
$$;
comment on function public.admin_update_prize_fulfilment(uuid, text, text, text) is 'Admins: sets a prize''s status (awaiting_claim -> verified -> delivered; delivered needs a verified claim and a proof-of-delivery reference; a step back is allowed to correct a mistake), its note and its proof reference; audited. Once verified, the winner can no longer change their prize-or-cash choice (claim_prize).';
grant execute on function public.admin_update_prize_fulfilment(uuid, text, text, text) to authenticated;

-- ----------------------------------------------------------------------------
-- Linking a postal entry to an account: the admin types the e-mail on the letter
-- ----------------------------------------------------------------------------
create index profiles_email_lower_idx on public.profiles (lower(email));
create function public.admin_find_account(p_email text) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  if p_email is null or char_length(btrim(p_email)) not between 3 and 320 then
    raise exception 'Give an e-mail address' using errcode = '22023', hint = 'invalid_input';
  end if;
  return (select jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email)
            from public.profiles p
           where lower(p.email) = lower(btrim(p_email))
           limit 1);
end;
$$;
comment on function public.admin_find_account(text) is 'Admins: the account with this e-mail (case ignored) as {id, name, email}, or null: to link a postal entry to the account named on the letter.';
grant execute on function public.admin_find_account(text) to authenticated;
