-- ============================================================================
-- Instant wins: prizes fixed before sales open, numbers derived from the committed seed, awards at purchase and
-- their fulfilment.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

-- The prizes an admin attaches to a draft, in the order their winning numbers are assigned.
create table public.instant_win_prizes (
  id uuid primary key default gen_random_uuid(),
  competition_id uuid not null references public.competitions (id) on delete cascade,
  position integer not null check (position >= 1),
  kind public.instant_win_kind not null,
  title text not null check (char_length(title) between 1 and 120),
  credit_amount numeric(12, 2) check (credit_amount is null or (credit_amount > 0 and credit_amount <= 10000 and credit_amount = round(credit_amount, 2))),
  quantity integer not null check (quantity between 1 and 1000),
  created_at timestamptz not null default now(),
  unique (competition_id, position),
  constraint instant_win_prizes_credit_amount_for_credit_check check ((kind = 'credit') = (credit_amount is not null))
);
alter table public.instant_win_prizes enable row level security;
comment on table public.instant_win_prizes is 'Instant-win prizes of a competition (a credit amount, one wheel spin, or a physical prize), each with how many winning numbers it gets; set on a draft only, read through functions.';
revoke all on table public.instant_win_prizes from public, anon, authenticated, service_role;
grant all on table public.instant_win_prizes to service_role;

-- The secret winning numbers, derived from the competition seed at publish. Like competition_seeds:
-- RLS on, no policy, no grant to any API role (service_role included), so nobody can read them before
-- the draw reveals the seed; only the security-definer award and reveal functions do.
create table public.instant_win_numbers (
  competition_id uuid not null references public.competitions (id) on delete cascade,
  number integer not null check (number >= 1),
  prize_id uuid not null references public.instant_win_prizes (id) on delete cascade,
  slot integer not null check (slot >= 1),
  primary key (competition_id, number),
  unique (competition_id, slot)
);
alter table public.instant_win_numbers enable row level security;
comment on table public.instant_win_numbers is 'Secret instant-win numbers (labcash-instant-win-v1 from the seed at publish): unreadable by every API role until the draw reveals the seed; slot is the derivation order, which fixes the prize.';
revoke all on table public.instant_win_numbers from public, anon, authenticated, service_role;

create index instant_win_numbers_prize_id_idx on public.instant_win_numbers (prize_id);

-- Instant wins awarded: one per ticket (unique), written in the buying transaction.
create table public.instant_wins (
  id uuid primary key default gen_random_uuid(),
  competition_id uuid not null references public.competitions (id) on delete restrict,
  winning_number integer not null check (winning_number >= 1),
  ticket_number integer not null check (ticket_number >= 1),
  ticket_id uuid not null unique references public.tickets (id) on delete restrict,
  entry_id uuid not null references public.entries (id) on delete restrict,
  prize_id uuid not null references public.instant_win_prizes (id) on delete restrict,
  user_id uuid references auth.users (id) on delete set null,
  display_name text not null,
  status text not null check (status in ('awarded', 'awaiting_fulfilment', 'delivered')),
  delivered_at timestamptz,
  won_at timestamptz not null default now(),
  unique (competition_id, ticket_number),
  constraint instant_wins_delivered_when_dated_check check ((status = 'delivered') = (delivered_at is not null))
);

create index instant_wins_user_id_idx on public.instant_wins (user_id);
create index instant_wins_entry_id_idx on public.instant_wins (entry_id);
create index instant_wins_prize_id_idx on public.instant_wins (prize_id);
alter table public.instant_wins enable row level security;
comment on table public.instant_wins is 'Instant wins awarded, once per ticket (unique ticket and competition + number): credit and spins are awarded at once (awarded); physical prizes, and any prize of a postal entrant with no account, wait for an admin (awaiting_fulfilment -> delivered).';
revoke all on table public.instant_wins from public, anon, authenticated, service_role;
grant all on table public.instant_wins to service_role;

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

