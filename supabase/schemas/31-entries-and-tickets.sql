-- ============================================================================
-- Entries and tickets: buying tickets (the one purchase path), postal entries, the skill question, the public
-- entry list.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create type public.entry_kind as enum ('paid', 'postal');
comment on type public.entry_kind is 'How an entry was made: paid with credit, or the free postal route.';
create table public.entries (
  id uuid default gen_random_uuid() not null,
  competition_id uuid not null,
  user_id uuid,
  kind public.entry_kind not null,
  quantity integer not null,
  unit_price numeric(12,2) not null,
  amount numeric(12,2) not null,
  first_ticket integer not null,
  status public.entry_status default 'active'::public.entry_status not null,
  refunded_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  constraint entries_pkey primary key (id),
  constraint entries_amount_check check ((amount >= (0)::numeric)),
  constraint entries_postal_entries_free_check check (((kind = 'paid'::public.entry_kind) OR (amount = (0)::numeric))),
  constraint entries_first_ticket_check check ((first_ticket >= 1)),
  constraint entries_quantity_check check ((quantity >= 1)),
  constraint entries_unit_price_check check ((unit_price >= (0)::numeric)),
  constraint entries_competition_id_fkey foreign key (competition_id) references public.competitions(id) on delete restrict,
  constraint entries_user_id_fkey foreign key (user_id) references auth.users(id) on delete set null
);
alter table public.entries enable row level security;
comment on table public.entries is 'One purchase (an order) or one postal entry of quantity tickets. Its numbers are its rows in public.tickets; first_ticket is the lowest of them (contiguous up to first_ticket + quantity - 1 only on in_order competitions).';
revoke all on table public.entries from public, anon, authenticated, service_role;
grant select on table public.entries to authenticated;
grant all on table public.entries to service_role;

