-- ============================================================================
-- Draws: the secret seed of each published competition, the verifiable draw
-- (labcash-draw-v1), drawing when a competition sells out or closes, the public
-- winners and draw pages, and prize tracking.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables
-- ----------------------------------------------------------------------------
-- The secret draw seeds. No API role (not even the secret key) may read this
-- table: only the security definer draw function does, and it publishes the seed
-- in public.draws at the moment of the draw. RLS is on with no policy on purpose.
create table public.competition_seeds (
  competition_id uuid primary key references public.competitions (id) on delete cascade,
  seed bytea not null check (octet_length(seed) = 32),
  created_at timestamptz not null default now()
);
alter table public.competition_seeds enable row level security;
comment on table public.competition_seeds is 'Secret 32-byte draw seeds, made by the database CSPRNG at publish time; unreadable by every API role (RLS on, no policy, no grants) until revealed in draws.seed_hex.';

create table public.draws (
  id uuid primary key default gen_random_uuid(),
  competition_id uuid not null unique references public.competitions (id) on delete restrict,
  algorithm text not null default 'labcash-draw-v1',
  trigger text not null check (trigger in ('sold_out', 'close_time')),
  ticket_count integer not null check (ticket_count >= 1),
  ticket_list_hash text not null check (ticket_list_hash ~ '^[0-9a-f]{64}$'),
  seed_commitment text not null check (seed_commitment ~ '^[0-9a-f]{64}$'),
  seed_hex text not null check (seed_hex ~ '^[0-9a-f]{64}$'),
  external_randomness jsonb,
  external_hex text check (external_hex ~ '^([0-9a-f]{2})+$'),
  counter integer not null check (counter >= 0),
  winning_number integer not null check (winning_number between 1 and ticket_count),
  winning_ticket_id uuid not null references public.tickets (id) on delete restrict,
  winner_user_id uuid references auth.users (id) on delete set null,
  winner_display_name text not null,
  winner_town text,
  prize_status text not null default 'awaiting_claim' check (prize_status in ('awaiting_claim', 'verified', 'delivered')),
  prize_status_updated_at timestamptz,
  drawn_at timestamptz not null default now()
);
alter table public.draws enable row level security;
create index draws_drawn_idx on public.draws (drawn_at desc);
create index draws_winning_ticket_idx on public.draws (winning_ticket_id);
create index draws_winner_user_idx on public.draws (winner_user_id);
comment on table public.draws is 'One row per drawn competition (unique: a competition is drawn once) with every input needed to recompute the winner, the seed included (it exists only after the draw).';

-- Every draw is public except who won (the user id) and the prize's progress.
revoke all on table public.competition_seeds, public.draws from anon, authenticated;
revoke all on table public.competition_seeds from service_role;
grant select (id, competition_id, algorithm, trigger, ticket_count, ticket_list_hash, seed_commitment, seed_hex,
  external_randomness, external_hex, counter, winning_number, winning_ticket_id, winner_display_name, winner_town, drawn_at)
  on table public.draws to anon, authenticated;
grant all on table public.draws to service_role;

create policy "draws: public" on public.draws
  for select to anon, authenticated using (true);

-- ----------------------------------------------------------------------------
-- The draw derivation (labcash-draw-v1). lib/draws/verify.ts implements the same
-- steps with WebCrypto; tests check that both agree.
--   ticket_list_hash = SHA-256( "1:<ticket uuid>\n2:<ticket uuid>\n..." ), UTF-8, number order
--   h(counter)       = SHA-256( seed(32) || competition id (16 raw bytes) || ticket_list_hash(32)
--                               || external randomness bytes (0 or more) || counter (4 bytes, big-endian) )
--   x                = first 6 bytes of h as an unsigned 48-bit integer
--   accept x when x < 2^48 - (2^48 mod N): winner = (x mod N) + 1; else counter + 1
-- ----------------------------------------------------------------------------
create function private.draw_pick(p_x bigint, p_ticket_count integer) returns integer
language sql immutable strict set search_path = '' as $$
  select case
    when p_x < 281474976710656 - (281474976710656 % p_ticket_count) then (p_x % p_ticket_count)::integer + 1
  end
$$;
comment on function private.draw_pick(bigint, integer) is 'Rejection sampling step of the draw: the winning number for a 48-bit value, or null when the value falls in the biased tail.';

create function private.draw_derive(
  p_seed bytea, p_competition_id uuid, p_ticket_list_hash bytea, p_external bytea, p_ticket_count integer,
  out counter integer, out winning_number integer
)
language plpgsql immutable set search_path = '' as $$
declare
  prefix bytea;
  h bytea;
