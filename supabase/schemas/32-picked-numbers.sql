-- ============================================================================
-- Picked numbers: on a pick competition a purchase names its numbers (or takes a lucky dip); a basket holds
-- chosen numbers for ticket_hold_time(). Numbers are taken in the counter queue, one purchase at a time, and
-- the unique (competition_id, number) on tickets is the last word.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create table public.ticket_holds (
  competition_id uuid not null references public.competitions (id) on delete cascade,
  number integer not null check (number >= 1),
  user_id uuid not null references auth.users (id) on delete cascade,
  expires_at timestamptz not null,
  primary key (competition_id, number)
);
alter table public.ticket_holds enable row level security;
comment on table public.ticket_holds is 'Numbers in players'' baskets on pick competitions, one holder per number; an expired row blocks nobody (taken over or deleted). Written and read through functions only.';
revoke all on table public.ticket_holds from public, anon, authenticated, service_role;
grant all on table public.ticket_holds to service_role;

create index ticket_holds_user_idx on public.ticket_holds (user_id, competition_id);

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.ticket_hold_time() returns interval
language sql immutable set search_path = '' as $$
  select interval '10 minutes'
$$;
comment on function private.ticket_hold_time() is 'How long a basket holds chosen numbers after its last change: long enough to top up and answer the question, short enough that an abandoned basket frees its numbers soon.';
revoke all on function private.ticket_hold_time() from public, anon, authenticated, service_role;

create or replace function private.random_ticket_number(p_total integer) returns integer
language sql set search_path = '' as $$
  -- 48 random bits from the CSPRNG (never random()): the modulo bias is below 2^-28 for a million tickets.
  select (('x' || encode(extensions.gen_random_bytes(6), 'hex'))::bit(48)::bigint % p_total)::integer + 1
$$;
comment on function private.random_ticket_number(integer) is 'A uniformly random number from 1 to p_total, from the database''s CSPRNG.';
revoke all on function private.random_ticket_number(integer) from public, anon, authenticated, service_role;

create or replace function private.check_chosen_numbers(c public.competitions, p_numbers integer[]) returns void
language plpgsql immutable set search_path = '' as $$
declare
  bad integer;
begin
  if p_numbers is null then
    return;
  end if;
  if c.ticket_numbering <> 'pick' then
    raise exception 'This competition numbers tickets in order: choose how many, not which' using errcode = '22023', hint = 'invalid_input';
  end if;
  if array_position(p_numbers, null) is not null then
    raise exception 'Choose ticket numbers from 1 to %', c.total_tickets using errcode = '22023', hint = 'invalid_input';
  end if;
  select n into bad from unnest(p_numbers) n where n not between 1 and c.total_tickets order by n limit 1;
  if found then
    raise exception 'There is no ticket #%: numbers run from 1 to %', bad, c.total_tickets using errcode = '22023', hint = 'invalid_input';
  end if;
  select n into bad from unnest(p_numbers) n group by n having count(*) > 1 order by n limit 1;
  if found then
    raise exception 'You chose #% more than once', bad using errcode = '22023', hint = 'invalid_input';
  end if;
end;
$$;
comment on function private.check_chosen_numbers(public.competitions,integer[]) is 'Refuses chosen numbers (invalid_input) on an in-order competition, outside 1..total_tickets, or repeated; null (none chosen) passes.';
revoke all on function private.check_chosen_numbers(public.competitions,integer[]) from public, anon, authenticated, service_role;

create or replace function private.lucky_dip_numbers(c public.competitions, p_user uuid, p_count integer, p_except integer[] default '{}')
returns integer[]
language plpgsql set search_path = '' as $$
declare
  picked integer[] := '{}';
  need integer;
  start_at integer;
  scanned integer := 0;
  window_size constant integer := 10000;
