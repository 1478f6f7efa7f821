-- ============================================================================
-- Competitions and tickets: competitions, entries (paid and postal), tickets,
-- and every rule about entering and running a competition. The app calls these
-- functions through supabase.rpc() and never touches the tables. The draw, and
-- the secret seed made when a competition is published, are in the draws
-- migration that follows.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables
-- ----------------------------------------------------------------------------
create table public.competitions (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 80),
  title text not null check (char_length(title) between 3 and 120),
  summary text not null default '' check (char_length(summary) <= 300),
  description text not null default '' check (char_length(description) <= 5000),
  prize_description text not null check (char_length(prize_description) between 1 and 2000),
  prize_value numeric(12, 2) not null check (prize_value >= 0),
  images text[] not null default '{}' check (cardinality(images) <= 10),
  ticket_price numeric(12, 2) not null check (ticket_price >= 0.25),
  total_tickets integer not null check (total_tickets between 1 and 1000000),
  max_tickets_per_user integer not null check (max_tickets_per_user >= 1),
  tickets_sold integer not null default 0 check (tickets_sold >= 0),
  opens_at timestamptz not null default now(),
  closes_at timestamptz not null,
  skill_question text check (char_length(skill_question) <= 300),
  skill_options text[],
  skill_answer text,
  status text not null default 'draft'
    check (status in ('draft', 'live', 'sold_out', 'closed', 'drawn', 'cancelled')),
  seed_commitment text check (seed_commitment ~ '^[0-9a-f]{64}$'),
  external_randomness jsonb,
  published_at timestamptz,
  closed_at timestamptz,
  cancelled_at timestamptz,
  cancel_reason text,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (closes_at > opens_at),
  check (max_tickets_per_user <= total_tickets),
  check (tickets_sold <= total_tickets),
  check (
    (skill_question is null and skill_options is null and skill_answer is null)
    or (skill_question is not null and cardinality(skill_options) between 2 and 6 and skill_answer = any (skill_options))),
  check (status = 'draft' or seed_commitment is not null)
);
alter table public.competitions enable row level security;
create index competitions_status_idx on public.competitions (status, closes_at);
create index competitions_created_by_idx on public.competitions (created_by);
comment on table public.competitions is 'Prize competitions. status: draft -> live -> sold_out / closed -> drawn, or cancelled. skill_answer is never readable by API roles; seed_commitment is the SHA-256 of the secret draw seed.';

create table public.entries (
  id uuid primary key default gen_random_uuid(),
  competition_id uuid not null references public.competitions (id) on delete restrict,
  user_id uuid references auth.users (id) on delete set null,
  kind text not null check (kind in ('paid', 'postal')),
  quantity integer not null check (quantity >= 1),
  unit_price numeric(12, 2) not null check (unit_price >= 0),
  amount numeric(12, 2) not null check (amount >= 0),
  first_ticket integer not null check (first_ticket >= 1),
  status text not null default 'active' check (status in ('active', 'refunded', 'void')),
  refunded_at timestamptz,
  created_at timestamptz not null default now(),
  check (kind = 'paid' or amount = 0)
);
alter table public.entries enable row level security;
create index entries_user_idx on public.entries (user_id, created_at desc);
create index entries_competition_idx on public.entries (competition_id, created_at);
comment on table public.entries is 'One purchase (an order) or one postal entry: quantity tickets numbered first_ticket .. first_ticket + quantity - 1.';

create table public.tickets (
  id uuid primary key default gen_random_uuid(),
  competition_id uuid not null references public.competitions (id) on delete restrict,
  number integer not null check (number >= 1),
  entry_id uuid not null references public.entries (id) on delete restrict,
  user_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (competition_id, number)
);
alter table public.tickets enable row level security;
create index tickets_holder_idx on public.tickets (competition_id, user_id);
create index tickets_entry_idx on public.tickets (entry_id);
create index tickets_user_idx on public.tickets (user_id);
comment on table public.tickets is 'Tickets, numbered 1..N per competition in purchase order. The id is public: the draw hashes the list of (number, id).';

