-- ============================================================================
-- Draws: the committed seed, the prizes after the first, the draw itself (labcash-draw-v1/v2, one row per prize),
-- due draws and the public draw record.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
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
revoke all on table public.competition_seeds from public, anon, authenticated, service_role;

-- The prizes after the first, in order (2nd, 3rd…): the first prize is the competition's own (prize_description,
-- prize_value, cash_alternative), which every page that shows "the prize" keeps showing. Set with the competition
-- (admin_create_competition, admin_update_competition).
create table public.competition_prizes (
  competition_id uuid not null,
  position smallint not null,
  description text not null,
  value numeric(12,2) not null,
  cash_alternative numeric(12,2),
  constraint competition_prizes_pkey primary key (competition_id, position),
  constraint competition_prizes_competition_id_fkey foreign key (competition_id) references public.competitions(id) on delete cascade,
  constraint competition_prizes_position_check check (((position >= 2) AND (position <= 10))),
  constraint competition_prizes_description_check check (((char_length(description) >= 1) AND (char_length(description) <= 2000))),
  constraint competition_prizes_value_check check ((value >= (0)::numeric)),
  constraint competition_prizes_cash_alternative_check check (((cash_alternative IS NULL) OR (cash_alternative > (0)::numeric)))
);
alter table public.competition_prizes enable row level security;
comment on table public.competition_prizes is 'A competition''s prizes after the first (positions 2 to 10, in order), each with its value and any cash alternative; the first prize is the competition''s own columns. Each is drawn in turn from the same draw (public.draws.prize_position).';
revoke all on table public.competition_prizes from public, anon, authenticated, service_role;
grant all on table public.competition_prizes to service_role;