begin
  -- Random probes first: two index look-ups each, so cheap while many numbers are free.
  for attempt in 1..8 loop
    need := p_count - cardinality(picked);
    exit when need = 0;
    picked := picked || array(
      select r.n from (select private.random_ticket_number(c.total_tickets) as n, i
                         from generate_series(1, need * 4 + 16) i) r
       where not r.n = any (picked || p_except)
         and not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number = r.n)
         and not exists (select 1 from public.ticket_holds h
                          where h.competition_id = c.id and h.number = r.n and h.expires_at > now() and h.user_id <> p_user)
       group by r.n order by min(r.i) limit need);
  end loop;
  -- Nearly sold out: walk the numbers from a random start (wrapping) in windows, so a lucky dip
  -- finds the last free numbers without listing a million of them at once.
  start_at := private.random_ticket_number(c.total_tickets) - 1;
  while cardinality(picked) < p_count and scanned < c.total_tickets loop
    need := p_count - cardinality(picked);
    picked := picked || array(
      select w.n from (select (start_at + i) % c.total_tickets + 1 as n, i
                         from generate_series(scanned, least(scanned + window_size, c.total_tickets) - 1) i) w
       where not w.n = any (picked || p_except)
         and not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number = w.n)
         and not exists (select 1 from public.ticket_holds h
                          where h.competition_id = c.id and h.number = w.n and h.expires_at > now() and h.user_id <> p_user)
       order by w.i limit need);
    scanned := scanned + window_size;
  end loop;
  return array(select n from unnest(picked) n order by n);
end;
$$;
comment on function private.lucky_dip_numbers(public.competitions,uuid,integer,integer[]) is 'Up to p_count random numbers of a competition that are unsold and not in another player''s unexpired basket (nor in p_except), ascending: random probes, then a windowed walk from a random start when few are free. Fewer only when fewer are free.';
revoke all on function private.lucky_dip_numbers(public.competitions,uuid,integer,integer[]) from public, anon, authenticated, service_role;

create or replace function private.take_ticket_numbers(c public.competitions, p_user uuid, p_quantity integer, p_numbers integer[])
returns integer[]
language plpgsql set search_path = '' as $$
declare
  numbers integer[];
  taken integer;
begin
  -- In order: the counter's new value numbers the purchase (c is the row the counter update returned).
  if c.ticket_numbering = 'in_order' then
    return array(select generate_series(c.tickets_sold - p_quantity + 1, c.tickets_sold));
  end if;
  if p_numbers is null then
    numbers := private.lucky_dip_numbers(c, p_user, p_quantity);
    if cardinality(numbers) < p_quantity then
      raise exception 'Only % numbers are free just now: the others are in players'' baskets for a few minutes', cardinality(numbers)
        using errcode = 'P0001', hint = 'not_enough_tickets';
    end if;
  else
    select n into taken from unnest(p_numbers) n
     where exists (select 1 from public.tickets t where t.competition_id = c.id and t.number = n) order by n limit 1;
    if found then
      raise exception '#% was just taken', taken using errcode = 'P0001', hint = 'number_taken';
    end if;
    select n into taken from unnest(p_numbers) n
     where exists (select 1 from public.ticket_holds h
                    where h.competition_id = c.id and h.number = n and h.expires_at > now() and h.user_id <> p_user)
     order by n limit 1;
    if found then
      raise exception '#% is in another player''s basket for a few minutes', taken using errcode = 'P0001', hint = 'number_taken';
    end if;
    numbers := array(select n from unnest(p_numbers) n order by n);
  end if;
  -- Bought numbers leave every basket; the buyer's expired holds go too.
  delete from public.ticket_holds h
   where h.competition_id = c.id and (h.number = any (numbers) or (h.user_id = p_user and h.expires_at <= now()));
  return numbers;
end;
$$;
comment on function private.take_ticket_numbers(public.competitions,uuid,integer,integer[]) is 'The numbers a purchase gets, ascending, called in the counter queue after the counter update (c is the updated row): in order, the last p_quantity of tickets_sold; on a pick competition the chosen p_numbers (refused as number_taken when sold or in another player''s basket) or a lucky dip. Releases those numbers from baskets.';
revoke all on function private.take_ticket_numbers(public.competitions,uuid,integer,integer[]) from public, anon, authenticated, service_role;