create table public.postal_entries (
  id uuid primary key default gen_random_uuid(),
  competition_id uuid not null references public.competitions (id) on delete restrict,
  entry_id uuid not null unique references public.entries (id) on delete restrict,
  user_id uuid references auth.users (id) on delete set null,
  name text not null check (char_length(name) between 2 and 100),
  address text not null check (char_length(address) between 5 and 500),
  answer text,
  recorded_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
alter table public.postal_entries enable row level security;
create index postal_entries_competition_idx on public.postal_entries (competition_id);
create index postal_entries_user_idx on public.postal_entries (user_id);
create index postal_entries_recorded_by_idx on public.postal_entries (recorded_by);
comment on table public.postal_entries is 'Free postal entries recorded by an admin: one free ticket each, same odds as a paid ticket.';

-- Tables are read through functions. Direct reads are limited to a user's own rows
-- (entries, tickets) and the public columns of published competitions; nothing is
-- writable by API roles.
revoke all on table public.competitions, public.entries, public.tickets, public.postal_entries from anon, authenticated;
grant select (id, slug, title, summary, description, prize_description, prize_value, images, ticket_price,
  total_tickets, max_tickets_per_user, tickets_sold, opens_at, closes_at, skill_question, skill_options, status,
  seed_commitment, external_randomness, published_at, closed_at, cancelled_at, cancel_reason, created_at, updated_at)
  on table public.competitions to anon, authenticated;
grant select on table public.entries, public.tickets, public.postal_entries to authenticated;
grant all on table public.competitions, public.entries, public.tickets, public.postal_entries to service_role;

create policy "competitions: published, or admins" on public.competitions
  for select to anon, authenticated using (status <> 'draft' or (select public.is_admin()));
create policy "entries: own rows or admin" on public.entries
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "tickets: own rows or admin" on public.tickets
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "postal entries: admins" on public.postal_entries
  for select to authenticated using ((select public.is_admin()));

-- ----------------------------------------------------------------------------
-- Small helpers
-- ----------------------------------------------------------------------------
create function private.format_gbp(p_amount numeric) returns text
language sql immutable set search_path = '' as $$
  select '£' || to_char(p_amount, 'FM999,999,990.00')
$$;
comment on function private.format_gbp(numeric) is 'An amount as pounds for messages, e.g. £1,234.50.';

create function private.ticket_numbers_text(p_first integer, p_quantity integer) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_quantity = 1 then '#' || p_first
    when p_quantity <= 20 then (select string_agg('#' || n, ', ' order by n) from generate_series(p_first, p_first + p_quantity - 1) n)
    else '#' || p_first || ' to #' || (p_first + p_quantity - 1)
  end
$$;
comment on function private.ticket_numbers_text(integer, integer) is 'Ticket numbers for a receipt ("#4, #5, #6", or a range when long).';

-- ----------------------------------------------------------------------------
-- JSON shapes returned to the app
-- ----------------------------------------------------------------------------
create function private.competition_json(p_id uuid, p_admin boolean default false) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  -- plpgsql, so the body is resolved when called: it reads public.draws, which the draws migration creates.
  return (
    select jsonb_build_object(
      'id', c.id,
      'slug', c.slug,
      'title', c.title,
      'summary', c.summary,
      'description', c.description,
      'prize_description', c.prize_description,
      'prize_value', c.prize_value,
      'images', to_jsonb(c.images),
      'ticket_price', c.ticket_price,
      'total_tickets', c.total_tickets,
      'tickets_sold', c.tickets_sold,
      'tickets_left', c.total_tickets - c.tickets_sold,
      'max_tickets_per_user', c.max_tickets_per_user,
      'opens_at', c.opens_at,
      'closes_at', c.closes_at,
      'status', c.status,
      'is_open', c.status = 'live' and c.opens_at <= now() and c.closes_at > now() and c.tickets_sold < c.total_tickets,
      'skill_question', c.skill_question,
      'skill_options', to_jsonb(c.skill_options),
      'seed_commitment', c.seed_commitment,
      'external_randomness', c.external_randomness,
      'published_at', c.published_at,
      'closed_at', c.closed_at,
      'cancelled_at', c.cancelled_at,
      'cancel_reason', c.cancel_reason,
      'draw', (select jsonb_build_object(
                 'id', d.id, 'winning_number', d.winning_number, 'winner_display_name', d.winner_display_name, 'winner_town', d.winner_town,
                 'ticket_count', d.ticket_count, 'drawn_at', d.drawn_at)
               from public.draws d where d.competition_id = c.id)
    ) || case when p_admin then jsonb_build_object(
      'skill_answer', c.skill_answer,
      'created_by', c.created_by,
      'created_at', c.created_at,
      'updated_at', c.updated_at,
      'entry_count', (select count(*) from public.entries e where e.competition_id = c.id and e.status = 'active'),
      'postal_entry_count', (select count(*) from public.postal_entries pe where pe.competition_id = c.id),
      'revenue', (select coalesce(sum(e.amount), 0) from public.entries e where e.competition_id = c.id and e.status = 'active'),
      'prize_status', (select d.prize_status from public.draws d where d.competition_id = c.id))
    else '{}'::jsonb end
    from public.competitions c
    where c.id = p_id);
end;
$$;
comment on function private.competition_json(uuid, boolean) is 'A competition as JSON for the app; the skill answer and admin figures only when p_admin.';

-- ----------------------------------------------------------------------------
-- Validation shared by create and update
-- ----------------------------------------------------------------------------
create function private.competition_apply(p_base public.competitions, p jsonb) returns public.competitions
language plpgsql stable set search_path = '' as $$
declare
  c public.competitions := p_base;
  img text;
begin
  if p is null or jsonb_typeof(p) <> 'object' then
    raise exception 'Send the competition fields as an object' using errcode = '22023', hint = 'invalid_input';
  end if;
  begin
    if p ? 'title' then c.title := btrim(p ->> 'title'); end if;
    if p ? 'slug' then c.slug := nullif(lower(btrim(p ->> 'slug')), ''); end if;
    if p ? 'summary' then c.summary := coalesce(btrim(p ->> 'summary'), ''); end if;
    if p ? 'description' then c.description := coalesce(btrim(p ->> 'description'), ''); end if;
    if p ? 'prize_description' then c.prize_description := btrim(p ->> 'prize_description'); end if;
    if p ? 'prize_value' then c.prize_value := (p ->> 'prize_value')::numeric; end if;
    if p ? 'images' then
      if jsonb_typeof(p -> 'images') <> 'array' then
        raise exception 'Images must be a list of addresses' using errcode = '22023', hint = 'invalid_input';
      end if;
      c.images := array(select jsonb_array_elements_text(p -> 'images'));
    end if;
    if p ? 'ticket_price' then c.ticket_price := (p ->> 'ticket_price')::numeric; end if;
    if p ? 'total_tickets' then c.total_tickets := (p ->> 'total_tickets')::integer; end if;
    if p ? 'max_tickets_per_user' then c.max_tickets_per_user := (p ->> 'max_tickets_per_user')::integer; end if;
    if p ? 'opens_at' then c.opens_at := coalesce((p ->> 'opens_at')::timestamptz, now()); end if;
    if p ? 'closes_at' then c.closes_at := (p ->> 'closes_at')::timestamptz; end if;
    if p ? 'skill_question' then c.skill_question := nullif(btrim(p ->> 'skill_question'), ''); end if;
    if p ? 'skill_options' then
      c.skill_options := case when jsonb_typeof(p -> 'skill_options') = 'array'
        then array(select btrim(o) from jsonb_array_elements_text(p -> 'skill_options') o where btrim(o) <> '') end;
    end if;
    if p ? 'skill_answer' then c.skill_answer := nullif(btrim(p ->> 'skill_answer'), ''); end if;
  exception
    when invalid_text_representation or invalid_datetime_format or datetime_field_overflow
      or numeric_value_out_of_range or invalid_parameter_value then
      raise exception 'Check the competition fields: %', sqlerrm using errcode = '22023', hint = 'invalid_input';
  end;

  if c.slug is null and c.title is not null then
    c.slug := left(btrim(regexp_replace(lower(c.title), '[^a-z0-9]+', '-', 'g'), '-'), 80);
  end if;
  if c.skill_question is null then
    c.skill_options := null;
    c.skill_answer := null;
  end if;

  if c.title is null or char_length(c.title) not between 3 and 120 then
    raise exception 'Title must be between 3 and 120 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if c.slug is null or c.slug !~ '^[a-z0-9]+(-[a-z0-9]+)*$' or char_length(c.slug) > 80 then
    raise exception 'The address (slug) may use lower-case letters, digits and single hyphens, up to 80 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(c.summary) > 300 then
    raise exception 'Summary must be at most 300 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(c.description) > 5000 then
    raise exception 'Description must be at most 5000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if c.prize_description is null or char_length(c.prize_description) not between 1 and 2000 then
    raise exception 'Describe the prize (up to 2000 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if c.prize_value is null or c.prize_value < 0 or c.prize_value <> round(c.prize_value, 2) or c.prize_value > 9999999999 then
    raise exception 'Prize value must be an amount in pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;
  if cardinality(c.images) > 10 then
    raise exception 'At most 10 images' using errcode = '22023', hint = 'invalid_input';
  end if;
  foreach img in array c.images loop
    if img !~ '^(/[^/]|https://)' or char_length(img) > 1000 then
      raise exception 'Image addresses must start with / or https://' using errcode = '22023', hint = 'invalid_input';
    end if;
  end loop;
  if c.ticket_price is null or c.ticket_price < 0.25 or c.ticket_price <> round(c.ticket_price, 2) or c.ticket_price > 10000 then
    raise exception 'Ticket price must be from £0.25 to £10,000, in pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;
  if c.total_tickets is null or c.total_tickets not between 1 and 1000000 then
    raise exception 'Total tickets must be between 1 and 1,000,000' using errcode = '22023', hint = 'invalid_input';
  end if;
  if c.max_tickets_per_user is null or c.max_tickets_per_user < 1 or c.max_tickets_per_user > c.total_tickets then
    raise exception 'Tickets per person must be between 1 and the total number of tickets' using errcode = '22023', hint = 'invalid_input';
  end if;
  if c.closes_at is null or c.opens_at is null or c.closes_at <= c.opens_at then
    raise exception 'The close time must be after the open time' using errcode = '22023', hint = 'invalid_input';
  end if;
  if c.skill_question is not null then
    if char_length(c.skill_question) > 300 then
      raise exception 'The question must be at most 300 characters' using errcode = '22023', hint = 'invalid_input';
    end if;
    if c.skill_options is null or cardinality(c.skill_options) not between 2 and 6
       or (select count(distinct lower(o)) from unnest(c.skill_options) o) <> cardinality(c.skill_options) then
      raise exception 'Give between 2 and 6 different answers to choose from' using errcode = '22023', hint = 'invalid_input';
    end if;
    if c.skill_answer is null or not (c.skill_answer = any (c.skill_options)) then
      raise exception 'The correct answer must be one of the answers to choose from' using errcode = '22023', hint = 'invalid_input';
    end if;
  end if;
  return c;
end;
$$;
comment on function private.competition_apply(public.competitions, jsonb) is 'Applies the fields present in p to a competition row and validates the result, with a message per problem.';

-- Locks a competition for an entry and refuses unless it is live and inside its entry
-- window. The row lock makes entries to one competition queue, which is what keeps ticket
-- numbers contiguous and stops overselling and cap races.
create function private.lock_competition_for_entry(p_id uuid) returns public.competitions
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where id = p_id for update;
  if not found or c.status = 'draft' then
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
  end if;
  if c.status = 'cancelled' then
    raise exception 'This competition has been cancelled' using errcode = 'P0001', hint = 'competition_cancelled';
  elsif c.status = 'sold_out' or (c.status = 'drawn' and c.tickets_sold >= c.total_tickets) then
    raise exception 'This competition has sold out' using errcode = 'P0001', hint = 'competition_sold_out';
  elsif c.status in ('closed', 'drawn') then
    raise exception 'This competition has closed' using errcode = 'P0001', hint = 'competition_closed';
  elsif c.status <> 'live' then
    raise exception 'This competition is not open for entries' using errcode = 'P0001', hint = 'competition_not_open';
  elsif now() < c.opens_at then
    raise exception 'Entries open on %', to_char(c.opens_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI')
      using errcode = 'P0001', hint = 'competition_not_yet_open';
  elsif now() >= c.closes_at then
    raise exception 'This competition has closed' using errcode = 'P0001', hint = 'competition_closed';
  elsif c.tickets_sold >= c.total_tickets then
    raise exception 'This competition has sold out' using errcode = 'P0001', hint = 'competition_sold_out';
  end if;
  return c;
end;
$$;
comment on function private.lock_competition_for_entry(uuid) is 'Locks a competition row for an entry and raises the reason it cannot take entries now, if any; returns the locked row.';

create function private.answer_is_correct(c public.competitions, p_answer text) returns boolean
language sql stable set search_path = '' as $$
  select c.skill_question is null or lower(btrim(coalesce(p_answer, ''))) = lower(btrim(c.skill_answer))
$$;
comment on function private.answer_is_correct(public.competitions, text) is 'True when the competition has no question or the answer matches (case and spaces ignored).';

-- ----------------------------------------------------------------------------
-- Public reads
-- ----------------------------------------------------------------------------
create function public.list_competitions(p_status text default null) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  if p_status is not null and p_status not in ('live', 'sold_out', 'closed', 'drawn', 'cancelled') then
    raise exception 'Unknown status: %', p_status using errcode = '22023', hint = 'invalid_input';
  end if;
  return coalesce((
    select jsonb_agg(private.competition_json(c.id)
                     order by (c.status = 'live') desc,
                              case when c.status = 'live' then c.closes_at end asc,
                              c.closes_at desc)
      from public.competitions c
     where c.status <> 'draft' and (p_status is null or c.status = p_status)), '[]'::jsonb);
end;
$$;
comment on function public.list_competitions(text) is 'Public: published competitions (never drafts), live ones first by closing soonest; optionally one status.';
grant execute on function public.list_competitions(text) to anon, authenticated, service_role;

create function public.get_competition(p_slug text) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  uid uuid := auth.uid();
  mine integer[];
begin
  select * into c from public.competitions where slug = lower(btrim(p_slug));
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
  end if;
  if uid is not null then
    select coalesce(array_agg(t.number order by t.number), '{}') into mine
      from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  end if;
  return private.competition_json(c.id) || jsonb_build_object('my_tickets', to_jsonb(mine));
end;
$$;
comment on function public.get_competition(text) is 'Public: one published competition by slug (admins may preview drafts): question and options but never the answer, the seed commitment, sold count, the draw once drawn, and the caller''s own ticket numbers (null when signed out).';
grant execute on function public.get_competition(text) to anon, authenticated, service_role;

-- ----------------------------------------------------------------------------
-- Entering
-- ----------------------------------------------------------------------------
create function public.enter_competition(p_competition_id uuid, p_quantity integer, p_answer text default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  held integer;
  cost numeric(12, 2);
  first_no integer;
  new_entry uuid;
  new_balance numeric(12, 2);
  drew boolean := false;
begin
  if p_quantity is null or p_quantity < 1 then
    raise exception 'Choose at least one ticket' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  select * into acct from public.user_account_data a where a.id = uid;
  if acct.rejected_at is not null and not acct.approved then
    raise exception 'Your account was not approved, so you cannot enter competitions' using errcode = 'P0001', hint = 'approval_rejected';
  end if;
  if not acct.approved then
    raise exception 'Your account is awaiting approval' using errcode = 'P0001', hint = 'approval_pending';
  end if;

  c := private.lock_competition_for_entry(p_competition_id);
  if c.skill_question is not null and nullif(btrim(coalesce(p_answer, '')), '') is null then
    raise exception 'Answer the question to enter' using errcode = 'P0001', hint = 'answer_required';
  end if;
  if not private.answer_is_correct(c, p_answer) then
    raise exception 'That answer is not correct' using errcode = 'P0001', hint = 'answer_incorrect';
  end if;

  select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  if held >= c.max_tickets_per_user then
    raise exception 'You already have the maximum of % tickets for this competition', c.max_tickets_per_user using errcode = 'P0001', hint = 'cap_reached';
  end if;
  if held + p_quantity > c.max_tickets_per_user then
    raise exception 'You can buy at most % more tickets for this competition', c.max_tickets_per_user - held using errcode = 'P0001', hint = 'cap_exceeded';
  end if;
  if c.tickets_sold + p_quantity > c.total_tickets then
    raise exception 'Only % tickets left', c.total_tickets - c.tickets_sold using errcode = 'P0001', hint = 'not_enough_tickets';
  end if;

  cost := c.ticket_price * p_quantity;
  select * into acct from public.user_account_data a where a.id = uid for update;
  if acct.credits < cost then
    raise exception 'Not enough credit: you need % more', private.format_gbp(cost - acct.credits) using errcode = 'P0001', hint = 'insufficient_credit';
  end if;

  first_no := c.tickets_sold + 1;
  insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
  values (c.id, uid, 'paid', p_quantity, c.ticket_price, cost, first_no)
  returning id into new_entry;
  insert into public.tickets (competition_id, number, entry_id, user_id)
  select c.id, n, new_entry, uid from generate_series(first_no, first_no + p_quantity - 1) n;
  update public.competitions
     set tickets_sold = tickets_sold + p_quantity, updated_at = now(),
         status = case when tickets_sold + p_quantity = total_tickets then 'sold_out' else status end,
         closed_at = case when tickets_sold + p_quantity = total_tickets then now() else closed_at end
   where id = c.id;

  new_balance := private.post_ledger(uid, 'entry', -cost,
    format('Entry: %s (%s %s)', c.title, p_quantity, case when p_quantity = 1 then 'ticket' else 'tickets' end),
    'entry:' || new_entry);
  update public.user_account_data
     set total_spent = total_spent + cost, total_entries = total_entries + p_quantity, updated_at = now()
   where id = uid;

  perform private.queue_mail(uid, 'entry_receipt', 'Your entry: ' || c.title,
    format(E'Thank you for entering %s.\n\nYour ticket numbers: %s\nTickets: %s at %s each\nTotal: %s\nCredit left: %s\n\n'
           'The draw is verifiable: its seed commitment is %s.',
           c.title, private.ticket_numbers_text(first_no, p_quantity), p_quantity, private.format_gbp(c.ticket_price),
           private.format_gbp(cost), private.format_gbp(new_balance), c.seed_commitment));
  perform private.log_activity('competition.entered', c.id,
    jsonb_build_object('entry_id', new_entry, 'quantity', p_quantity, 'amount', cost));

  if first_no + p_quantity - 1 = c.total_tickets then
    perform private.draw_competition(c.id, 'sold_out');
    drew := true;
  end if;

  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(array(select generate_series(first_no, first_no + p_quantity - 1))),
    'balance', new_balance,
    'drawn', drew);
end;
$$;
comment on function public.enter_competition(uuid, integer, text) is 'Approved users: buys p_quantity tickets in one transaction (open check, skill answer, per-user cap, tickets left, credit through the ledger, numbers in purchase order, account totals, receipt mail) and draws the competition when this purchase sells it out.';
grant execute on function public.enter_competition(uuid, integer, text) to authenticated;

create function public.get_my_entries() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  -- plpgsql, so the body is resolved when called: it reads public.draws, which the draws migration creates.
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
        'entry_id', e.id,
        'kind', e.kind,
        'quantity', e.quantity,
        'amount', e.amount,
        'status', e.status,
        'created_at', e.created_at,
        'ticket_numbers', to_jsonb(array(select generate_series(e.first_ticket, e.first_ticket + e.quantity - 1))),
        'competition', jsonb_build_object(
          'id', c.id, 'slug', c.slug, 'title', c.title, 'status', c.status, 'image', c.images[1],
          'closes_at', c.closes_at, 'total_tickets', c.total_tickets, 'tickets_sold', c.tickets_sold),
        'draw', (select jsonb_build_object(
                   'id', d.id, 'winning_number', d.winning_number, 'drawn_at', d.drawn_at,
                   'won', d.winning_number between e.first_ticket and e.first_ticket + e.quantity - 1)
                 from public.draws d where d.competition_id = c.id)
      ) order by e.created_at desc, e.id), '[]'::jsonb)
    from public.entries e
    join public.competitions c on c.id = e.competition_id
    where e.user_id = private.require_user());