begin
  if p_ticket_count is null or p_ticket_count < 1 then
    raise exception 'A draw needs at least one ticket' using errcode = '22023', hint = 'invalid_input';
  end if;
  if octet_length(p_seed) <> 32 or octet_length(p_ticket_list_hash) <> 32 then
    raise exception 'The seed and the ticket list hash must be 32 bytes each' using errcode = '22023', hint = 'invalid_input';
  end if;
  prefix := p_seed || decode(replace(p_competition_id::text, '-', ''), 'hex') || p_ticket_list_hash
    || coalesce(p_external, ''::bytea);
  counter := 0;
  loop
    h := extensions.digest(prefix || int4send(counter), 'sha256');
    winning_number := private.draw_pick(('x' || encode(substring(h from 1 for 6), 'hex'))::bit(48)::bigint, p_ticket_count);
    exit when winning_number is not null;
    counter := counter + 1;
  end loop;
end;
$$;
comment on function private.draw_derive(bytea, uuid, bytea, bytea, integer) is 'The deterministic winner (and the counter used) from the draw inputs; see the derivation above.';

create function private.draw_ticket_list_hash(p_competition_id uuid) returns bytea
language sql stable security definer set search_path = '' as $$
  select extensions.digest(
    convert_to(coalesce(string_agg(t.number::text || ':' || t.id::text || E'\n', '' order by t.number), ''), 'UTF8'),
    'sha256')
  from public.tickets t
  where t.competition_id = p_competition_id
$$;
comment on function private.draw_ticket_list_hash(uuid) is 'SHA-256 of the canonical ticket list of a competition ("number:ticket_id\n" lines in number order).';

-- ----------------------------------------------------------------------------
-- The draw
-- ----------------------------------------------------------------------------
create function private.display_name(p_name text) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_name is null or btrim(p_name) = '' then 'A LabCash player'
    when array_length(regexp_split_to_array(btrim(p_name), '\s+'), 1) = 1 then btrim(p_name)
    else (regexp_split_to_array(btrim(p_name), '\s+'))[1] || ' '
      || upper(left((regexp_split_to_array(btrim(p_name), '\s+'))[array_length(regexp_split_to_array(btrim(p_name), '\s+'), 1)], 1)) || '.'
  end
$$;
comment on function private.display_name(text) is 'A winner''s public name, first name and last initial ("Priya P.").';

create function private.draw_competition(p_id uuid, p_trigger text default 'close_time') returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  the_seed bytea;
  list_hash bytea;
  ext bytea;
  result record;
  winner public.tickets%rowtype;
  holder_name text;
  holder_town text;
  new_draw uuid;
begin
  -- The row lock makes racing triggers (the sell-out purchase, cron runs) queue;
  -- whoever comes second finds the competition drawn and does nothing.
  select * into c from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
  end if;
  if c.status not in ('live', 'sold_out', 'closed') or exists (select 1 from public.draws d where d.competition_id = p_id) then
    return null;
  end if;
  if c.status = 'live' and c.tickets_sold < c.total_tickets and c.closes_at > now() then
    raise exception 'This competition is still open: it is drawn when it sells out or closes' using errcode = 'P0001', hint = 'competition_still_open';
  end if;
  if c.tickets_sold = 0 then
    update public.competitions set status = 'closed', closed_at = coalesce(closed_at, now()), updated_at = now() where id = p_id;
    perform private.log_activity('competition.closed', p_id, jsonb_build_object('tickets_sold', 0));
    return null;
  end if;

  select s.seed into the_seed from public.competition_seeds s where s.competition_id = p_id;
  if the_seed is null or extensions.digest(the_seed, 'sha256') <> decode(c.seed_commitment, 'hex') then
    raise exception 'The draw seed of this competition is missing or does not match its commitment' using errcode = 'P0001', hint = 'draw_seed_mismatch';
  end if;
  list_hash := private.draw_ticket_list_hash(p_id);
  ext := case when c.external_randomness is not null then decode(c.external_randomness ->> 'value_hex', 'hex') end;
  select * into result from private.draw_derive(the_seed, p_id, list_hash, ext, c.tickets_sold);

  select * into winner from public.tickets t where t.competition_id = p_id and t.number = result.winning_number;
  if winner.user_id is not null then
    select p.name, p.town into holder_name, holder_town from public.profiles p where p.id = winner.user_id;
  end if;
  if holder_name is null then
    select pe.name into holder_name from public.postal_entries pe where pe.entry_id = winner.entry_id;
  end if;

  insert into public.draws (competition_id, trigger, ticket_count, ticket_list_hash, seed_commitment, seed_hex,
                            external_randomness, external_hex, counter, winning_number, winning_ticket_id,
                            winner_user_id, winner_display_name, winner_town)
  values (p_id, case when p_trigger = 'sold_out' then 'sold_out' else 'close_time' end, c.tickets_sold,
          encode(list_hash, 'hex'), c.seed_commitment, encode(the_seed, 'hex'), c.external_randomness,
          encode(ext, 'hex'), result.counter, result.winning_number, winner.id, winner.user_id,
          private.display_name(holder_name), holder_town)
  returning id into new_draw;

  update public.competitions
     set status = 'drawn', closed_at = coalesce(closed_at, now()), updated_at = now()
   where id = p_id;

  if winner.user_id is not null then
    perform private.queue_mail(winner.user_id, 'competition_won', 'You won: ' || c.title,
      format(E'Congratulations! Your ticket #%s won %s.\n\nPrize: %s\n\nWe will be in touch to arrange delivery. '
             'You can check the draw yourself: %s/winners/%s', result.winning_number, c.title, c.prize_description,
             private.setting('site_url') #>> '{}', new_draw));
  end if;
  perform private.log_activity('competition.drawn', p_id,
    jsonb_build_object('draw_id', new_draw, 'winning_number', result.winning_number, 'trigger', p_trigger));
  return new_draw;
end;
$$;
comment on function private.draw_competition(uuid, text) is 'Draws a sold-out or closed competition once (row lock plus unique draws.competition_id), reveals the seed in the draws row and notifies the winner; a competition with no tickets is closed without a winner.';

create function public.run_due_draws() returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  r record;
  draw_id uuid;
  drawn jsonb := '[]'::jsonb;
  closed jsonb := '[]'::jsonb;
begin
  if not private.is_service_role() then
    perform private.require_admin();
  end if;
  -- skip locked: a competition another caller (or a purchase) is working on is
  -- left to it; the next run picks up anything still due.
  for r in
    select c.id, c.tickets_sold from public.competitions c
     where (c.status = 'live' and c.closes_at <= now()) or c.status = 'sold_out'
        or (c.status = 'closed' and c.tickets_sold > 0)
     order by c.closes_at
     for update skip locked
  loop
    draw_id := private.draw_competition(r.id, 'close_time');
    if draw_id is not null then
      drawn := drawn || jsonb_build_object('competition_id', r.id, 'draw_id', draw_id);
    elsif r.tickets_sold = 0 then
      closed := closed || to_jsonb(r.id);
    end if;
  end loop;
  return jsonb_build_object('drawn', drawn, 'closed', closed);
end;
$$;
comment on function public.run_due_draws() is 'Server (cron) and admins: draws every competition whose close time has passed with tickets sold, and closes those with none. Idempotent and safe to run concurrently.';
grant execute on function public.run_due_draws() to authenticated, service_role;

-- ----------------------------------------------------------------------------
-- Public reads
-- ----------------------------------------------------------------------------
create function public.list_winners() returns jsonb
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
      'drawn_at', d.drawn_at) order by d.drawn_at desc), '[]'::jsonb)
  from public.draws d
  join public.competitions c on c.id = d.competition_id