create type public.ticket_number_page as (sold integer[], held integer[], mine integer[], mine_expires_at timestamp with time zone, owned integer[]);
comment on type public.ticket_number_page is 'A page of a pick competition''s number grid (get_ticket_numbers): the numbers sold and held by others in the range, the caller''s own basket (all of it) with when it expires, and the caller''s own tickets in the range (also in sold).';

create or replace function private.ticket_number_page(c public.competitions, p_user uuid, p_from integer, p_to integer)
returns public.ticket_number_page
language plpgsql stable set search_path = '' as $$
declare
  lo integer := greatest(coalesce(p_from, 1), 1);
  hi integer := least(coalesce(p_to, p_from + 99), c.total_tickets);
begin
  if hi < lo or hi - lo >= 1000 then
    raise exception 'Ask for at most 1,000 numbers at a time, from 1 to %', c.total_tickets using errcode = '22023', hint = 'invalid_input';
  end if;
  return row(
    array(select t.number from public.tickets t
           where t.competition_id = c.id and t.number between lo and hi order by t.number),
    array(select h.number from public.ticket_holds h
           where h.competition_id = c.id and h.number between lo and hi and h.expires_at > now()
             and h.user_id is distinct from p_user
             and not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number = h.number)
           order by h.number),
    array(select h.number from public.ticket_holds h
           where h.competition_id = c.id and h.user_id = p_user and h.expires_at > now()
             and not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number = h.number)
           order by h.number),
    (select min(h.expires_at) from public.ticket_holds h
      where h.competition_id = c.id and h.user_id = p_user and h.expires_at > now()),
    -- The caller's own tickets, so the grid marks them apart from other players' (tickets_holder_idx).
    array(select t.number from public.tickets t
           where t.competition_id = c.id and t.user_id = p_user and t.number between lo and hi order by t.number))::public.ticket_number_page;
end;
$$;
comment on function private.ticket_number_page(public.competitions,uuid,integer,integer) is 'Numbers p_from..p_to (at most 1,000) of a competition: sold, held by others, p_user''s whole basket with its expiry, and p_user''s own tickets in the range.';
revoke all on function private.ticket_number_page(public.competitions,uuid,integer,integer) from public, anon, authenticated, service_role;

create or replace function public.get_ticket_numbers(p_competition_id uuid, p_from integer, p_to integer)
returns public.ticket_number_page
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where id = p_competition_id;
  perform private.require_visible_competition(c);
  -- auth.uid() is null for visitors: they see no basket. Only numbers, never who holds them.
  return private.ticket_number_page(c, auth.uid(), p_from, p_to);