end;
$$;
comment on function public.get_my_entries() is 'The caller''s entries, newest first, with ticket numbers, competition summary and the draw result once drawn.';
grant execute on function public.get_my_entries() to authenticated;

-- What the competition page shows a signed-in user before they enter: their credit,
-- how many more tickets they may buy, and the price of each quantity with the amount
-- missing, worked out here because money arithmetic happens only in SQL (ARCHITECTURE
-- §1). enter_competition() stays the last word: this is a quote, not a reservation.
create function public.get_entry_quote(p_competition_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
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
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
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
grant execute on function public.get_entry_quote(uuid) to authenticated;

-- ----------------------------------------------------------------------------
-- Admin
-- ----------------------------------------------------------------------------
create function public.admin_list_competitions() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return coalesce((select jsonb_agg(private.competition_json(c.id, true) order by c.created_at desc)
                     from public.competitions c), '[]'::jsonb);
end;
$$;
comment on function public.admin_list_competitions() is 'Admins: every competition, drafts included, newest first, with the skill answer and entry figures.';
grant execute on function public.admin_list_competitions() to authenticated;

create function public.admin_get_competition(p_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  result jsonb;
begin
  perform private.require_admin();
  result := private.competition_json(p_id, true);
  if result is null then
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
  end if;
  return result;
end;
$$;
comment on function public.admin_get_competition(uuid) is 'Admins: one competition by id with the admin fields (for the edit page).';
grant execute on function public.admin_get_competition(uuid) to authenticated;

create function public.admin_create_competition(p jsonb) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  c public.competitions;
begin
  c.id := gen_random_uuid();
  c.summary := '';
  c.description := '';
  c.images := '{}';
  c.opens_at := now();
  c := private.competition_apply(c, p);
  begin
    insert into public.competitions (id, slug, title, summary, description, prize_description, prize_value, images,
                                     ticket_price, total_tickets, max_tickets_per_user, opens_at, closes_at,
                                     skill_question, skill_options, skill_answer, status, created_by)
    values (c.id, c.slug, c.title, c.summary, c.description, c.prize_description, c.prize_value, c.images,
            c.ticket_price, c.total_tickets, c.max_tickets_per_user, c.opens_at, c.closes_at,
            c.skill_question, c.skill_options, c.skill_answer, 'draft', admin_id);
  exception when unique_violation then
    raise exception 'The address "%" is already used by another competition', c.slug using errcode = '22023', hint = 'slug_taken';
  end;
  perform private.log_activity('competition.created', c.id, jsonb_build_object('title', c.title));
  return private.competition_json(c.id, true);
end;
$$;
comment on function public.admin_create_competition(jsonb) is 'Admins: creates a draft competition from {title, slug?, summary?, description?, prize_description, prize_value, images[], ticket_price, total_tickets, max_tickets_per_user, opens_at?, closes_at, skill_question?, skill_options[]?, skill_answer?}.';
grant execute on function public.admin_create_competition(jsonb) to authenticated;

create function public.admin_update_competition(p_id uuid, p jsonb) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  prev public.competitions%rowtype;
  c public.competitions;
begin
  perform private.require_admin();
  select * into prev from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
  end if;
  if prev.status not in ('draft', 'live') then
    raise exception 'This competition can no longer be edited' using errcode = 'P0001', hint = 'edit_not_allowed';
  end if;
  c := private.competition_apply(prev, p);
  if prev.status = 'live' then
    if c.slug <> prev.slug then
      raise exception 'The address (slug) cannot change once the competition is live' using errcode = 'P0001', hint = 'edit_not_allowed';
    end if;
    if c.closes_at <= now() then
      raise exception 'The close time must be in the future' using errcode = '22023', hint = 'invalid_input';
    end if;
    if prev.tickets_sold > 0 then
      if (c.ticket_price, c.total_tickets, c.max_tickets_per_user, c.opens_at, c.skill_question, c.skill_options, c.skill_answer)
         is distinct from
         (prev.ticket_price, prev.total_tickets, prev.max_tickets_per_user, prev.opens_at, prev.skill_question, prev.skill_options, prev.skill_answer) then
        raise exception 'Tickets have been sold: only the wording, prize details, images and a later close time can change' using errcode = 'P0001', hint = 'edit_not_allowed';
      end if;
      if c.closes_at < prev.closes_at then
        raise exception 'Tickets have been sold: the close time can only move later' using errcode = 'P0001', hint = 'edit_not_allowed';
      end if;
    end if;
  end if;
  begin
    update public.competitions
       set slug = c.slug, title = c.title, summary = c.summary, description = c.description,
           prize_description = c.prize_description, prize_value = c.prize_value, images = c.images,
           ticket_price = c.ticket_price, total_tickets = c.total_tickets, max_tickets_per_user = c.max_tickets_per_user,
           opens_at = c.opens_at, closes_at = c.closes_at, skill_question = c.skill_question,
           skill_options = c.skill_options, skill_answer = c.skill_answer, updated_at = now()
     where id = p_id;
  exception when unique_violation then
    raise exception 'The address "%" is already used by another competition', c.slug using errcode = '22023', hint = 'slug_taken';
  end;
  perform private.log_activity('competition.updated', p_id, jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p) k)));
  return private.competition_json(p_id, true);