create index entries_user_idx on public.entries (user_id, created_at DESC);
create index entries_competition_idx on public.entries (competition_id, created_at);
create index entries_paid_created_idx on public.entries (created_at) where (kind = 'paid'::public.entry_kind);
create policy "entries: own rows or admin" on public.entries
  as permissive for select to authenticated
  using (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

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
comment on table public.tickets is 'Tickets, numbered 1..N per competition in purchase order. The id is public: the draw hashes the list of (number, id).';
revoke all on table public.tickets from public, anon, authenticated, service_role;
grant select on table public.tickets to authenticated;
grant all on table public.tickets to service_role;

create index tickets_holder_idx on public.tickets (competition_id, user_id);
create index tickets_entry_idx on public.tickets (entry_id);
create index tickets_user_idx on public.tickets (user_id);
create policy "tickets: own rows or admin" on public.tickets
  as permissive for select to authenticated
  using (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

create table public.postal_entries (
  id uuid default gen_random_uuid() not null,
  competition_id uuid not null,
  entry_id uuid not null,
  user_id uuid,
  name text not null,
  address text not null,
  answer text,
  recorded_by uuid,
  created_at timestamp with time zone default now() not null,
  postcode text,
  constraint postal_entries_pkey primary key (id),
  constraint postal_entries_entry_id_key unique (entry_id),
  constraint postal_entries_address_check check (((char_length(address) >= 5) AND (char_length(address) <= 500))),
  constraint postal_entries_name_check check (((char_length(name) >= 2) AND (char_length(name) <= 100))),
  constraint postal_entries_postcode_check check (((postcode IS NULL) OR (postcode ~ '^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}$'::text))),
  constraint postal_entries_competition_id_fkey foreign key (competition_id) references public.competitions(id) on delete restrict,
  constraint postal_entries_entry_id_fkey foreign key (entry_id) references public.entries(id) on delete restrict,
  constraint postal_entries_recorded_by_fkey foreign key (recorded_by) references auth.users(id) on delete set null,
  constraint postal_entries_user_id_fkey foreign key (user_id) references auth.users(id) on delete set null
);
alter table public.postal_entries enable row level security;
comment on table public.postal_entries is 'Free postal entries recorded by an admin: stamp-parity tickets each, numbered after the online pool, same odds as a paid ticket.';
comment on column public.postal_entries.postcode is 'The UK postcode from the address, normalised ("HG1 2AB"): with the name, the person an unlinked postal entry counts against the per-person cap.';
revoke all on table public.postal_entries from public, anon, authenticated, service_role;
grant select on table public.postal_entries to authenticated;
grant all on table public.postal_entries to service_role;

create index postal_entries_competition_idx on public.postal_entries (competition_id);
create index postal_entries_user_idx on public.postal_entries (user_id);
create index postal_entries_recorded_by_idx on public.postal_entries (recorded_by);
create index postal_entries_person_idx on public.postal_entries (competition_id, postcode, lower(name));
create policy "postal entries: admins" on public.postal_entries
  as permissive for select to authenticated
  using (( SELECT public.is_admin() AS is_admin));

create table public.skill_answer_misses (
  user_id uuid not null references auth.users (id) on delete cascade,
  competition_id uuid not null references public.competitions (id) on delete cascade,
  missed_at timestamptz not null default now(),
  misses integer not null default 1 check (misses >= 1),
  primary key (user_id, competition_id)
);
alter table public.skill_answer_misses enable row level security;
comment on table public.skill_answer_misses is 'The last wrong skill answer of each player in each competition (and how many so far): the question is closed to them until missed_at + skill_answer_cooldown_minutes. Written by public.enter_competition, read through functions only.';
revoke all on table public.skill_answer_misses from public, anon, authenticated, service_role;
grant all on table public.skill_answer_misses to service_role;

create index skill_answer_misses_competition_idx on public.skill_answer_misses (competition_id);

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.ticket_numbers_text(p_numbers integer[]) returns text
language plpgsql immutable set search_path = '' as $$
declare
  lo integer := (select min(n) from unnest(p_numbers) n);
  hi integer := (select max(n) from unnest(p_numbers) n);
  k integer := cardinality(p_numbers);
begin
  return case
    when k <= 20 then (select string_agg('#' || n, ', ' order by n) from unnest(p_numbers) n)
    when hi - lo + 1 = k then '#' || lo || ' to #' || hi
    else (select string_agg('#' || n, ', ' order by n) from (select n from unnest(p_numbers) n order by n limit 20) x)
         || format(' and %s more', k - 20)
  end;
end;
$$;
comment on function private.ticket_numbers_text(integer[]) is 'Ticket numbers for a receipt ("#4, #5, #6"; a range when long and contiguous; else the first 20 and how many more).';
revoke all on function private.ticket_numbers_text(integer[]) from public, anon, authenticated, service_role;

create or replace function private.entry_ticket_numbers(p_entry_id uuid) returns integer[]
language sql stable set search_path = '' as $$
  select coalesce(array_agg(t.number order by t.number), '{}') from public.tickets t where t.entry_id = p_entry_id
$$;
comment on function private.entry_ticket_numbers(uuid) is 'An entry''s ticket numbers, ascending, from public.tickets (chosen numbers are not contiguous).';
revoke all on function private.entry_ticket_numbers(uuid) from public, anon, authenticated, service_role;

create or replace function private.lock_competition_for_entry(p_id uuid) returns public.competitions
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where id = p_id for update;
  perform private.refuse_unless_open_for_entry(c);
  return c;
end;
$$;
comment on function private.lock_competition_for_entry(uuid) is 'Locks a competition row and raises the reason it cannot take entries now, if any; returns the locked row. Entries no longer use it (they lock the row last, with the counter update).';
revoke all on function private.lock_competition_for_entry(uuid) from public, anon, authenticated, service_role;

create or replace function private.answer_is_correct(c public.competitions, p_answer text) returns boolean
language plpgsql stable set search_path = '' as $$
begin
  return c.skill_question is null or lower(btrim(coalesce(p_answer, ''))) = lower(btrim(c.skill_answer));
end;
$$;
comment on function private.answer_is_correct(public.competitions,text) is 'True when the competition has no question or the answer matches (case and spaces ignored).';
revoke all on function private.answer_is_correct(public.competitions,text) from public, anon, authenticated, service_role;

create or replace function public.enter_competition(p_competition_id uuid, p_quantity integer, p_answer text default null,
                                                    p_numbers integer[] default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  entry jsonb;
  err_hint text;
  retry_at timestamptz;
begin
  -- One attempt at a time per player and competition, held to commit: a second answer sent at the same
  -- moment waits here and then sees the first one's miss (the account lock inside the sub-transaction
  -- is released when a wrong answer rolls it back, so it cannot do this).
  perform pg_advisory_xact_lock(hashtextextended('skill-answer:' || uid::text || ':' || p_competition_id::text, 0));
  begin
    entry := private.enter_competition_for(uid, p_competition_id, p_quantity, p_answer, p_numbers);
    -- The purchase commits without waiting for its WAL flush, so the competition's counter queue (held to
    -- commit) passes to the next buyer once the commit record is written. The caller answers the player only
    -- after public.make_entries_durable(), whose flush covers this commit; WAL order means a crash can lose
    -- only the last purchases, never one between two that survive. Transaction-local, set here (not in a
    -- function SET clause, which is undone when the function returns): it must hold at commit.
    perform pg_catalog.set_config('synchronous_commit', 'off', true);
    return entry;
  exception when sqlstate 'P0001' then
    get stacked diagnostics err_hint = pg_exception_hint;
    if err_hint is distinct from 'answer_incorrect' then
      raise;
    end if;
  end;
  -- The wrong answer: the sub-transaction above undid whatever the purchase had done; the miss is kept.
  perform private.record_skill_miss(uid, p_competition_id);
  retry_at := private.skill_answer_retry_at(uid, p_competition_id);
  return jsonb_build_object('refused', jsonb_build_object(
    'code', 'answer_incorrect',
    'message', 'That answer is not correct.'
               || case when retry_at is null then '' else ' You can try again at ' || private.london_time_text(retry_at) end,
    'retry_at', retry_at));
end;
$$;
comment on function public.enter_competition(uuid,integer,text,integer[]) is 'Signed-in, approved players: buys p_quantity tickets, or on a pick competition the numbers p_numbers (null: a lucky dip of p_quantity) (private.enter_competition_for), refusing with a raised error and its code; except a wrong skill answer, which is recorded (skill_answer_misses: the question closes to the player for skill_answer_cooldown_minutes, refused as skill_answer_cooldown) and returned as {"refused": {"code": "answer_incorrect", message, retry_at}} so the record commits. A purchase commits asynchronously (synchronous_commit off): it is durable only once public.make_entries_durable() has returned.';
revoke all on function public.enter_competition(uuid,integer,text,integer[]) from public, anon, authenticated, service_role;
grant execute on function public.enter_competition(uuid,integer,text,integer[]) to authenticated;
grant execute on function public.enter_competition(uuid,integer,text,integer[]) to service_role;

create or replace function public.make_entries_durable() returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_user();
  -- A commit waits for its WAL flush only when the transaction wrote WAL: an xid alone (txid_current()) writes
  -- none and commits without a flush. A transactional logical message is one small record and touches no table;
  -- this commit's flush then reaches past every commit before it, the caller's purchase included.
  if pg_catalog.current_setting('synchronous_commit') = 'off' then
    perform pg_catalog.set_config('synchronous_commit', 'on', true);
  end if;
  perform pg_catalog.pg_logical_emit_message(true, 'labcash.entries_durable', ''::text);
end;
$$;
comment on function public.make_entries_durable() is 'Signed-in users: returns once every transaction committed before it is on disk, so the caller''s purchases (public.enter_competition commits asynchronously) survive a crash. Commits synchronously, even where the server''s default is off, after writing one logical WAL message (prefix labcash.entries_durable, empty).';
revoke all on function public.make_entries_durable() from public, anon, authenticated, service_role;
grant execute on function public.make_entries_durable() to authenticated;

create type public.entry_draw as (id uuid, winning_number integer, drawn_at timestamp with time zone, won boolean, prize_description text, cash_alternative numeric(12,2), prize_choice public.prize_choice, prize_status public.prize_status, prize_position smallint);
comment on type public.entry_draw is 'The draw of an entry''s competition: the prize this entry won (else the first prize), whether it won, the prize, its cash alternative and position, and for the winning entry the claim choice; the prize''s progress.';

create type public.entry_competition as (id uuid, slug text, title text, status public.competition_status, image text, closes_at timestamp with time zone, total_tickets integer, tickets_sold integer);
comment on type public.entry_competition is 'The competition of one of the caller''s entries, as their entries page shows it (its first image).';

create type public.my_entry as (entry_id uuid, kind public.entry_kind, quantity integer, amount numeric(12,2), status public.entry_status, created_at timestamp with time zone, ticket_numbers integer[], competition public.entry_competition, draw public.entry_draw);
comment on type public.my_entry is 'One of the caller''s entries with its ticket numbers (ascending), its competition and the draw once drawn (or null).';

create or replace function public.get_my_entries() returns setof public.my_entry
language plpgsql stable security definer set search_path = '' as $$
begin
  return query
    select e.id, e.kind, e.quantity, e.amount, e.status, e.created_at, private.entry_ticket_numbers(e.id),
           row(c.id, c.slug, c.title, c.status, c.images[1], c.closes_at, c.total_tickets,
               c.tickets_sold)::public.entry_competition,
           -- The prize this entry won, or else the first prize's draw.
           (select row(d.id, d.winning_number, d.drawn_at, w.won, d.prize_description, d.cash_alternative,
                       case when d.winner_user_id = e.user_id and w.won then d.prize_choice end,
                       d.prize_status, d.prize_position)::public.entry_draw
              from public.draws d
              cross join lateral (
                select d.winning_ticket_id in (select t.id from public.tickets t where t.entry_id = e.id) as won) w
             where d.competition_id = c.id
             order by w.won desc, d.prize_position
             limit 1)
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

create type public.refusal as (code text, message text);
comment on type public.refusal is 'Why something is refused: a stable code (lib/data/errors.ts) and its words.';

create type public.entry_quote as (balance numeric(12,2), approved boolean, rejected boolean, held integer, cap_left integer, tickets_left integer, costs numeric[], shortfalls numeric[], skill_retry_at timestamp with time zone, block public.refusal);
comment on type public.entry_quote is 'What the competition page shows a signed-in player before entering: balance, approval, tickets held, what the cap and the tickets left allow, costs[i] and shortfalls[i] for i + 1 tickets, until when a wrong skill answer closes the question, and what stops them playing now (or null).';

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
  perform private.require_visible_competition(c);
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

create type public.instant_win_kind as enum ('credit', 'spin', 'physical');
comment on type public.instant_win_kind is 'What an instant-win prize is: credit (an amount), a LabSpinner spin, or a physical prize an admin delivers.';

create type public.instant_win_award as (ticket_number integer, kind public.instant_win_kind, prize text, credit_amount numeric(12,2));
comment on type public.instant_win_award is 'An instant win one entry''s ticket won as it was made: the ticket, the prize''s kind and title, its credit (credit prizes only).';

create type public.postal_entry_recorded as (entry_id uuid, ticket_numbers integer[], tickets integer, instant_wins public.instant_win_award[]);
comment on type public.postal_entry_recorded is 'admin_record_postal_entry(): the new postal entry, its ticket numbers and how many, and the instant wins they won.';

create or replace function public.admin_record_postal_entry(
  p_competition_id uuid, p_user_id uuid, p_name text, p_address text, p_answer text
) returns public.postal_entry_recorded
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  c public.competitions%rowtype;
  the_postcode text := private.uk_postcode(p_address);
  held integer;
  tickets integer;
  numbers integer[];
  new_entry uuid;
begin
  if p_name is null or char_length(btrim(p_name)) not between 2 and 100 then
    raise exception 'Give the entrant''s name (2 to 100 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_address is null or char_length(btrim(p_address)) not between 5 and 500 then
    raise exception 'Give the entrant''s postal address (5 to 500 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if the_postcode is null then
    raise exception 'The address must include a UK postcode' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_user_id is not null and not exists (select 1 from public.user_account_data a where a.id = p_user_id) then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;

  -- Lock order, as entering: the gate, the linked account, the competition row. The row is
  -- held for the rest (postal entries are few): it serialises the per-person cap of an
  -- unlinked entrant (name and postcode), and numbers the postal tickets.
  perform private.share_competition_gate(p_competition_id);
  if p_user_id is not null then
    perform 1 from public.user_account_data a where a.id = p_user_id for update;
  end if;
  select * into c from public.competitions where id = p_competition_id for update;
  if not found or c.status = 'draft' then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  elsif c.status = 'cancelled' then
    raise exception 'This competition has been cancelled' using errcode = 'P0001', hint = 'competition_cancelled';
  elsif c.status = 'drawn' or now() >= c.postal_deadline then
    raise exception 'Postal entries for this competition closed on %',
      to_char(c.postal_deadline at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI')
      using errcode = 'P0001', hint = 'postal_deadline_passed';
  elsif now() < c.opens_at then
    raise exception 'Entries open on %', to_char(c.opens_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI')
      using errcode = 'P0001', hint = 'competition_not_yet_open';
  end if;
  if not private.answer_is_correct(c, p_answer) then
    raise exception 'That answer is not correct' using errcode = 'P0001', hint = 'answer_incorrect';
  end if;

  -- The per-person cap: a linked account's tickets on both routes (its row is locked); otherwise the
  -- postal tickets already given to the same name at the same postcode.
  if p_user_id is not null then
    select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = p_user_id;
  else
    select coalesce(sum(e.quantity), 0) into held
      from public.postal_entries pe
      join public.entries e on e.id = pe.entry_id
     where pe.competition_id = c.id and pe.user_id is null and e.status = 'active'
       and pe.postcode = the_postcode and lower(pe.name) = lower(btrim(p_name));
  end if;
  if held >= c.max_tickets_per_user then
    raise exception 'This entrant already has the maximum of % tickets for this competition', c.max_tickets_per_user
      using errcode = 'P0001', hint = 'cap_reached';
  end if;
  tickets := least(private.stamp_parity(c.ticket_price, c.max_tickets_per_user), c.max_tickets_per_user - held);

  -- Numbered after the whole online pool, so postal entries never take an online ticket (nor, on a pick
  -- competition, a number a player could choose): a letter cannot choose, so the site chooses for it.
  numbers := array(select generate_series(c.total_tickets + c.postal_tickets + 1, c.total_tickets + c.postal_tickets + tickets));
  insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
  values (c.id, p_user_id, 'postal', tickets, 0, 0, numbers[1])
  returning id into new_entry;
  insert into public.tickets (competition_id, number, entry_id, user_id)
  select c.id, n, new_entry, p_user_id from unnest(numbers) n;
  insert into public.postal_entries (competition_id, entry_id, user_id, name, address, postcode, answer, recorded_by)
  values (c.id, new_entry, p_user_id, btrim(p_name), btrim(p_address), the_postcode, p_answer, admin_id);
  update public.competitions set postal_tickets = postal_tickets + tickets, updated_at = now() where id = c.id;
  if p_user_id is not null then
    update public.user_account_data set total_entries = total_entries + tickets, updated_at = now() where id = p_user_id;
    perform private.queue_mail(p_user_id, 'entry_receipt', 'Your postal entry: ' || c.title,
      format(E'We have received your free postal entry to %s.\n\nYour ticket numbers: %s (%s %s, the same chance per ticket as a paid one)\n\n'
             'The draw is on %s. It is verifiable: its seed commitment is %s.',
             c.title, private.ticket_numbers_text(numbers), tickets,
             case when tickets = 1 then 'ticket' else 'tickets' end,
             to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI'), c.seed_commitment));
  end if;
  perform private.log_activity('competition.postal_entry', c.id,
    jsonb_build_object('entry_id', new_entry, 'user_id', p_user_id, 'first_ticket', numbers[1], 'tickets', tickets));
  -- private.award_instant_wins answers jsonb because the purchase path reads it too; its fixed keys become the
  -- declared award here, in its order.
  return row(new_entry, numbers, tickets,
             array(select jsonb_populate_record(null::public.instant_win_award, won.award)
                     from jsonb_array_elements(private.award_instant_wins(new_entry)) with ordinality won(award, position)
                    order by won.position))::public.postal_entry_recorded;
end;
$$;
comment on function public.admin_record_postal_entry(uuid,uuid,text,text,text) is 'Admins: records a free postal entry (name, address with a UK postcode, answer; optionally linked to an account) until the postal deadline, even after a sell-out: stamp-parity tickets numbered after the online pool, within the per-person cap (the account, or the same name and postcode); a receipt mail when linked.';
revoke all on function public.admin_record_postal_entry(uuid,uuid,text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_record_postal_entry(uuid,uuid,text,text,text) to authenticated;
grant execute on function public.admin_record_postal_entry(uuid,uuid,text,text,text) to service_role;

create or replace function private.enter_competition_for(p_user uuid, p_competition_id uuid, p_quantity integer, p_answer text,
                                                       p_numbers integer[] default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  held integer;
  cost numeric(12, 2);
  left_this_month numeric(12, 2);
  numbers integer[];
  new_entry uuid := gen_random_uuid();
  new_balance numeric(12, 2);
  block jsonb;
  receipt_head text;
  receipt_tail text;
  retry_at timestamptz;
  wins jsonb;
begin
  -- Chosen numbers decide the quantity.
  p_quantity := coalesce(cardinality(p_numbers), p_quantity);
  if p_quantity is null or p_quantity < 1 then
    raise exception 'Choose at least one ticket' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- Lock order: the gate, the account, the competition row (see the header).
  perform private.share_competition_gate(p_competition_id);
  -- The account lock queues a player's concurrent entries, postal entries, top-ups and
  -- protection changes, so the cap count, a break that lands meanwhile and the monthly sums
  -- below are exact.
  select * into acct from public.user_account_data a where a.id = p_user for update;
  if not found then
    perform private.create_account_rows(p_user);
    select * into acct from public.user_account_data a where a.id = p_user for update;
  end if;
  perform private.require_approved(acct, 'enter competitions');

  -- Read without a lock: under the gate the terms (price, cap, question) cannot change
  -- before this commits; the count of tickets sold is settled by the counter update below.
  select * into c from public.competitions where id = p_competition_id;
  perform private.refuse_unless_open_for_entry(c);
  perform private.check_chosen_numbers(c, p_numbers);
  if c.skill_question is not null and nullif(btrim(coalesce(p_answer, '')), '') is null then
    raise exception 'Answer the question to enter' using errcode = 'P0001', hint = 'answer_required';
  end if;
  -- A wrong answer (recorded by public.enter_competition) closes the question to this player for
  -- skill_answer_cooldown_minutes, whatever they answer now.
  if c.skill_question is not null then
    retry_at := private.skill_answer_retry_at(p_user, c.id);
    if retry_at is not null then
      raise exception 'You gave a wrong answer. You can try again at %', private.london_time_text(retry_at)
        using errcode = 'P0001', hint = 'skill_answer_cooldown';
    end if;
  end if;
  if not private.answer_is_correct(c, p_answer) then
    raise exception 'That answer is not correct' using errcode = 'P0001', hint = 'answer_incorrect';
  end if;

  -- The per-person cap counts every ticket the player holds, online and postal.
  select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = p_user;
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
  block := private.play_block(p_user);
  if block is not null then
    perform private.raise_refusal(block ->> 'code', block ->> 'message');
  end if;
  left_this_month := private.spend_left(p_user);
  if left_this_month is not null then
    if cost > left_this_month then
      raise exception 'This entry would take you over your monthly limit: % left to spend on entries this month', private.format_gbp(left_this_month)
        using errcode = 'P0001', hint = 'monthly_limit_reached';
    end if;
  end if;
  if acct.credits < cost then
    raise exception 'Not enough credit: you need % more', private.format_gbp(cost - acct.credits) using errcode = 'P0001', hint = 'insufficient_credit';
  end if;
  -- Code of practice 1.3: credit bought by credit card is never spent on instant wins (post_ledger
  -- spends other credit first, so this entry then takes none of it).
  if c.instant_win_commitment is not null and acct.credits - acct.card_credit < cost then
    raise exception 'Credit bought by credit card cannot be spent on instant-win competitions: you have % of other credit and need % more',
      private.format_gbp(acct.credits - acct.card_credit), private.format_gbp(cost - (acct.credits - acct.card_credit))
      using errcode = 'P0001', hint = 'instant_win_card_credit';
  end if;

  -- The debit with the totals (one account update), the audit row and the receipt's opening, before the
  -- competition row.
  new_balance := private.post_ledger(p_user, 'entry', -cost,
    format('Entry: %s (%s %s)', c.title, p_quantity, case when p_quantity = 1 then 'ticket' else 'tickets' end),
    'entry:' || new_entry, null, cost, p_quantity);
  perform private.log_activity('competition.entered', c.id,
    jsonb_build_object('entry_id', new_entry, 'quantity', p_quantity, 'amount', cost, 'user_id', p_user));
  receipt_head := format(E'Thank you for entering %s.\n\nYour ticket numbers: ', c.title);

  -- The competition row, last: the counter takes the tickets only if they are still there
  -- and the competition is still live. The last ticket ends online sales at once; the draw
  -- still waits for its time (code of practice 1.9, 2.4).
  -- Entries take turns in the counter queue first, so the row is never contended by them,
  -- and the numbers are taken in turn too (private.take_ticket_numbers).
  perform private.queue_for_competition_counter(c.id);
  update public.competitions
     set tickets_sold = tickets_sold + p_quantity, updated_at = now(),
         status = case when tickets_sold + p_quantity = total_tickets then 'sold_out' else status end,
         closed_at = case when tickets_sold + p_quantity = total_tickets then now() else closed_at end
   where id = c.id and status = 'live' and tickets_sold + p_quantity <= total_tickets
  returning * into c;
  if not found then
    -- Sold out, or too few left, or closed (drawn) since the read above: say which.
    select * into c from public.competitions where id = p_competition_id;
    perform private.refuse_unless_open_for_entry(c);
    raise exception 'Only % tickets left', c.total_tickets - c.tickets_sold using errcode = 'P0001', hint = 'not_enough_tickets';
  end if;
  numbers := private.take_ticket_numbers(c, p_user, p_quantity, p_numbers);
  insert into public.entries (id, competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
  values (new_entry, c.id, p_user, 'paid', p_quantity, c.ticket_price, cost, numbers[1]);
  -- The unique (competition_id, number) is the last word: a number sold twice fails the whole purchase.
  insert into public.tickets (competition_id, number, entry_id, user_id)
  select c.id, n, new_entry, p_user from unnest(numbers) n;
  -- Only an instant-win competition has awards to look for, and only an award can move the balance since the
  -- debit: everything here runs in the counter queue, so other competitions skip both queries.
  if c.instant_win_commitment is null then
    wins := '[]'::jsonb;
  else
    wins := private.award_instant_wins(new_entry);
    -- Read after the awards: a credit instant win raises the balance the receipt and the result show.
    select a.credits into new_balance from public.user_account_data a where a.id = p_user;
  end if;
  receipt_tail := format(E'\nTickets: %s at %s each\nTotal: %s\nCredit left: %s\n\n'
                         'The draw is on %s. It is verifiable: its seed commitment is %s.',
    p_quantity, private.format_gbp(c.ticket_price), private.format_gbp(cost), private.format_gbp(new_balance),
    to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI'), c.seed_commitment);
  perform private.queue_mail(p_user, 'entry_receipt', 'Your entry: ' || c.title,
    receipt_head || private.ticket_numbers_text(numbers) || receipt_tail);

  -- numbers is what was just inserted, ascending (take_ticket_numbers): no second read of tickets while this
  -- purchase still holds the competition's counter queue.
  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(numbers),
    'balance', new_balance,
    'instant_wins', wins);
end;
$$;
comment on function private.enter_competition_for(uuid,uuid,integer,text,integer[]) is 'Buys p_quantity tickets (or the chosen p_numbers on a pick competition) for p_user in one transaction (approval, protections, open check, chosen numbers valid, skill answer, per-user cap over both routes, tickets left, monthly spend limit, credit through the ledger, numbers from private.take_ticket_numbers, totals, instant wins from private.award_instant_wins, then the receipt with the balance after them). Locks the competition''s gate (shared), the account, and the competition row last (the counter update that numbers the tickets). The last ticket ends online sales (sold_out); the draw waits for its time.';
revoke all on function private.enter_competition_for(uuid,uuid,integer,text,integer[]) from public, anon, authenticated, service_role;

create or replace function private.uk_postcode(p_text text) returns text
language sql immutable set search_path = '' as $$
  -- The last postcode-shaped word pair in the address (addresses end with the postcode).
  select x.m[1] || ' ' || x.m[2]
    from regexp_matches(upper(coalesce(p_text, '')), '\m([A-Z]{1,2}[0-9][A-Z0-9]?) ?([0-9][A-Z]{2})\M', 'g')
         with ordinality x (m, i)
   order by x.i desc
   limit 1
$$;
comment on function private.uk_postcode(text) is 'A UK postcode found in an address, normalised with one space ("HG1 2AB"), or null.';
revoke all on function private.uk_postcode(text) from public, anon, authenticated, service_role;

create or replace function private.entry_list_open(c public.competitions) returns boolean
language sql stable set search_path = '' as $$
  select c.status in ('sold_out', 'closed', 'drawn') or (c.status = 'live' and c.closes_at <= now())
$$;
comment on function private.entry_list_open(public.competitions) is 'True once online sales have ended (sold out or past the close) and the competition was not cancelled: the entry list is public from then.';
revoke all on function private.entry_list_open(public.competitions) from public, anon, authenticated, service_role;

--   ticket list      = "ticket_number,ticket_id\n" then "<number>,<ticket uuid>\n" per ticket in number order (UTF-8)
--   ticket_list_hash = SHA-256(ticket list)
--   the derivation is v1's (private.draw_derive) with N = the number of tickets; its result is the
--   winning position (1-based row, header excluded), and the winning number is the number on that row.
create or replace function private.ticket_list_lines(p_competition_id uuid, p_after integer, p_limit integer) returns text
language sql stable security definer set search_path = '' as $$
  select coalesce(string_agg(x.number::text || ',' || x.id::text || E'\n', '' order by x.number), '')
    from (select t.number, t.id from public.tickets t
           where t.competition_id = p_competition_id and t.number > coalesce(p_after, 0)
           order by t.number limit p_limit) x
$$;
comment on function private.ticket_list_lines(uuid,integer,integer) is 'Lines of the v2 ticket list ("number,ticket_id\n") after ticket p_after, at most p_limit (null: all).';
revoke all on function private.ticket_list_lines(uuid,integer,integer) from public, anon, authenticated, service_role;

create or replace function private.ticket_list_hash_v2(p_competition_id uuid) returns bytea
language sql stable security definer set search_path = '' as $$
  select extensions.digest(convert_to('ticket_number,ticket_id' || E'\n' || private.ticket_list_lines(p_competition_id, 0, null), 'UTF8'), 'sha256')
$$;
comment on function private.ticket_list_hash_v2(uuid) is 'SHA-256 of the v2 ticket list CSV of a competition (the bytes get_ticket_list_csv serves).';
revoke all on function private.ticket_list_hash_v2(uuid) from public, anon, authenticated, service_role;

create or replace function private.entry_list_competition(p_slug text) returns public.competitions
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where slug = lower(btrim(coalesce(p_slug, '')));
  if not found or c.status = 'draft' then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if c.status = 'cancelled' then
    raise exception 'This competition was cancelled, so it has no entry list' using errcode = 'P0001', hint = 'entry_list_not_available';
  end if;
  if not private.entry_list_open(c) then
    raise exception 'The entry list is published when online sales end, on %',
      to_char(c.closes_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI')
      using errcode = 'P0001', hint = 'entry_list_not_available';
  end if;
  return c;
end;
$$;
comment on function private.entry_list_competition(text) is 'The competition whose entry list is asked for, or the reason it is not public (unknown, draft, cancelled, or still selling online).';
revoke all on function private.entry_list_competition(text) from public, anon, authenticated, service_role;

create type public.entry_list_row as (number integer, ticket_id uuid, entrant text, town text, route text);
comment on type public.entry_list_row is 'One ticket of a public entry list: its number and id, the entrant''s public name and town (or "Postal entry"), and its route (online or postal).';

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

create type public.entry_list_draw as (id uuid, algorithm text, ticket_list_hash text);
comment on type public.entry_list_draw is 'The draw over an entry list: its algorithm and the hash of the ticket list it drew from.';

create type public.entry_list_summary as (id uuid, slug text, title text, status public.competition_status, closes_at timestamp with time zone, postal_deadline timestamp with time zone, draw_at timestamp with time zone, total_tickets integer, tickets_sold integer, postal_tickets integer);
comment on type public.entry_list_summary is 'The competition an entry list belongs to: its dates and ticket counts.';

create type public.entry_list_page as (competition public.entry_list_summary, draw public.entry_list_draw, ticket_count integer, rows public.entry_list_row[], has_before boolean, has_after boolean);
comment on type public.entry_list_page is 'One page of a public entry list: the competition, its draw once drawn, every ticket''s count, the page''s rows and whether there are pages before and after.';

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
       from public.draws d where d.competition_id = c.id and d.prize_position = 1),
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

create type public.csv_chunk as (csv text, last_number integer, done boolean);
comment on type public.csv_chunk is 'One chunk of a CSV read in ticket order: its lines (the header in the first chunk only), the last ticket number in it (null when empty) and whether it is the last chunk.';

create or replace function public.get_ticket_list_csv(p_slug text, p_after integer default 0, p_limit integer default 100000) returns public.csv_chunk
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions := private.entry_list_competition(p_slug);
  chunk integer := least(greatest(coalesce(p_limit, 100000), 1), 100000);
  after_no integer := greatest(coalesce(p_after, 0), 0);
  last_no integer;
begin
  select max(x.number) into last_no
    from (select t.number from public.tickets t where t.competition_id = c.id and t.number > after_no
           order by t.number limit chunk) x;
  return row(
    case when after_no = 0 then 'ticket_number,ticket_id' || E'\n' else '' end
      || private.ticket_list_lines(c.id, after_no, chunk),
    last_no,
    last_no is null or not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number > last_no)
  )::public.csv_chunk;
end;
$$;
comment on function public.get_ticket_list_csv(text,integer,integer) is 'Public, once online sales end: a chunk of the ticket-list CSV (the header only in the first chunk, p_after = 0). Concatenating the chunks until done gives the exact bytes whose SHA-256 is the v2 draw''s ticket_list_hash.';
revoke all on function public.get_ticket_list_csv(text,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.get_ticket_list_csv(text,integer,integer) to anon;
grant execute on function public.get_ticket_list_csv(text,integer,integer) to authenticated;
grant execute on function public.get_ticket_list_csv(text,integer,integer) to service_role;

create or replace function public.get_entrants_csv(p_slug text, p_after integer default 0, p_limit integer default 100000) returns public.csv_chunk
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions := private.entry_list_competition(p_slug);
  chunk_size integer := least(greatest(coalesce(p_limit, 100000), 1), 100000);
  after_no integer := greatest(coalesce(p_after, 0), 0);
  lines text;
  last_no integer;
begin
  -- Each entrant's public name and town are worked out (and CSV-quoted) once per person in
  -- the chunk, not once per ticket: a chunk is mostly a few people's runs of tickets.
  with chunk as (
    select t.number, t.id, t.user_id, e.kind
      from public.tickets t
      join public.entries e on e.id = t.entry_id
     where t.competition_id = c.id and t.number > after_no
     order by t.number
     limit chunk_size
  ), people as (
    select p.id,
           private.csv_field(private.public_name(p.name, p.show_initials_only)) as entrant,
           case when p.show_initials_only then '' else private.csv_field(p.town) end as town
      from public.profiles p
     where p.id in (select distinct k.user_id from chunk k where k.kind = 'paid')
  )
  select coalesce(string_agg(k.number::text || ',' || k.id::text || ',' ||
                             case when k.kind = 'postal' then 'Postal entry,,postal'
                                  else coalesce(pp.entrant, 'A LabCash player') || ',' || coalesce(pp.town, '') || ',online' end
                             || E'\n', '' order by k.number), ''),
         max(k.number)
    into lines, last_no
    from chunk k
    left join people pp on pp.id = k.user_id and k.kind = 'paid';
  return row(
    case when after_no = 0 then 'ticket_number,ticket_id,entrant,town,route' || E'\n' else '' end || lines,
    last_no,
    last_no is null or not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number > last_no)
  )::public.csv_chunk;
end;
$$;
comment on function public.get_entrants_csv(text,integer,integer) is 'Public, once online sales end: a chunk of the entrants CSV (ticket number, ticket id, public name, town, route), joined to the ticket list by ticket id. Names never enter the draw''s inputs.';
revoke all on function public.get_entrants_csv(text,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.get_entrants_csv(text,integer,integer) to anon;
grant execute on function public.get_entrants_csv(text,integer,integer) to authenticated;
grant execute on function public.get_entrants_csv(text,integer,integer) to service_role;

create or replace function public.admin_competition_entries_csv(p_id uuid, p_after integer default 0, p_limit integer default 10000)
returns public.csv_chunk
language plpgsql stable security definer set search_path = '' as $$
declare
  chunk integer := least(greatest(coalesce(p_limit, 10000), 1), 10000);
  after_no integer := greatest(coalesce(p_after, 0), 0);
  lines text;
  last_no integer;
begin
  perform private.require_admin();
  if not exists (select 1 from public.competitions c where c.id = p_id) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  -- first_ticket is unique within a competition (ticket numbers are), so it pages the entries.
  with page as (
    select e.id, e.created_at, e.kind, e.status, e.first_ticket, e.quantity, e.amount, e.user_id,
           coalesce(pe.name, p.name) as person, p.email, pe.address, pe.postcode
      from public.entries e
      left join public.profiles p on p.id = e.user_id
      left join public.postal_entries pe on pe.entry_id = e.id
     where e.competition_id = p_id and e.first_ticket > after_no
     order by e.first_ticket
     limit chunk
  ), runs as (
    -- Every number from public.tickets, never first_ticket arithmetic: chosen numbers are not contiguous.
    -- Consecutive numbers of an entry share number - row_number(), so each group is one run.
    select r.entry_id, min(r.number) as lo, max(r.number) as hi
      from (select t.entry_id, t.number, t.number - row_number() over (partition by t.entry_id order by t.number) as run
              from public.tickets t
             where t.entry_id in (select k.id from page k)) r
     group by r.entry_id, r.run
  ), numbers as (
    -- Every number, and nothing that reads as more: a run of three or more is shortened to "31 to 33" (words,
    -- because a spreadsheet reads "1-50" as January 1950 and "7-9" as 7 September), others are listed, and runs are
    -- joined with ", " so a run cannot run into the next number: "7, 8, 13 to 15, 40" (docs/decisions/047).
    select n.entry_id,
           string_agg(case when n.hi - n.lo >= 2 then n.lo || ' to ' || n.hi
                           when n.hi > n.lo then n.lo || ', ' || n.hi
                           else n.lo::text end, ', ' order by n.lo) as list
      from runs n
     group by n.entry_id
  )
  select coalesce(string_agg(concat_ws(',',
             x.id::text,
             to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
             case when x.kind = 'postal' then 'postal' else 'online' end,
             x.status,
             private.csv_field(nb.list),
             x.quantity::text,
             x.amount::text,
             coalesce(x.user_id::text, ''),
             private.csv_field(coalesce(x.person, '')),
             private.csv_field(coalesce(x.email, '')),
             private.csv_field(coalesce(x.address, '')),
             private.csv_field(coalesce(x.postcode, ''))) || E'\n', '' order by x.first_ticket), ''),
         max(x.first_ticket)
    into lines, last_no
    from page x
    left join numbers nb on nb.entry_id = x.id;
  return row(
    case when after_no = 0
         then 'entry_id,created_at,route,status,ticket_numbers,tickets,amount,user_id,name,email,postal_address,postcode' || E'\n'
         else '' end || lines,
    last_no,
    last_no is null
      or not exists (select 1 from public.entries e where e.competition_id = p_id and e.first_ticket > last_no)
  )::public.csv_chunk;
end;
$$;
comment on function public.admin_competition_entries_csv(uuid,integer,integer) is 'Admins: a chunk of a competition''s entries as CSV (one line per order or postal entry: id, time (UTC), route, status, every ticket number ("7, 8, 13 to 15": runs of three or more shortened), the count, amount, the buyer''s id, name and e-mail, the postal address), in ticket order after first ticket p_after; the header in the first chunk only. Any state, drafts and cancelled ones included.';
revoke all on function public.admin_competition_entries_csv(uuid,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_entries_csv(uuid,integer,integer) to authenticated;
grant execute on function public.admin_competition_entries_csv(uuid,integer,integer) to service_role;

create or replace function private.refuse_unless_open_for_entry(c public.competitions) returns void
language plpgsql stable set search_path = '' as $$
begin
  if c.id is null or c.status = 'draft' then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
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
end;
$$;
comment on function private.refuse_unless_open_for_entry(public.competitions) is 'Raises the reason a competition row (null when missing) cannot take online entries now, if any.';
revoke all on function private.refuse_unless_open_for_entry(public.competitions) from public, anon, authenticated, service_role;

create or replace function private.skill_answer_cooldown() returns interval
language sql stable set search_path = '' as $$
  select make_interval(mins => coalesce((private.setting('skill_answer_cooldown_minutes') #>> '{}')::integer, 10))
$$;
comment on function private.skill_answer_cooldown() is 'How long a wrong skill answer closes the question to the player (the skill_answer_cooldown_minutes setting; 10 minutes when unset).';
revoke all on function private.skill_answer_cooldown() from public, anon, authenticated, service_role;

create or replace function private.skill_answer_retry_at(p_user uuid, p_competition_id uuid) returns timestamptz
language sql stable set search_path = '' as $$
  select m.missed_at + private.skill_answer_cooldown()
    from public.skill_answer_misses m
   where m.user_id = p_user and m.competition_id = p_competition_id
     and m.missed_at + private.skill_answer_cooldown() > now()
$$;
comment on function private.skill_answer_retry_at(uuid,uuid) is 'When the player may answer this competition''s question again after a wrong answer, or null when they may now.';
revoke all on function private.skill_answer_retry_at(uuid,uuid) from public, anon, authenticated, service_role;

create or replace function private.record_skill_miss(p_user uuid, p_competition_id uuid) returns void
language sql security definer set search_path = '' as $$
  insert into public.skill_answer_misses as m (user_id, competition_id, missed_at)
  values (p_user, p_competition_id, now())
  on conflict (user_id, competition_id) do update set missed_at = excluded.missed_at, misses = m.misses + 1
$$;
comment on function private.record_skill_miss(uuid,uuid) is 'Records a wrong skill answer of p_user in p_competition_id now (the question closes to them for skill_answer_cooldown_minutes).';
revoke all on function private.record_skill_miss(uuid,uuid) from public, anon, authenticated, service_role;