end;
$$;
comment on function public.get_ticket_numbers(uuid,integer,integer) is 'Anyone: a page of a competition''s number grid (numbers p_from..p_to, at most 1,000): sold, held in others'' baskets, and the caller''s own basket with its expiry (signed in).';
revoke all on function public.get_ticket_numbers(uuid,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.get_ticket_numbers(uuid,integer,integer) to anon;
grant execute on function public.get_ticket_numbers(uuid,integer,integer) to authenticated;
grant execute on function public.get_ticket_numbers(uuid,integer,integer) to service_role;

create or replace function public.hold_ticket_numbers(p_competition_id uuid, p_numbers integer[], p_lucky_dip integer default 0,
                                                      p_from integer default 1, p_to integer default 100)
returns public.ticket_number_page
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  block jsonb;
  basket integer[] := coalesce(p_numbers, '{}');
  owned integer;
  taken integer;
  dip integer[];
begin
  -- Lock order as entering: the gate, then the account (which queues this player's basket changes and purchases,
  -- so the cap below is exact).
  perform private.share_competition_gate(p_competition_id);
  select * into acct from public.user_account_data a where a.id = uid for update;
  perform private.require_approved(acct, 'enter competitions');
  -- A player on a break or excluded could not buy the numbers, so may not keep them from others either.
  block := private.play_block(uid);
  if block is not null then
    perform private.raise_refusal(block ->> 'code', block ->> 'message');
  end if;
  select * into c from public.competitions where id = p_competition_id;
  perform private.refuse_unless_open_for_entry(c);
  if c.ticket_numbering <> 'pick' then
    raise exception 'This competition numbers tickets in order: choose how many, not which' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.check_chosen_numbers(c, basket);
  if p_lucky_dip is null or p_lucky_dip not between 0 and c.max_tickets_per_user then
    raise exception 'A lucky dip is from 1 to % numbers', c.max_tickets_per_user using errcode = '22023', hint = 'invalid_input';
  end if;
  -- A basket counts against the per-person cap, so nobody can block more numbers than they could buy.
  select count(*) into owned from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  if owned + cardinality(basket) + p_lucky_dip > c.max_tickets_per_user then
    raise exception 'You can hold at most % more numbers for this competition', greatest(c.max_tickets_per_user - owned, 0)
      using errcode = 'P0001', hint = 'cap_exceeded';
  end if;
  select n into taken from unnest(basket) n
   where exists (select 1 from public.tickets t where t.competition_id = c.id and t.number = n) order by n limit 1;
  if found then
    raise exception '#% was just taken', taken using errcode = 'P0001', hint = 'number_taken';
  end if;

  -- The basket becomes exactly what was sent (its clock restarts); another player's unexpired hold wins.
  delete from public.ticket_holds h where h.competition_id = c.id and h.user_id = uid and not h.number = any (basket);
  with held as (
    insert into public.ticket_holds (competition_id, number, user_id, expires_at)
    select c.id, n, uid, now() + private.ticket_hold_time() from unnest(basket) n order by n
    on conflict (competition_id, number) do update set user_id = excluded.user_id, expires_at = excluded.expires_at
     where public.ticket_holds.user_id = excluded.user_id or public.ticket_holds.expires_at <= now()
    returning number)
  select n into taken from unnest(basket) n where not n in (select number from held) order by n limit 1;
  if found then
    raise exception '#% is in another player''s basket for a few minutes', taken using errcode = 'P0001', hint = 'number_taken';
  end if;

  -- A lucky dip adds free numbers; one another player holds first is skipped and another drawn.
  for attempt in 1..5 loop
    exit when p_lucky_dip = 0 or cardinality(basket) - coalesce(cardinality(p_numbers), 0) >= p_lucky_dip;
    dip := private.lucky_dip_numbers(c, uid, p_lucky_dip - (cardinality(basket) - coalesce(cardinality(p_numbers), 0)), basket);
    if cardinality(dip) = 0 then
      exit;
    end if;
    with held as (
      insert into public.ticket_holds (competition_id, number, user_id, expires_at)
      select c.id, n, uid, now() + private.ticket_hold_time() from unnest(dip) n order by n
      on conflict (competition_id, number) do update set user_id = excluded.user_id, expires_at = excluded.expires_at
       where public.ticket_holds.expires_at <= now()
      returning number)
    select basket || coalesce(array_agg(number), '{}') into basket from held;
  end loop;
  if p_lucky_dip > 0 and cardinality(basket) - coalesce(cardinality(p_numbers), 0) < p_lucky_dip then
    raise exception 'Not enough free numbers left for that lucky dip' using errcode = 'P0001', hint = 'not_enough_tickets';
  end if;
  return private.ticket_number_page(c, uid, p_from, p_to);
end;
$$;
comment on function public.hold_ticket_numbers(uuid,integer[],integer,integer,integer) is 'Signed-in, approved players free to play (no break, exclusion or closure) on an open pick competition: sets their basket to p_numbers plus a lucky dip of p_lucky_dip free numbers, held for ticket_hold_time() from now, within the per-person cap (tickets owned plus basket). Refuses numbers sold or in another''s unexpired basket (number_taken), out of range or repeated (invalid_input); returns the grid page p_from..p_to.';
revoke all on function public.hold_ticket_numbers(uuid,integer[],integer,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.hold_ticket_numbers(uuid,integer[],integer,integer,integer) to authenticated;
grant execute on function public.hold_ticket_numbers(uuid,integer[],integer,integer,integer) to service_role;