end;
$$;
comment on function public.admin_update_competition(uuid, jsonb) is 'Admins: changes the fields present in p. Drafts: anything. Live: not the slug; once tickets are sold only wording, prize details, images and a later close time.';
grant execute on function public.admin_update_competition(uuid, jsonb) to authenticated;

create function public.admin_publish_competition(p_id uuid, p_external_randomness jsonb default null) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  the_seed bytea;
begin
  perform private.require_admin();
  select * into c from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
  end if;
  if c.status <> 'draft' then
    raise exception 'Only a draft can be published' using errcode = 'P0001', hint = 'not_a_draft';
  end if;
  if c.closes_at <= now() then
    raise exception 'The close time must be in the future' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_external_randomness is not null and (
       jsonb_typeof(p_external_randomness) <> 'object'
       or coalesce(p_external_randomness ->> 'source', '') not in ('drand', 'random.org')
       or coalesce(p_external_randomness ->> 'value_hex', '') !~ '^([0-9a-f]{2}){16,64}$') then
    raise exception 'External randomness must be {source: drand | random.org, value_hex: 16 to 64 bytes in lower-case hex, ...}' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The seed is made here, by the database's CSPRNG, and never leaves the
  -- database until the draw: only its SHA-256 commitment is published now.
  the_seed := extensions.gen_random_bytes(32);
  insert into public.competition_seeds (competition_id, seed) values (p_id, the_seed);
  update public.competitions
     set status = 'live', seed_commitment = encode(extensions.digest(the_seed, 'sha256'), 'hex'),
         external_randomness = p_external_randomness, published_at = now(), updated_at = now()
   where id = p_id;
  perform private.log_activity('competition.published', p_id,
    jsonb_build_object('external_randomness', p_external_randomness ->> 'source'));
  return private.competition_json(p_id, true);