-- labcash-instant-win-v1, mirrored by lib/instant-wins/derive.ts (a unit test checks they agree):
-- for counter = 0, 1, …: h = HMAC-SHA256(key = seed, "instant-win:<competition id>:<counter>"),
-- x = first 6 bytes of h; the rejection step of the draw (private.draw_pick) turns x into a number
-- of 1..N or nothing; a number already chosen is skipped. The first p_count numbers, in that order,
-- are the winning numbers; the order is the slot that fixes the prize.
create or replace function private.instant_win_derive(p_seed bytea, p_competition_id uuid, p_ticket_count integer, p_count integer)
returns integer[]
language plpgsql immutable set search_path = '' as $$
declare
  chosen integer[] := '{}';
  counter integer := 0;
  candidate integer;
begin
  if p_ticket_count is null or p_count is null or p_count < 0 or p_count > p_ticket_count or octet_length(p_seed) <> 32 then
    raise exception 'Instant wins need a 32-byte seed and at most one winning number per ticket' using errcode = '22023', hint = 'invalid_input';
  end if;
  while cardinality(chosen) < p_count loop
    candidate := private.draw_pick(
      ('x' || encode(substring(extensions.hmac(convert_to('instant-win:' || p_competition_id::text || ':' || counter, 'UTF8'),
                                               p_seed, 'sha256') from 1 for 6), 'hex'))::bit(48)::bigint,
      p_ticket_count);
    if candidate is not null and not candidate = any (chosen) then
      chosen := chosen || candidate;
    end if;
    counter := counter + 1;
  end loop;
  return chosen;
end;
$$;
comment on function private.instant_win_derive(bytea,uuid,integer,integer) is 'labcash-instant-win-v1: the p_count distinct winning numbers of 1..p_ticket_count in slot order, from the seed (HMAC-SHA256 stream, rejection-sampled).';
revoke all on function private.instant_win_derive(bytea,uuid,integer,integer) from public, anon, authenticated, service_role;

-- The canonical text the commitment hashes. The seed is in it, so the short list of numbers cannot be
-- guessed from the commitment by trying every combination.
create or replace function private.instant_win_list_text(p_competition_id uuid, p_seed bytea, p_ticket_count integer)
returns text
language sql stable security definer set search_path = '' as $$
  select 'labcash-instant-win-v1' || E'\n' || 'competition:' || p_competition_id::text || E'\n'
      || 'seed:' || encode(p_seed, 'hex') || E'\n' || 'tickets:' || p_ticket_count || E'\n'
      || coalesce(string_agg(n.slot || ',' || n.number || ',' || p.position || E'\n', '' order by n.slot), '')
    from public.instant_win_numbers n
    join public.instant_win_prizes p on p.id = n.prize_id
   where n.competition_id = p_competition_id
$$;
comment on function private.instant_win_list_text(uuid,bytea,integer) is 'The canonical instant-win list: a header (algorithm, competition, seed, N) and "slot,number,prize position" lines in slot order.';
revoke all on function private.instant_win_list_text(uuid,bytea,integer) from public, anon, authenticated, service_role;