create type public.draw_trigger as enum ('sold_out', 'close_time', 'draw_time');
comment on type public.draw_trigger is 'What made a draw happen.';
create table public.draws (
  id uuid default gen_random_uuid() not null,
  competition_id uuid not null,
  algorithm text default 'labcash-draw-v2'::text not null,
  trigger public.draw_trigger not null,
  ticket_count integer not null,
  ticket_list_hash text not null,
  seed_commitment text not null,
  seed_hex text not null,
  external_randomness jsonb,
  external_hex text,
  counter integer not null,
  winning_number integer not null,
  winning_ticket_id uuid not null,
  winner_user_id uuid,
  winner_display_name text not null,
  winner_town text,
  prize_status public.prize_status default 'awaiting_claim'::public.prize_status not null,
  prize_status_updated_at timestamp with time zone,
  drawn_at timestamp with time zone default now() not null,
  winning_position integer,
  prize_choice public.prize_choice,
  claimed_at timestamp with time zone,
  fulfilment_note text,
  proof_of_delivery text,
  verified_at timestamp with time zone,
  delivered_at timestamp with time zone,
  delivery_address text,
  prize_position smallint default 1 not null,
  prize_description text not null,
  prize_value numeric(12,2) not null,
  cash_alternative numeric(12,2),
  constraint draws_pkey primary key (id),
  constraint draws_competition_prize_position_key unique (competition_id, prize_position),
  constraint draws_winning_ticket_id_key unique (winning_ticket_id),
  constraint draws_prize_position_check check (((prize_position >= 1) AND (prize_position <= 10))),
  constraint draws_counter_check check ((counter >= 0)),
  constraint draws_delivery_address_check check (((delivery_address IS NULL) OR ((char_length(delivery_address) >= 5) AND (char_length(delivery_address) <= 500)))),
  constraint draws_external_hex_check check ((external_hex ~ '^([0-9a-f]{2})+$'::text)),
  constraint draws_fulfilment_note_check check (((fulfilment_note IS NULL) OR (char_length(fulfilment_note) <= 2000))),
  constraint draws_prize_fulfilment_steps_check check (
CASE prize_status
    WHEN 'awaiting_claim'::public.prize_status THEN ((claimed_at IS NULL) AND (verified_at IS NULL) AND (delivered_at IS NULL))
    WHEN 'claimed'::public.prize_status THEN ((claimed_at IS NOT NULL) AND (verified_at IS NULL) AND (delivered_at IS NULL))
    WHEN 'verified'::public.prize_status THEN ((claimed_at IS NOT NULL) AND (verified_at IS NOT NULL) AND (delivered_at IS NULL))
    WHEN 'delivered'::public.prize_status THEN ((claimed_at IS NOT NULL) AND (verified_at IS NOT NULL) AND (delivered_at IS NOT NULL) AND (proof_of_delivery IS NOT NULL))
    ELSE NULL::boolean
END),
  constraint draws_proof_of_delivery_check check (((proof_of_delivery IS NULL) OR (char_length(proof_of_delivery) <= 200))),
  constraint draws_seed_commitment_check check ((seed_commitment ~ '^[0-9a-f]{64}$'::text)),
  constraint draws_seed_hex_check check ((seed_hex ~ '^[0-9a-f]{64}$'::text)),
  constraint draws_ticket_count_check check ((ticket_count >= 1)),
  constraint draws_ticket_list_hash_check check ((ticket_list_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint draws_winning_number_check check ((winning_number >= 1)),
  constraint draws_winning_position_check check ((((algorithm = 'labcash-draw-v1'::text) AND (winning_position IS NULL) AND (winning_number <= ticket_count)) OR ((algorithm = 'labcash-draw-v2'::text) AND ((winning_position >= 1) AND (winning_position <= ticket_count))))),
  constraint draws_competition_id_fkey foreign key (competition_id) references public.competitions(id) on delete restrict,
  constraint draws_winner_user_id_fkey foreign key (winner_user_id) references auth.users(id) on delete set null,
  constraint draws_winning_ticket_id_fkey foreign key (winning_ticket_id) references public.tickets(id) on delete restrict
);
alter table public.draws enable row level security;
comment on table public.draws is 'One row per prize of a drawn competition (unique per competition and position: a competition is drawn once; a ticket wins at most one prize), each with every input needed to recompute its winner, the seed included (it exists only after the draw), and the prize as it was when drawn.';
comment on column public.draws.prize_position is 'Which prize: 1 for the first (the competition''s own prize), then competition_prizes.position. Drawn in order from one counter stream (labcash-draw-v2).';
comment on column public.draws.counter is 'The counter whose hash picked this prize''s row: the first accepted counter for the first prize, each later prize the next accepted counter whose row no earlier prize took.';
comment on column public.draws.prize_status is 'awaiting_claim -> claimed (claimed_at) -> verified (verified_at) -> delivered (delivered_at, proof_of_delivery); see draws_prize_fulfilment_steps_check.';
comment on column public.draws.winning_position is 'labcash-draw-v2: the winning row of the ticket list (1-based); winning_number is the ticket number on it.';
comment on column public.draws.prize_choice is 'The winner''s choice when claiming: the prize, or its cash alternative.';
comment on column public.draws.fulfilment_note is 'Admins'' notes on the prize''s fulfilment (ID checked, courier booked, winner''s wishes); never public.';
comment on column public.draws.proof_of_delivery is 'The proof-of-delivery reference (courier tracking number, signed receipt, bank transfer reference), required to mark a prize delivered through admin_update_prize_fulfilment.';
comment on column public.draws.verified_at is 'When an admin marked the claim verified (ID checked); cleared if it goes back to awaiting claim.';
comment on column public.draws.delivered_at is 'When an admin marked the prize (or its cash) delivered.';
comment on column public.draws.delivery_address is 'Where the winner wants the prize sent (their claim); null for cash or before the claim. Admins and the winner only.';
comment on constraint draws_prize_fulfilment_steps_check on public.draws is 'Each prize status has its dates: claimed has claimed_at; verified also verified_at; delivered also delivered_at and the proof reference. Awaiting claim has none.';
revoke all on table public.draws from public, anon, authenticated, service_role;
grant all on table public.draws to service_role;
grant select (id, competition_id, algorithm, trigger, ticket_count, ticket_list_hash, seed_commitment, seed_hex, external_randomness, external_hex, counter, winning_number, winning_ticket_id, winner_display_name, winner_town, drawn_at, winning_position, prize_position, prize_description, prize_value, cash_alternative) on table public.draws to anon, authenticated;

create index draws_drawn_idx on public.draws (drawn_at DESC);
create index draws_winner_user_idx on public.draws (winner_user_id);
create policy "draws: public" on public.draws
  as permissive for select to anon, authenticated
  using (true);

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.competition_set_prizes(p_competition_id uuid, p_tickets_sold boolean, p jsonb)
returns void
language plpgsql set search_path = '' as $$
declare
  item jsonb;
  pos integer := 1;
  described text;
  worth numeric;
  cash numeric;
  wanted public.competition_prizes[] := '{}';
begin
  if p is null or jsonb_typeof(p) <> 'array' then
    raise exception 'Send the prizes after the first as a list' using errcode = '22023', hint = 'invalid_input';
  end if;
  if jsonb_array_length(p) > 9 then
    raise exception 'A competition has at most 10 prizes' using errcode = '22023', hint = 'invalid_input';
  end if;
  for item in select value from jsonb_array_elements(p) loop
    pos := pos + 1;
    if jsonb_typeof(item) <> 'object' then
      raise exception 'Give each prize as its description, value and any cash alternative' using errcode = '22023', hint = 'invalid_input';
    end if;
    described := btrim(regexp_replace(coalesce(item ->> 'description', ''), E'\r\n?', E'\n', 'g'));
    if char_length(described) not between 1 and 2000 then
      raise exception 'Describe the % prize (up to 2,000 characters)', private.ordinal(pos) using errcode = '22023', hint = 'invalid_input';
    end if;
    begin
      worth := (item ->> 'value')::numeric;
      cash := (item ->> 'cash_alternative')::numeric;
    exception when invalid_text_representation then
      raise exception 'Give the % prize''s value and cash alternative in pounds', private.ordinal(pos) using errcode = '22023', hint = 'invalid_input';
    end;
    if worth is null or worth < 0 or worth > 10000000 or worth <> round(worth, 2) then
      raise exception 'Give the % prize''s value in pounds and pence', private.ordinal(pos) using errcode = '22023', hint = 'invalid_input';
    end if;
    if cash is not null and (cash <= 0 or cash > 10000000 or cash <> round(cash, 2)) then
      raise exception 'Give the % prize''s cash alternative in pounds above £0, or none', private.ordinal(pos) using errcode = '22023', hint = 'invalid_input';
    end if;
    wanted := wanted || row(p_competition_id, pos, described, worth, cash)::public.competition_prizes;
  end loop;
  -- Once tickets are sold, how many prizes there are and what each is worth are terms people bought on: only the
  -- wording may change, as for the first prize's.
  if p_tickets_sold and (select coalesce(array_agg(row(x.position, x.value, x.cash_alternative)::text order by x.position), '{}')
                           from public.competition_prizes x where x.competition_id = p_competition_id)
                        is distinct from
                        (select coalesce(array_agg(row(w.position, w.value, w.cash_alternative)::text order by w.position), '{}')
                           from unnest(wanted) w) then
    raise exception 'Tickets have been sold: only the wording of the prizes can change' using errcode = 'P0001', hint = 'edit_not_allowed';
  end if;
  delete from public.competition_prizes where competition_id = p_competition_id;
  insert into public.competition_prizes select * from unnest(wanted);
end;
$$;
comment on function private.competition_set_prizes(uuid,boolean,jsonb) is 'The competition form''s prizes after the first ([{description, value, cash_alternative?}], 2nd prize first, at most 9): checked and put in place of the old list; once tickets are sold only their wording may change.';
revoke all on function private.competition_set_prizes(uuid,boolean,jsonb) from public, anon, authenticated, service_role;

create type public.competition_prize as (
  prize_position integer,
  description text,
  value numeric(12,2),
  cash_alternative numeric(12,2),
  draw_id uuid,
  winning_number integer,
  winner_display_name text,
  winner_town text,
  prize_status public.prize_status,
  story jsonb
);
comment on type public.competition_prize is 'One prize of a competition, in order (the first is the competition''s own): what it is and, once drawn, its draw, winning ticket, winner as published, step and published story.';

create or replace function private.competition_prizes_of(p_competition_id uuid) returns public.competition_prize[]
language sql stable set search_path = '' as $$
  select array_agg(row(p.position, coalesce(d.prize_description, p.description), coalesce(d.prize_value, p.value),
                       case when d.id is null then p.cash_alternative else d.cash_alternative end, d.id,
                       d.winning_number, d.winner_display_name, d.winner_town, d.prize_status,
                       case when d.id is not null then private.winner_story_json(d.id) end)::public.competition_prize
                   order by p.position)
    from (select c.id as competition_id, 1 as position, c.prize_description as description, c.prize_value as value,
                 c.cash_alternative
            from public.competitions c where c.id = p_competition_id
          union all
          select x.competition_id, x.position, x.description, x.value, x.cash_alternative
            from public.competition_prizes x where x.competition_id = p_competition_id) p
    left join public.draws d on d.competition_id = p.competition_id and d.prize_position = p.position
$$;
comment on function private.competition_prizes_of(uuid) is 'Every prize of a competition in order, the first being its own, each with its draw once drawn (the prize as drawn).';
revoke all on function private.competition_prizes_of(uuid) from public, anon, authenticated, service_role;

create or replace function public.get_competition_prizes(p_slug text) returns setof public.competition_prize
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where slug = p_slug;
  perform private.require_visible_competition(c);
  return query select p.* from unnest(private.competition_prizes_of(c.id)) p;
end;
$$;
comment on function public.get_competition_prizes(text) is 'Public: a competition''s prizes in order (the first is its own prize), each with its winning ticket and winner as published once drawn. Drafts for admins only.';
revoke all on function public.get_competition_prizes(text) from public, anon, authenticated, service_role;
grant execute on function public.get_competition_prizes(text) to anon;
grant execute on function public.get_competition_prizes(text) to authenticated;
grant execute on function public.get_competition_prizes(text) to service_role;

create or replace function private.draw_pick(p_x bigint, p_ticket_count integer) returns integer
language sql immutable strict set search_path = '' as $$
  select case
    when p_x < 281474976710656 - (281474976710656 % p_ticket_count) then (p_x % p_ticket_count)::integer + 1
  end
$$;
comment on function private.draw_pick(bigint,integer) is 'Rejection sampling step of the draw: the winning number for a 48-bit value, or null when the value falls in the biased tail.';
revoke all on function private.draw_pick(bigint,integer) from public, anon, authenticated, service_role;

create or replace function private.draw_derive_prizes(
  p_seed bytea, p_competition_id uuid, p_ticket_list_hash bytea, p_external bytea, p_ticket_count integer,
  p_prizes integer
) returns table (prize_position integer, counter integer, winning_number integer)
language plpgsql immutable set search_path = '' as $$
declare
  prefix bytea;
  h bytea;
  picked integer;
  taken integer[] := '{}';
begin
  if p_ticket_count is null or p_ticket_count < 1 then
    raise exception 'A draw needs at least one ticket' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_prizes is null or p_prizes < 1 or p_prizes > p_ticket_count then
    raise exception 'A draw is for 1 to as many prizes as there are tickets' using errcode = '22023', hint = 'invalid_input';
  end if;
  if octet_length(p_seed) <> 32 or octet_length(p_ticket_list_hash) <> 32 then
    raise exception 'The seed and the ticket list hash must be 32 bytes each' using errcode = '22023', hint = 'invalid_input';
  end if;
  prefix := p_seed || decode(replace(p_competition_id::text, '-', ''), 'hex') || p_ticket_list_hash
    || coalesce(p_external, ''::bytea);
  counter := 0;
  prize_position := 0;
  -- One counter stream for every prize: each accepted row that no earlier prize took goes to the next prize, so
  -- the first prize is exactly the one-prize draw and no ticket wins twice.
  while prize_position < p_prizes loop
    h := extensions.digest(prefix || int4send(counter), 'sha256');
    picked := private.draw_pick(('x' || encode(substring(h from 1 for 6), 'hex'))::bit(48)::bigint, p_ticket_count);
    if picked is not null and not (picked = any (taken)) then
      taken := taken || picked;
      prize_position := prize_position + 1;
      winning_number := picked;
      return next;
    end if;
    counter := counter + 1;
  end loop;
end;
$$;
comment on function private.draw_derive_prizes(bytea,uuid,bytea,bytea,integer,integer) is 'The deterministic winners of p_prizes prizes, in order, with the counter that picked each: h(counter) as for one prize, each accepted row not already taken going to the next prize.';
revoke all on function private.draw_derive_prizes(bytea,uuid,bytea,bytea,integer,integer) from public, anon, authenticated, service_role;

create or replace function private.draw_derive(
  p_seed bytea, p_competition_id uuid, p_ticket_list_hash bytea, p_external bytea, p_ticket_count integer,
  out counter integer, out winning_number integer
)
language sql immutable set search_path = '' as $$
  select d.counter, d.winning_number
    from private.draw_derive_prizes(p_seed, p_competition_id, p_ticket_list_hash, p_external, p_ticket_count, 1) d
$$;
comment on function private.draw_derive(bytea,uuid,bytea,bytea,integer) is 'The deterministic winner of a one-prize draw (and the counter used) from the draw inputs: the first prize of draw_derive_prizes.';
revoke all on function private.draw_derive(bytea,uuid,bytea,bytea,integer) from public, anon, authenticated, service_role;

create or replace function private.draw_ticket_list_hash(p_competition_id uuid) returns bytea
language sql stable security definer set search_path = '' as $$
  select extensions.digest(
    convert_to(coalesce(string_agg(t.number::text || ':' || t.id::text || E'\n', '' order by t.number), ''), 'UTF8'),
    'sha256')
  from public.tickets t
  where t.competition_id = p_competition_id
$$;
comment on function private.draw_ticket_list_hash(uuid) is 'SHA-256 of the canonical ticket list of a competition ("number:ticket_id\n" lines in number order).';
revoke all on function private.draw_ticket_list_hash(uuid) from public, anon, authenticated, service_role;

create or replace function private.ordinal(p_n integer) returns text
language sql immutable strict set search_path = '' as $$
  select p_n || case when p_n % 100 between 11 and 13 then 'th'
                     when p_n % 10 = 1 then 'st' when p_n % 10 = 2 then 'nd' when p_n % 10 = 3 then 'rd'
                     else 'th' end
$$;
comment on function private.ordinal(integer) is 'A position in words for mail and the activity log: 1st, 2nd, 3rd, 4th, 11th, 21st.';
revoke all on function private.ordinal(integer) from public, anon, authenticated, service_role;

create or replace function private.draw_competition(p_id uuid, p_trigger text default 'draw_time') returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  the_seed bytea;
  list_hash bytea;
  ext bytea;
  ticket_total integer;
  numbers integer[];
  prize_count integer;
  result record;
  winner record;
  prize record;
  holder_name text;
  holder_town text;
  initials_only boolean;
  new_draw uuid;
  first_draw uuid;
  first_number integer;
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
  -- Every ticket's number in list order, read once: how many there are, and the number on each row a prize picks.
  select coalesce(array_agg(t.number order by t.number), '{}') into numbers
    from public.tickets t where t.competition_id = p_id;
  ticket_total := cardinality(numbers);
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
  -- Every prize, unless there are fewer tickets than prizes: then the last prizes are not won.
  prize_count := least(1 + (select count(*) from public.competition_prizes p where p.competition_id = p_id)::integer,
                       ticket_total);

  -- Each prize's row of the ticket list and the ticket on it. Recorded last prize first, so that the first prize's
  -- row, recorded last, finds every winner there already (private.notify_draw).
  for result in
    select x.prize_position, x.counter, x.winning_number as row_number, t.id as ticket_id, t.number, t.user_id,
           t.entry_id
      from private.draw_derive_prizes(the_seed, p_id, list_hash, ext, ticket_total, prize_count) x
      join public.tickets t on t.competition_id = p_id and t.number = numbers[x.winning_number]
     order by x.prize_position desc
  loop
    holder_name := null;
    holder_town := null;
    initials_only := false;
    if result.user_id is not null then
      select p.name, p.town, p.show_initials_only into holder_name, holder_town, initials_only
        from public.profiles p where p.id = result.user_id;
    end if;
    if holder_name is null then
      select pe.name into holder_name from public.postal_entries pe where pe.entry_id = result.entry_id;
    end if;
    if result.prize_position = 1 then
      select c.prize_description as description, c.prize_value as value, c.cash_alternative as cash into prize;
    else
      select p.description, p.value, p.cash_alternative as cash into prize
        from public.competition_prizes p where p.competition_id = p_id and p.position = result.prize_position;
    end if;

    insert into public.draws (competition_id, algorithm, trigger, ticket_count, ticket_list_hash, seed_commitment, seed_hex,
                              external_randomness, external_hex, counter, winning_position, winning_number, winning_ticket_id,
                              winner_user_id, winner_display_name, winner_town, prize_position, prize_description,
                              prize_value, cash_alternative)
    values (p_id, 'labcash-draw-v2', 'draw_time', ticket_total, encode(list_hash, 'hex'), c.seed_commitment,
            encode(the_seed, 'hex'), c.external_randomness, encode(ext, 'hex'), result.counter, result.row_number,
            result.number, result.ticket_id, result.user_id,
            private.public_name(holder_name, coalesce(initials_only, false)),
            case when coalesce(initials_only, false) then null else holder_town end,
            result.prize_position, prize.description, prize.value, prize.cash)
    returning id into new_draw;
    if result.prize_position = 1 then
      first_draw := new_draw;
      first_number := result.number;
    end if;

    if result.user_id is not null then
      perform private.queue_mail(result.user_id, 'competition_won', 'You won: ' || c.title,
        format(E'Congratulations! Your ticket #%s won %s.\n\nPrize: %s\n\n%s'
               'Claim your prize (choose how you want it and where it goes): %s/account/prizes\nYou can check the draw yourself: %s/winners/%s',
               result.number,
               case when prize_count = 1 then c.title
                    else 'the ' || private.ordinal(result.prize_position) || ' prize in ' || c.title end,
               prize.description,
               case when prize.cash is not null
                    then 'You may take ' || private.format_gbp(prize.cash) || E' cash instead: choose when you claim.\n\n'
                    else '' end,
               private.setting('site_url') #>> '{}', private.setting('site_url') #>> '{}', new_draw));
    end if;
  end loop;

  update public.competitions
     set status = 'drawn', closed_at = coalesce(closed_at, now()), updated_at = now()
   where id = p_id;

  perform private.log_activity('competition.drawn', p_id,
    jsonb_build_object('draw_id', first_draw, 'winning_number', first_number, 'prizes', prize_count,
                       'tickets', ticket_total, 'trigger', p_trigger));
  return first_draw;
end;
$$;
comment on function private.draw_competition(uuid,text) is 'Draws a competition once (row lock plus unique draws per competition and prize), and only at or after its draw time, over every online and postal ticket (labcash-draw-v2): each prize in turn from one counter stream, no ticket twice; reveals the seed in the draws rows and mails each winner; a competition with no tickets is closed without a winner. Answers the first prize''s draw.';
revoke all on function private.draw_competition(uuid,text) from public, anon, authenticated, service_role;

create type public.drawn_competition as (competition_id uuid, draw_id uuid);
comment on type public.drawn_competition is 'A competition the draw cron drew, and its draw.';

create type public.due_draws as (drawn public.drawn_competition[], closed uuid[]);
comment on type public.due_draws is 'What one run of the draw cron did: the competitions it drew and those it closed for want of tickets.';

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

create or replace function public.get_draw(p_draw_id uuid) returns jsonb
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
    'winning_position', d.winning_position,
    'winning_number', d.winning_number,
    'winning_ticket_id', d.winning_ticket_id,
    'winner_display_name', d.winner_display_name, 'winner_town', d.winner_town,
    'prize_position', d.prize_position,
    'prize_description', d.prize_description,
    'prize_value', d.prize_value,
    'prizes_offered', 1 + (select count(*) from public.competition_prizes p where p.competition_id = c.id),
    -- Every prize of the same draw, first prize first: each is recomputed from the same inputs.
    'prizes', (select jsonb_agg(jsonb_build_object(
                        'prize_position', x.prize_position, 'draw_id', x.id, 'counter', x.counter,
                        'winning_position', x.winning_position, 'winning_number', x.winning_number,
                        'winning_ticket_id', x.winning_ticket_id, 'winner_display_name', x.winner_display_name,
                        'winner_town', x.winner_town, 'prize_description', x.prize_description,
                        'prize_value', x.prize_value) order by x.prize_position)
                 from public.draws x where x.competition_id = d.competition_id),
    -- v1 embeds the ticket ids; v2 is checked against the ticket-list CSV, which may be millions of lines.
    'tickets', case when d.algorithm = 'labcash-draw-v1' then
                 (select coalesce(jsonb_agg(t.id order by t.number), '[]'::jsonb)
                    from public.tickets t where t.competition_id = c.id) end)
  from public.draws d
  join public.competitions c on c.id = d.competition_id
  where d.id = p_draw_id
$$;
comment on function public.get_draw(uuid) is 'Public: every input of one prize''s draw for the verification page and the revealed seed, the prize, how many prizes the competition offered, and every prize of the same draw (prizes: position, counter, winning row, number, ticket and winner, first prize first). v1: the ticket ids in number order (element i is ticket i + 1). v2: tickets is null (the ticket list is get_ticket_list_csv) and winning_position is the winning row. Null when there is no such draw.';
revoke all on function public.get_draw(uuid) from public, anon, authenticated, service_role;
grant execute on function public.get_draw(uuid) to anon;
grant execute on function public.get_draw(uuid) to authenticated;
grant execute on function public.get_draw(uuid) to service_role;