end;
$$;
comment on function public.admin_publish_competition(uuid, jsonb) is 'Admins: makes a draft live, creating its secret seed in the database and publishing the SHA-256 commitment; optional external randomness (drand round or RANDOM.ORG signed result) is fixed here, before any sale.';
grant execute on function public.admin_publish_competition(uuid, jsonb) to authenticated;

create function public.admin_cancel_competition(p_id uuid, p_reason text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  e record;
  u record;
  refunded_entries integer := 0;
  refunded_total numeric(12, 2) := 0;
begin
  perform private.require_admin();
  if p_reason is null or char_length(btrim(p_reason)) not between 3 and 500 then
    raise exception 'Give a reason between 3 and 500 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into c from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
  end if;
  if c.status = 'cancelled' then
    raise exception 'This competition is already cancelled' using errcode = 'P0001', hint = 'already_cancelled';
  end if;
  if c.status = 'drawn' then
    raise exception 'A drawn competition cannot be cancelled' using errcode = 'P0001', hint = 'competition_drawn';
  end if;

  for e in
    select * from public.entries
     where competition_id = p_id and status = 'active' and kind = 'paid' and user_id is not null
     order by created_at, id
  loop
    perform private.post_ledger(e.user_id, 'refund', e.amount, 'Refund: ' || c.title || ' was cancelled', 'entry:' || e.id);
    update public.user_account_data
       set total_spent = greatest(total_spent - e.amount, 0),
           total_entries = greatest(total_entries - e.quantity, 0), updated_at = now()
     where id = e.user_id;
    refunded_entries := refunded_entries + 1;
    refunded_total := refunded_total + e.amount;
  end loop;
  update public.user_account_data a
     set total_entries = greatest(a.total_entries - x.n, 0), updated_at = now()
    from (select user_id, sum(quantity)::integer n from public.entries
           where competition_id = p_id and status = 'active' and kind = 'postal' and user_id is not null
           group by user_id) x
   where a.id = x.user_id;

  for u in
    select user_id, sum(amount) total, sum(quantity) tickets from public.entries
     where competition_id = p_id and status = 'active' and user_id is not null
     group by user_id
  loop
    perform private.queue_mail(u.user_id, 'competition_cancelled', 'Cancelled: ' || c.title,
      format(E'We are sorry: %s has been cancelled.\n\nReason: %s\n\n%s',
             c.title, btrim(p_reason),
             case when u.total > 0 then 'Your ' || u.tickets || ' ticket(s) cost ' || private.format_gbp(u.total)
                                        || ', which has been refunded to your LabCash credit.'
                  else 'Your free postal entry has been withdrawn.' end));
  end loop;

  update public.entries
     set status = case when kind = 'paid' then 'refunded' else 'void' end, refunded_at = now()
   where competition_id = p_id and status = 'active';
  update public.competitions
     set status = 'cancelled', cancelled_at = now(), cancel_reason = btrim(p_reason), updated_at = now()
   where id = p_id;
  perform private.log_activity('competition.cancelled', p_id,
    jsonb_build_object('reason', btrim(p_reason), 'refunded_entries', refunded_entries, 'refunded_total', refunded_total));
  return jsonb_build_object('competition', private.competition_json(p_id, true),
                            'refunded_entries', refunded_entries, 'refunded_total', refunded_total);
end;
$$;
comment on function public.admin_cancel_competition(uuid, text) is 'Admins: cancels a competition that is not drawn, refunding every paid entry to credit with its own ledger row, voiding postal entries and e-mailing entrants.';
grant execute on function public.admin_cancel_competition(uuid, text) to authenticated;

create function public.admin_record_postal_entry(
  p_competition_id uuid, p_user_id uuid, p_name text, p_address text, p_answer text
) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  c public.competitions%rowtype;
  held integer;
  new_entry uuid;
  ticket_no integer;
  drew boolean := false;
begin
  if p_name is null or char_length(btrim(p_name)) not between 2 and 100 then
    raise exception 'Give the entrant''s name (2 to 100 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_address is null or char_length(btrim(p_address)) not between 5 and 500 then
    raise exception 'Give the entrant''s postal address (5 to 500 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_user_id is not null and not exists (select 1 from public.user_account_data a where a.id = p_user_id) then
    raise exception 'No such user' using errcode = 'P0002', hint = 'user_not_found';
  end if;
  c := private.lock_competition_for_entry(p_competition_id);
  if not private.answer_is_correct(c, p_answer) then
    raise exception 'That answer is not correct' using errcode = 'P0001', hint = 'answer_incorrect';
  end if;
  if p_user_id is not null then
    select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = p_user_id;
    if held >= c.max_tickets_per_user then
      raise exception 'This entrant already has the maximum of % tickets for this competition', c.max_tickets_per_user
        using errcode = 'P0001', hint = 'cap_reached';
    end if;
  end if;

  ticket_no := c.tickets_sold + 1;
  insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
  values (c.id, p_user_id, 'postal', 1, 0, 0, ticket_no)
  returning id into new_entry;
  insert into public.tickets (competition_id, number, entry_id, user_id) values (c.id, ticket_no, new_entry, p_user_id);
  insert into public.postal_entries (competition_id, entry_id, user_id, name, address, answer, recorded_by)
  values (c.id, new_entry, p_user_id, btrim(p_name), btrim(p_address), p_answer, admin_id);
  update public.competitions
     set tickets_sold = tickets_sold + 1, updated_at = now(),
         status = case when tickets_sold + 1 = total_tickets then 'sold_out' else status end,
         closed_at = case when tickets_sold + 1 = total_tickets then now() else closed_at end
   where id = c.id;
  if p_user_id is not null then
    update public.user_account_data set total_entries = total_entries + 1, updated_at = now() where id = p_user_id;
    perform private.queue_mail(p_user_id, 'entry_receipt', 'Your postal entry: ' || c.title,
      format(E'We have recorded your free postal entry to %s.\n\nYour ticket number: #%s\n\n'
             'The draw is verifiable: its seed commitment is %s.', c.title, ticket_no, c.seed_commitment));
  end if;
  perform private.log_activity('competition.postal_entry', c.id,
    jsonb_build_object('entry_id', new_entry, 'user_id', p_user_id, 'ticket_number', ticket_no));
  if ticket_no = c.total_tickets then
    perform private.draw_competition(c.id, 'sold_out');
    drew := true;
  end if;
  return jsonb_build_object('entry_id', new_entry, 'ticket_number', ticket_no, 'drawn', drew);
end;
$$;
comment on function public.admin_record_postal_entry(uuid, uuid, text, text, text) is 'Admins: records a free postal entry (name, address, answer; optionally linked to an account): one ticket with the same odds, within the per-person cap.';
grant execute on function public.admin_record_postal_entry(uuid, uuid, text, text, text) to authenticated;