-- Called by admin_publish_competition with the new seed: the code-of-practice share, the derivation,
-- the secret numbers and the commitment (null when the competition has no instant wins).
create or replace function private.instant_win_publish(c public.competitions, p_seed bytea) returns text
language plpgsql security definer set search_path = '' as $$
declare
  prize_total integer;
  numbers integer[];
  live_total integer;
  live_instant integer;
  max_percent integer := least(coalesce((private.setting('instant_win_max_live_percent') #>> '{}')::integer, 50), 50);
begin
  select coalesce(sum(p.quantity), 0) into prize_total from public.instant_win_prizes p where p.competition_id = c.id;
  if prize_total = 0 then
    return null;
  end if;
  if prize_total > c.total_tickets then
    raise exception 'There are % instant wins but only % tickets', prize_total, c.total_tickets
      using errcode = '22023', hint = 'instant_wins_exceed_tickets';
  end if;
  -- Publishes queue here, so two at once cannot both pass the share check.
  perform pg_advisory_xact_lock(hashtextextended('labcash:instant-win-publish', 0));
  select count(*) filter (where x.instant_win_commitment is not null), count(*) into live_instant, live_total
    from public.competitions x where x.status = 'live' and x.id <> c.id;
  if (live_instant + 1) * 100 > max_percent * (live_total + 1) then
    raise exception 'Instant-win competitions may be at most % of live ones: with this one % of % would be. Publish another competition first',
      max_percent || '%', live_instant + 1, live_total + 1
      using errcode = 'P0001', hint = 'instant_win_majority';
  end if;
  numbers := private.instant_win_derive(p_seed, c.id, c.total_tickets, prize_total);
  insert into public.instant_win_numbers (competition_id, number, prize_id, slot)
  select c.id, numbers[s.slot], s.prize_id, s.slot
    from (select p.id as prize_id,
                 row_number() over (order by p.position, g.i)::integer as slot
            from public.instant_win_prizes p
            cross join lateral generate_series(1, p.quantity) g (i)
           where p.competition_id = c.id) s;
  return encode(extensions.digest(convert_to(private.instant_win_list_text(c.id, p_seed, c.total_tickets), 'UTF8'), 'sha256'), 'hex');
end;
$$;
comment on function private.instant_win_publish(public.competitions,bytea) is 'At publish: refuses more instant wins than tickets and an instant-win majority of live competitions (setting instant_win_max_live_percent, at most 50), derives and stores the secret winning numbers, returns their commitment (null without instant wins).';
revoke all on function private.instant_win_publish(public.competitions,bytea) from public, anon, authenticated, service_role;

create type public.instant_win_number as (slot integer, number integer, prize_position integer);
comment on type public.instant_win_number is 'One winning number, revealed after the draw: its slot in the derivation and the prize it carries.';

create type public.instant_win as (ticket_number integer, winning_number integer, prize_position integer, prize text, display_name text, ticket_id uuid, won_at timestamp with time zone);
comment on type public.instant_win is 'One instant win so far: the ticket, the winning number it matched, the prize and the winner''s public name.';

create type public.instant_win_prize as (position integer, kind public.instant_win_kind, title text, credit_amount numeric(12,2), quantity integer, won bigint);
comment on type public.instant_win_prize is 'One instant-win prize of a competition, in the order its numbers are dealt: its kind, title, credit amount (credit only), how many and how many are won.';

create type public.competition_instant_wins as (commitment text, algorithm text, ticket_count integer, prizes public.instant_win_prize[], wins public.instant_win[], seed_hex text, numbers public.instant_win_number[]);
comment on type public.competition_instant_wins is 'A competition''s instant wins: the commitment, algorithm and ticket count, the prizes, the wins so far, and after the draw the seed and every winning number (null before).';

create or replace function public.admin_set_instant_win_prizes(p_competition_id uuid, p_prizes jsonb) returns public.competition_instant_wins
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  prize jsonb;
  pos integer := 0;
  prize_total integer := 0;
begin
  perform private.require_admin();
  select * into c from public.competitions where id = p_competition_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if c.status <> 'draft' then
    raise exception 'Instant wins are fixed once a competition is published' using errcode = 'P0001', hint = 'instant_wins_locked';
  end if;
  if p_prizes is null or jsonb_typeof(p_prizes) <> 'array' or jsonb_array_length(p_prizes) > 20 then
    raise exception 'Instant wins must be a list of at most 20 prizes' using errcode = '22023', hint = 'invalid_input';
  end if;
  delete from public.instant_win_prizes where competition_id = c.id;
  for prize in select value from jsonb_array_elements(p_prizes) loop
    pos := pos + 1;
    if jsonb_typeof(prize) <> 'object' or coalesce(prize ->> 'kind', '') not in ('credit', 'spin', 'physical')
       or jsonb_typeof(prize -> 'quantity') is distinct from 'number'
       or (prize ->> 'kind' = 'credit') <> (jsonb_typeof(prize -> 'credit_amount') is not distinct from 'number') then
      raise exception 'Instant win % needs a kind (credit, spin or physical), a count, and an amount for credit', pos
        using errcode = '22023', hint = 'invalid_input', detail = 'instant_wins';
    end if;
    begin
      insert into public.instant_win_prizes (competition_id, position, kind, title, credit_amount, quantity)
      values (c.id, pos, (prize ->> 'kind')::public.instant_win_kind,
              coalesce(nullif(btrim(prize ->> 'title'), ''),
                       case prize ->> 'kind'
                         when 'credit' then private.format_gbp((prize ->> 'credit_amount')::numeric) || ' credit'
                         when 'spin' then 'A LabSpinner spin' end),
              (prize ->> 'credit_amount')::numeric, (prize ->> 'quantity')::numeric);
    exception when check_violation or not_null_violation or numeric_value_out_of_range or invalid_text_representation then
      raise exception 'Instant win %: a title of 1 to 120 characters, a count from 1 to 1,000, credit from £0.01 to £10,000 in pence', pos
        using errcode = '22023', hint = 'invalid_input', detail = 'instant_wins';
    end;
    prize_total := prize_total + (prize ->> 'quantity')::integer;
  end loop;
  if prize_total > c.total_tickets then
    raise exception 'There are % instant wins but only % tickets', prize_total, c.total_tickets
      using errcode = '22023', hint = 'instant_wins_exceed_tickets';
  end if;
  perform private.log_activity('competition.instant_wins_set', c.id, jsonb_build_object('prizes', pos, 'instant_wins', prize_total));
  return private.instant_wins_row(c.id, true);
end;
$$;
comment on function public.admin_set_instant_win_prizes(uuid,jsonb) is 'Admins: replaces a draft''s instant-win prizes with p_prizes [{kind: credit | spin | physical, title?, credit_amount (credit only), quantity}], in the order their numbers are assigned. Refused once published (instant_wins_locked) or when the count exceeds the tickets (instant_wins_exceed_tickets).';
revoke all on function public.admin_set_instant_win_prizes(uuid,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_set_instant_win_prizes(uuid,jsonb) to authenticated;
grant execute on function public.admin_set_instant_win_prizes(uuid,jsonb) to service_role;

-- Everything public about a competition's instant wins. The numbers and seed appear only once the draw
-- has revealed the seed (draws.seed_hex); until then only the prizes, the wins so far and the commitment.
create or replace function private.instant_wins_row(p_competition_id uuid, p_admin boolean default false) returns public.competition_instant_wins
language sql stable security definer set search_path = '' as $$
  select c.instant_win_commitment,
         'labcash-instant-win-v1',
         c.total_tickets,
         coalesce((select array_agg(row(p.position, p.kind, p.title, p.credit_amount, p.quantity,
                                        (select count(*) from public.instant_wins w where w.prize_id = p.id)
                                    )::public.instant_win_prize order by p.position)
                     from public.instant_win_prizes p where p.competition_id = c.id), '{}'),
         coalesce((select array_agg(row(w.ticket_number, w.winning_number, p.position, p.title, w.display_name,
                                        w.ticket_id, w.won_at)::public.instant_win
                                    order by w.won_at, w.ticket_number)
                     from public.instant_wins w join public.instant_win_prizes p on p.id = w.prize_id
                    where w.competition_id = c.id), '{}'),
         d.seed_hex,
         case when d.seed_hex is not null then
           (select coalesce(array_agg(row(n.slot, n.number, p.position)::public.instant_win_number order by n.slot), '{}')
              from public.instant_win_numbers n join public.instant_win_prizes p on p.id = n.prize_id
             where n.competition_id = c.id) end
  from public.competitions c
  left join public.draws d on d.competition_id = c.id and d.prize_position = 1
  where c.id = p_competition_id and (p_admin or c.status <> 'draft')
$$;
comment on function private.instant_wins_row(uuid,boolean) is 'A competition''s instant wins: commitment, prizes (with how many are won), wins so far (ticket, prize, public name), and after the draw the seed and every winning number. Drafts only for admins; null otherwise.';
revoke all on function private.instant_wins_row(uuid,boolean) from public, anon, authenticated, service_role;

create or replace function public.get_instant_wins(p_slug text) returns jsonb
language sql stable security definer set search_path = '' as $$
  -- jsonb, not the declared type: a composite function answers an object of nulls where this answers null.
  select to_jsonb(private.instant_wins_row(c.id, public.is_admin())) from public.competitions c where c.slug = p_slug
$$;
comment on function public.get_instant_wins(text) is 'Public: a published competition''s instant wins (prizes, wins so far, commitment; the numbers and seed after the draw). Admins: drafts too. Null for an unknown slug.';
revoke all on function public.get_instant_wins(text) from public, anon, authenticated, service_role;
grant execute on function public.get_instant_wins(text) to anon;
grant execute on function public.get_instant_wins(text) to authenticated;
grant execute on function public.get_instant_wins(text) to service_role;

-- Called once per entry (paid or postal) after its tickets are in, in the same transaction. Reads the
-- entry's tickets (whatever numbers they have); a ticket wins when its number is a winning number, or,
-- for a postal ticket numbered after the online pool, when its place in the postal numbering (number - N)
-- is: the free route's equal chance. instant_wins is unique per ticket and per competition + number,
-- so a prize is never awarded twice.
create or replace function private.award_instant_wins(p_entry_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  w record;
  won jsonb := '[]'::jsonb;
  win_id uuid;
  holder_name text;
  initials_only boolean;
  is_postal boolean;
  site text := private.setting('site_url') #>> '{}';
begin
  select cc.* into c from public.entries e join public.competitions cc on cc.id = e.competition_id where e.id = p_entry_id;
  if c.instant_win_commitment is null then
    return won;
  end if;
  for w in
    select t.id as ticket_id, t.number as ticket_number, t.user_id, t.entry_id, n.number as winning_number,
           p.id as prize_id, p.kind, p.title, p.credit_amount
      from public.tickets t
      join public.instant_win_numbers n
        on n.competition_id = t.competition_id
       and n.number = case when t.number > c.total_tickets then t.number - c.total_tickets else t.number end
      join public.instant_win_prizes p on p.id = n.prize_id
     where t.entry_id = p_entry_id
     order by t.number
  loop
    holder_name := null;
    initials_only := false;
    select exists (select 1 from public.entries e where e.id = w.entry_id and e.kind = 'postal') into is_postal;
    if w.user_id is not null then
      select pr.name, pr.show_initials_only into holder_name, initials_only from public.profiles pr where pr.id = w.user_id;
    end if;
    insert into public.instant_wins (competition_id, winning_number, ticket_number, ticket_id, entry_id, prize_id, user_id,
                                     display_name, status)
    values (c.id, w.winning_number, w.ticket_number, w.ticket_id, w.entry_id, w.prize_id, w.user_id,
            case when is_postal and w.user_id is null then 'Postal entry'
                 else private.public_name(holder_name, coalesce(initials_only, false)) end,
            case when w.kind = 'physical' or w.user_id is null then 'awaiting_fulfilment' else 'awarded' end)
    on conflict do nothing
    returning id into win_id;
    continue when win_id is null;
    if w.user_id is not null then
      if w.kind = 'credit' then
        perform private.post_ledger(w.user_id, 'instant_win', w.credit_amount,
          format('Instant win: %s, ticket #%s', c.title, w.ticket_number), 'instant_win:' || win_id);
      elsif w.kind = 'spin' then
        insert into public.spinner_grants (user_id, reference) values (w.user_id, 'instant_win:' || win_id);
      end if;
      perform private.queue_mail(w.user_id, 'instant_win', 'Instant win: ' || c.title,
        format(E'Congratulations! Ticket #%s in %s is an instant winner.\n\nPrize: %s\n%s\n\n'
               'The winning numbers were fixed from the draw seed when the competition was published (commitment %s); '
               'after the draw you can check every instant win at %s/competitions/%s',
               w.ticket_number, c.title, w.title,
               case w.kind when 'credit' then 'It is in your credit now.'
                           when 'spin' then E'A LabSpinner spin credit is in your account: ' || site || '/labspinner'
                           else 'We will be in touch to arrange delivery.' end,
               c.instant_win_commitment, site, c.slug));
      perform private.notify(w.user_id, 'prize', 'instant_win:' || win_id, 'Instant win: ' || c.title,
        format('Ticket #%s won %s.', w.ticket_number, w.title), '/competitions/' || c.slug);
    end if;
    perform private.log_activity('competition.instant_win', c.id,
      jsonb_build_object('instant_win_id', win_id, 'ticket_number', w.ticket_number, 'kind', w.kind, 'user_id', w.user_id));
    won := won || jsonb_build_object('ticket_number', w.ticket_number, 'kind', w.kind, 'prize', w.title,
                                     'credit_amount', w.credit_amount);
  end loop;
  return won;
end;
$$;
comment on function private.award_instant_wins(uuid) is 'Awards the instant wins of one entry''s tickets in the buying transaction, once each (unique per ticket and number): credit through post_ledger (kind instant_win), a spin as a spinner grant, a physical prize (or any prize of a postal entrant without an account) awaiting fulfilment; mails and notifies the winner; returns [{ticket_number, kind, prize, credit_amount}].';
revoke all on function private.award_instant_wins(uuid) from public, anon, authenticated, service_role;

create type public.instant_win_to_deliver as (id uuid, competition_title text, slug text, prize text, kind public.instant_win_kind, ticket_number integer, display_name text, user_id uuid, email text, postal_name text, postal_address text, status text, won_at timestamp with time zone, delivered_at timestamp with time zone);
comment on type public.instant_win_to_deliver is 'An instant win an admin delivers by hand: the competition, the prize and its kind, the ticket, who won it with their e-mail or the letter''s name and address, its status and dates.';

create or replace function public.admin_list_instant_win_fulfilment() returns setof public.instant_win_to_deliver
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return query
    select w.id, c.title, c.slug, p.title, p.kind, w.ticket_number, w.display_name, w.user_id, u.email::text, pe.name,
           pe.address, w.status, w.won_at, w.delivered_at
      from public.instant_wins w
      join public.competitions c on c.id = w.competition_id
      join public.instant_win_prizes p on p.id = w.prize_id
      left join auth.users u on u.id = w.user_id
      left join public.postal_entries pe on pe.entry_id = w.entry_id
     where w.status <> 'awarded'
     order by w.won_at desc;
end;
$$;
comment on function public.admin_list_instant_win_fulfilment() is 'Admins: instant wins an admin must deliver (physical prizes, postal entrants without an account), newest first, with the e-mail or the letter''s name and address.';
revoke all on function public.admin_list_instant_win_fulfilment() from public, anon, authenticated, service_role;
grant execute on function public.admin_list_instant_win_fulfilment() to authenticated;
grant execute on function public.admin_list_instant_win_fulfilment() to service_role;

create type public.instant_win_delivered as (id uuid, status text, delivered_at timestamp with time zone);
comment on type public.instant_win_delivered is 'An instant win marked delivered: its id, status and when.';

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