$$;
comment on function public.list_winners() is 'Public: every draw, newest first: prize, winner''s first name and initial and town (if given), winning ticket, draw time and id for the verification page.';
grant execute on function public.list_winners() to anon, authenticated, service_role;

create function public.get_draw(p_draw_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'id', d.id,
    'algorithm', d.algorithm,
    'competition', jsonb_build_object('id', c.id, 'slug', c.slug, 'title', c.title, 'total_tickets', c.total_tickets),
    'trigger', d.trigger,
    'drawn_at', d.drawn_at,
    'ticket_count', d.ticket_count,
    'ticket_list_hash', d.ticket_list_hash,
    'seed_commitment', d.seed_commitment,
    'seed_hex', d.seed_hex,
    'external_randomness', d.external_randomness,
    'external_hex', d.external_hex,
    'counter', d.counter,
    'winning_number', d.winning_number,
    'winning_ticket_id', d.winning_ticket_id,
    'winner_display_name', d.winner_display_name, 'winner_town', d.winner_town,
    'tickets', (select coalesce(jsonb_agg(t.id order by t.number), '[]'::jsonb)
                  from public.tickets t where t.competition_id = c.id))
  from public.draws d
  join public.competitions c on c.id = d.competition_id
  where d.id = p_draw_id
$$;
comment on function public.get_draw(uuid) is 'Public: every input of one draw for the verification page, the revealed seed and the ticket ids in number order (element i is ticket i + 1); null when there is no such draw.';
grant execute on function public.get_draw(uuid) to anon, authenticated, service_role;

-- ----------------------------------------------------------------------------
-- Prizes (admins)
-- ----------------------------------------------------------------------------
create function public.admin_update_prize_status(p_draw_id uuid, p_status text) returns jsonb
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_admin();
  if p_status is null or p_status not in ('awaiting_claim', 'verified', 'delivered') then
    raise exception 'Prize status must be awaiting_claim, verified or delivered' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.draws set prize_status = p_status, prize_status_updated_at = now() where id = p_draw_id;
  if not found then
    raise exception 'Draw not found' using errcode = 'P0002', hint = 'draw_not_found';
  end if;
  perform private.log_activity('prize.status_changed', p_draw_id, jsonb_build_object('status', p_status));
  return (select jsonb_build_object('draw_id', d.id, 'prize_status', d.prize_status, 'prize_status_updated_at', d.prize_status_updated_at)
            from public.draws d where d.id = p_draw_id);
end;
$$;
comment on function public.admin_update_prize_status(uuid, text) is 'Admins: tracks a prize: awaiting_claim -> verified (ID checked) -> delivered.';
grant execute on function public.admin_update_prize_status(uuid, text) to authenticated;
