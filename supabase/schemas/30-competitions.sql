-- ============================================================================
-- Competitions: competitions, entries, tickets, postal entries, draws, prizes, images.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables
-- ----------------------------------------------------------------------------

create table public.competitions (
  id uuid default gen_random_uuid() not null,
  slug text not null,
  title text not null,
  summary text default ''::text not null,
  description text default ''::text not null,
  prize_description text not null,
  prize_value numeric(12,2) not null,
  images text[] default '{}'::text[] not null,
  ticket_price numeric(12,2) not null,
  total_tickets integer not null,
  max_tickets_per_user integer not null,
  tickets_sold integer default 0 not null,
  opens_at timestamp with time zone default now() not null,
  closes_at timestamp with time zone not null,
  skill_question text,
  skill_options text[],
  skill_answer text,
  status public.competition_status default 'draft'::public.competition_status not null,
  seed_commitment text,
  external_randomness jsonb,
  published_at timestamp with time zone,
  closed_at timestamp with time zone,
  cancelled_at timestamp with time zone,
  cancel_reason text,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  postal_deadline timestamp with time zone,
  draw_at timestamp with time zone,
  cash_alternative numeric(12,2),
  postal_tickets integer default 0 not null,
  ticket_numbering public.ticket_numbering default 'in_order'::public.ticket_numbering not null,
  instant_win_commitment text,
  constraint competitions_pkey primary key (id),
  constraint competitions_slug_key unique (slug),
  constraint competitions_cash_alternative_check check (((cash_alternative IS NULL) OR (cash_alternative > (0)::numeric))),
  constraint competitions_check check ((closes_at > opens_at)),
  constraint competitions_check1 check ((max_tickets_per_user <= total_tickets)),
  constraint competitions_check2 check ((tickets_sold <= total_tickets)),
  constraint competitions_check3 check ((((skill_question IS NULL) AND (skill_options IS NULL) AND (skill_answer IS NULL)) OR ((skill_question IS NOT NULL) AND ((cardinality(skill_options) >= 2) AND (cardinality(skill_options) <= 6)) AND (skill_answer = ANY (skill_options))))),
  constraint competitions_check4 check (((status = 'draft'::public.competition_status) OR (seed_commitment IS NOT NULL))),
  constraint competitions_dates_fixed_check check (((status = 'draft'::public.competition_status) OR ((postal_deadline IS NOT NULL) AND (draw_at IS NOT NULL)))),
  constraint competitions_description_check check ((char_length(description) <= 5000)),
  constraint competitions_draw_at_check check (((draw_at IS NULL) OR (draw_at >= COALESCE(postal_deadline, closes_at)))),
  constraint competitions_instant_win_commitment_check check (instant_win_commitment ~ '^[0-9a-f]{64}$'),
  constraint competitions_images_check check ((cardinality(images) <= 10)),
  constraint competitions_max_tickets_per_user_check check ((max_tickets_per_user >= 1)),
  constraint competitions_postal_deadline_check check (((postal_deadline IS NULL) OR (postal_deadline >= closes_at))),
  constraint competitions_postal_tickets_check check ((postal_tickets >= 0)),
  constraint competitions_prize_description_check check (((char_length(prize_description) >= 1) AND (char_length(prize_description) <= 2000))),
  constraint competitions_prize_value_check check ((prize_value >= (0)::numeric)),
  constraint competitions_seed_commitment_check check ((seed_commitment ~ '^[0-9a-f]{64}$'::text)),
  constraint competitions_skill_question_check check ((char_length(skill_question) <= 300)),
  constraint competitions_slug_check check (((slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'::text) AND (char_length(slug) <= 80))),
  constraint competitions_summary_check check ((char_length(summary) <= 300)),
  constraint competitions_ticket_price_check check ((ticket_price >= 0.25)),
  constraint competitions_tickets_sold_check check ((tickets_sold >= 0)),
  constraint competitions_title_check check (((char_length(title) >= 3) AND (char_length(title) <= 120))),
  constraint competitions_total_tickets_check check (((total_tickets >= 1) AND (total_tickets <= 1000000))),
  constraint competitions_created_by_fkey foreign key (created_by) references auth.users(id) on delete set null
) with (fillfactor=50);
alter table public.competitions enable row level security;
comment on table public.competitions is 'Prize competitions. status: draft -> live -> sold_out / closed -> drawn, or cancelled. skill_answer is never readable by API roles; seed_commitment is the SHA-256 of the secret draw seed.';
comment on column public.competitions.tickets_sold is 'Online tickets sold (the pool of total_tickets). Postal tickets are counted in postal_tickets.';
comment on column public.competitions.postal_deadline is 'Postal entries are accepted until this moment (at or after closes_at). Null in a draft means the default: postal_window_working_days after the close.';
comment on column public.competitions.draw_at is 'When the draw happens (at or after the postal deadline). Null in a draft means the postal deadline. Fixed at publish.';
comment on column public.competitions.cash_alternative is 'Optional cash the winner may take instead of the prize (pounds), shown before entry.';
comment on column public.competitions.instant_win_commitment is 'SHA-256 of the canonical instant-win list (seed and numbers), published at publish with the seed commitment; null when the competition has no instant wins.';
comment on column public.competitions.postal_tickets is 'Tickets given to postal entries, numbered total_tickets + 1 onwards, outside the online pool.';
comment on column public.competitions.ticket_numbering is 'in_order: online tickets numbered 1..N in purchase order; pick: players choose numbers from 1..N or take a lucky dip. Fixed at publish.';
revoke all on table public.competitions from public, anon, authenticated, service_role;
grant all on table public.competitions to service_role;
grant select (id, slug, title, summary, description, prize_description, prize_value, images, ticket_price, total_tickets, max_tickets_per_user, tickets_sold, opens_at, closes_at, skill_question, skill_options, status, seed_commitment, external_randomness, published_at, closed_at, cancelled_at, cancel_reason, created_at, updated_at, postal_deadline, draw_at, cash_alternative, postal_tickets, ticket_numbering, instant_win_commitment) on table public.competitions to anon, authenticated;

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
  constraint entries_check check (((kind = 'paid'::public.entry_kind) OR (amount = (0)::numeric))),
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
  constraint draws_pkey primary key (id),
  constraint draws_competition_id_key unique (competition_id),
  constraint draws_counter_check check ((counter >= 0)),
  constraint draws_delivery_address_check check (((delivery_address IS NULL) OR ((char_length(delivery_address) >= 5) AND (char_length(delivery_address) <= 500)))),
  constraint draws_external_hex_check check ((external_hex ~ '^([0-9a-f]{2})+$'::text)),
  constraint draws_fulfilment_note_check check (((fulfilment_note IS NULL) OR (char_length(fulfilment_note) <= 2000))),
  constraint draws_prize_fulfilment_steps check (
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
comment on table public.draws is 'One row per drawn competition (unique: a competition is drawn once) with every input needed to recompute the winner, the seed included (it exists only after the draw).';
comment on column public.draws.prize_status is 'awaiting_claim -> claimed (claimed_at) -> verified (verified_at) -> delivered (delivered_at, proof_of_delivery); see draws_prize_fulfilment_steps.';
comment on column public.draws.winning_position is 'labcash-draw-v2: the winning row of the ticket list (1-based); winning_number is the ticket number on it.';
comment on column public.draws.prize_choice is 'The winner''s choice when claiming: the prize, or its cash alternative.';
comment on column public.draws.fulfilment_note is 'Admins'' notes on the prize''s fulfilment (ID checked, courier booked, winner''s wishes); never public.';
comment on column public.draws.proof_of_delivery is 'The proof-of-delivery reference (courier tracking number, signed receipt, bank transfer reference), required to mark a prize delivered through admin_update_prize_fulfilment.';
comment on column public.draws.verified_at is 'When an admin marked the claim verified (ID checked); cleared if it goes back to awaiting claim.';
comment on column public.draws.delivered_at is 'When an admin marked the prize (or its cash) delivered.';
comment on column public.draws.delivery_address is 'Where the winner wants the prize sent (their claim); null for cash or before the claim. Admins and the winner only.';
comment on constraint draws_prize_fulfilment_steps on public.draws is 'Each prize status has its dates: claimed has claimed_at; verified also verified_at; delivered also delivered_at and the proof reference. Awaiting claim has none.';
revoke all on table public.draws from public, anon, authenticated, service_role;
grant all on table public.draws to service_role;
grant select (id, competition_id, algorithm, trigger, ticket_count, ticket_list_hash, seed_commitment, seed_hex, external_randomness, external_hex, counter, winning_number, winning_ticket_id, winner_display_name, winner_town, drawn_at, winning_position) on table public.draws to anon, authenticated;

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
  check ((kind = 'credit') = (credit_amount is not null))
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
  check ((status = 'delivered') = (delivered_at is not null))
);
create index instant_wins_user_id_idx on public.instant_wins (user_id);
create index instant_win_numbers_prize_id_idx on public.instant_win_numbers (prize_id);
create index instant_wins_entry_id_idx on public.instant_wins (entry_id);
create index instant_wins_prize_id_idx on public.instant_wins (prize_id);
alter table public.instant_wins enable row level security;
comment on table public.instant_wins is 'Instant wins awarded, once per ticket (unique ticket and competition + number): credit and spins are awarded at once (awarded); physical prizes, and any prize of a postal entrant with no account, wait for an admin (awaiting_fulfilment -> delivered).';
revoke all on table public.instant_wins from public, anon, authenticated, service_role;
grant all on table public.instant_wins to service_role;

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

create table public.winner_stories (
  draw_id uuid primary key references public.draws (id) on delete cascade,
  consent boolean not null,
  consent_source text not null check (consent_source in ('winner', 'admin')),
  consent_note text check (consent_note is null or char_length(consent_note) between 1 and 500),
  consent_changed_at timestamptz not null default now(),
  consent_changed_by uuid,
  photo_path text check (photo_path ~ '^/media/winner-photos/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp)$'),
  photo_alt text check (photo_alt is null or char_length(photo_alt) between 1 and 200),
  quote text check (quote is null or char_length(quote) between 1 and 280),
  story_updated_at timestamptz,
  story_updated_by uuid,
  -- Consent an admin records was given another way, so it says how.
  check (consent_source = 'winner' or consent_note is not null),
  check ((photo_path is null) = (photo_alt is null))
);
alter table public.winner_stories enable row level security;
comment on table public.winner_stories is 'A draw winner''s consent to publish their photo and quote (who changed it, when, how), and the photo (a winner-photos object''s site path, with its alt text) and quote an admin published. Public answers show them only while consent stands.';
revoke all on table public.winner_stories from public, anon, authenticated, service_role;
grant all on table public.winner_stories to service_role;

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.competition_apply_fields(p_base public.competitions, p jsonb) returns public.competitions
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
    if p ? 'ticket_numbering' then c.ticket_numbering := (p ->> 'ticket_numbering')::public.ticket_numbering; end if;
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
comment on function private.competition_apply_fields(public.competitions,jsonb) is 'Applies the fields present in p to a competition row and validates the result, with a message per problem. Called through competition_apply, which checks the raw fields first.';
revoke all on function private.competition_apply_fields(public.competitions,jsonb) from public, anon, authenticated, service_role;

create or replace function private.format_gbp(p_amount numeric) returns text
language sql immutable set search_path = '' as $$
  select '£' || to_char(p_amount, 'FM999,999,990.00')
$$;
comment on function private.format_gbp(numeric) is 'An amount as pounds for messages, e.g. £1,234.50.';
revoke all on function private.format_gbp(numeric) from public, anon, authenticated, service_role;

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

create or replace function private.competition_row(p_id uuid) returns public.competition
language sql stable security definer set search_path = '' as $$
  select c.id, c.slug, c.title, c.summary, c.description, c.prize_description, c.prize_value, c.cash_alternative,
         c.images, c.ticket_price, c.total_tickets, c.tickets_sold, c.total_tickets - c.tickets_sold,
         c.max_tickets_per_user, c.ticket_numbering, c.opens_at, c.closes_at,
         coalesce(c.postal_deadline, private.default_postal_deadline(c.closes_at)),
         coalesce(c.draw_at, c.postal_deadline, private.default_postal_deadline(c.closes_at)),
         (select count(*) from public.entries e
           where e.competition_id = c.id and e.kind = 'postal' and e.status = 'active'),
         c.postal_tickets,
         private.stamp_parity(c.ticket_price, c.max_tickets_per_user),
         (private.setting('stamp_price') #>> '{}')::numeric,
         private.entry_list_open(c),
         c.status,
         c.status = 'live' and c.opens_at <= now() and c.closes_at > now() and c.tickets_sold < c.total_tickets,
         c.skill_question, c.skill_options, c.seed_commitment, c.external_randomness, c.published_at, c.closed_at,
         c.cancelled_at, c.cancel_reason,
         (select row(d.id, d.algorithm, d.winning_number, d.winner_display_name, d.winner_town, d.ticket_count,
                     d.drawn_at, private.winner_story_json(d.id))::public.competition_draw
            from public.draws d where d.competition_id = c.id)
    from public.competitions c
   where c.id = p_id
$$;
comment on function private.competition_row(uuid) is 'A competition as the public pages show it (never the skill answer); null when there is no such competition.';
revoke all on function private.competition_row(uuid) from public, anon, authenticated, service_role;

-- The admin calls answer the public fields and their own; the public row is built once (a lateral call).
create or replace function private.admin_competition_row(p_id uuid) returns public.admin_competition
language sql stable set search_path = '' as $$
  select row(r.*, c.skill_answer, c.created_by, c.created_at, c.updated_at,
             (select count(*) from public.entries e where e.competition_id = c.id and e.status = 'active'),
             (select count(*) from public.postal_entries pe
                join public.entries e on e.id = pe.entry_id
               where pe.competition_id = c.id and e.status = 'active'),
             (select coalesce(sum(e.amount), 0) from public.entries e where e.competition_id = c.id and e.status = 'active'),
             d.prize_status, d.prize_choice)::public.admin_competition
    from public.competitions c
    cross join lateral private.competition_row(c.id) r
    left join public.draws d on d.competition_id = c.id
   where c.id = p_id
$$;
comment on function private.admin_competition_row(uuid) is 'A competition as the admin calls answer it: public.competition''s fields, the skill answer and the admin figures; null when there is no such competition.';
revoke all on function private.admin_competition_row(uuid) from public, anon, authenticated, service_role;

create or replace function private.competition_apply(p_base public.competitions, p jsonb) returns public.competitions
language plpgsql stable set search_path = '' as $$
declare
  amount record;
  date_field text;
  img text;
begin
  if p is not null and jsonb_typeof(p) = 'object' then
    for amount in
      select * from (values
        ('prize_value', 'Prize value must be an amount in pounds and pence'),
        ('ticket_price', 'Ticket price must be from £0.25 to £10,000, in pounds and pence'),
        ('cash_alternative', 'The cash alternative must be an amount in pounds and pence, above £0')
      ) as fields(name, message)
    loop
      -- A plain decimal (what else is sent is left to the casts, which explain themselves).
      if (p ->> amount.name) ~ '^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)\s*$'
         and not private.is_pounds((p ->> amount.name)::numeric) then
        raise exception '%', amount.message using errcode = '22023', hint = 'invalid_input';
      end if;
      if lower(btrim(p ->> amount.name)) in ('nan', 'infinity', '+infinity', '-infinity', 'inf', '+inf', '-inf') then
        raise exception '%', amount.message using errcode = '22023', hint = 'invalid_input';
      end if;
    end loop;
    foreach date_field in array array['opens_at', 'closes_at', 'postal_deadline', 'draw_at'] loop
      if lower(btrim(p ->> date_field)) in ('infinity', '+infinity', '-infinity') then
        raise exception 'Give a real date and time, not infinity' using errcode = '22023', hint = 'invalid_input';
      end if;
    end loop;
    if jsonb_typeof(p -> 'images') = 'array' then
      for img in select jsonb_array_elements_text(p -> 'images') loop
        -- A backslash reads as a slash in a browser; spaces and control characters are dropped.
        if img ~ '[\\[:cntrl:][:space:]]' then
          raise exception 'Image addresses must start with / or https://' using errcode = '22023', hint = 'invalid_input';
        end if;
      end loop;
    end if;
  end if;
  return private.competition_apply_fields(p_base, p);
end;
$$;
comment on function private.competition_apply(public.competitions,jsonb) is 'Applies the fields present in p to a competition row and validates the result: the amounts as sent (no third decimal, no NaN or infinity), real dates, image addresses without backslashes or spaces; then competition_apply_fields.';
revoke all on function private.competition_apply(public.competitions,jsonb) from public, anon, authenticated, service_role;

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

create or replace function public.list_competitions(p_status text DEFAULT NULL::text)
 RETURNS SETOF public.competition
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if p_status is not null and p_status not in ('live', 'sold_out', 'closed', 'drawn', 'cancelled') then
    raise exception 'Unknown status: %', p_status using errcode = '22023', hint = 'invalid_input';
  end if;
  return query
    select cr.*
      from public.competitions c
     cross join lateral private.competition_row(c.id) cr
     where c.status <> 'draft' and (p_status is null or c.status = p_status::public.competition_status)
     order by (c.status = 'live') desc,
              case when c.status = 'live' then c.closes_at end asc,
              c.closes_at desc;
end;
$function$;
comment on function public.list_competitions(text) is 'Public: published competitions (never drafts), live ones first by closing soonest; optionally one status.';
revoke all on function public.list_competitions(text) from public, anon, authenticated, service_role;
grant execute on function public.list_competitions(text) to anon;
grant execute on function public.list_competitions(text) to authenticated;
grant execute on function public.list_competitions(text) to service_role;

create or replace function public.get_competition(p_slug text) returns public.competition_page
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  uid uuid := auth.uid();
  mine integer[];
begin
  select * into c from public.competitions where slug = lower(btrim(p_slug));
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if uid is not null then
    select coalesce(array_agg(t.number order by t.number), '{}') into mine
      from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  end if;
  return (select row(cr.*, mine, private.ticket_bundles(c))::public.competition_page
            from private.competition_row(c.id) cr);
end;
$$;
comment on function public.get_competition(text) is 'Public: one published competition by slug (admins may preview drafts): question and options but never the answer, the seed commitment, sold count, the draw once drawn, the ticket bundles with their costs, and the caller''s own ticket numbers (null when signed out).';
revoke all on function public.get_competition(text) from public, anon, authenticated, service_role;
grant execute on function public.get_competition(text) to anon;
grant execute on function public.get_competition(text) to authenticated;
grant execute on function public.get_competition(text) to service_role;

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

create or replace function public.admin_list_competitions() returns setof public.admin_competition
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return query
    select a.* from public.competitions c
     cross join lateral private.admin_competition_row(c.id) a
     order by c.created_at desc;
end;
$$;
comment on function public.admin_list_competitions() is 'Admins: every competition, drafts included, newest first, with the skill answer and entry figures.';
revoke all on function public.admin_list_competitions() from public, anon, authenticated, service_role;
grant execute on function public.admin_list_competitions() to authenticated;
grant execute on function public.admin_list_competitions() to service_role;

create or replace function public.admin_get_competition(p_id uuid) returns public.admin_competition
language plpgsql stable security definer set search_path = '' as $$
declare
  result public.admin_competition;
begin
  perform private.require_admin();
  result := private.admin_competition_row(p_id);
  if result.id is null then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  return result;
end;
$$;
comment on function public.admin_get_competition(uuid) is 'Admins: one competition by id with the admin fields (for the edit page).';
revoke all on function public.admin_get_competition(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_get_competition(uuid) to authenticated;
grant execute on function public.admin_get_competition(uuid) to service_role;

create or replace function public.admin_create_competition(p jsonb) returns public.admin_competition
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
  c.ticket_numbering := 'in_order';
  c := private.competition_apply(c, p);
  c := private.competition_apply_fair_play(c, p);
  perform private.competition_check_dates(c);
  begin
    insert into public.competitions (id, slug, title, summary, description, prize_description, prize_value, images,
                                     ticket_price, total_tickets, max_tickets_per_user, opens_at, closes_at,
                                     postal_deadline, draw_at, cash_alternative,
                                     skill_question, skill_options, skill_answer, ticket_numbering, status, created_by)
    values (c.id, c.slug, c.title, c.summary, c.description, c.prize_description, c.prize_value, c.images,
            c.ticket_price, c.total_tickets, c.max_tickets_per_user, c.opens_at, c.closes_at,
            c.postal_deadline, c.draw_at, c.cash_alternative,
            c.skill_question, c.skill_options, c.skill_answer, c.ticket_numbering, 'draft', admin_id);
  exception when unique_violation then
    raise exception 'The address "%" is already used by another competition', c.slug using errcode = '22023', hint = 'slug_taken';
  end;
  perform private.log_activity('competition.created', c.id, jsonb_build_object('title', c.title));
  return private.admin_competition_row(c.id);
end;
$$;
comment on function public.admin_create_competition(jsonb) is 'Admins: creates a draft competition from {title, slug?, summary?, description?, prize_description, prize_value, cash_alternative?, images[], ticket_price, total_tickets, max_tickets_per_user, opens_at?, closes_at, postal_deadline? (default 2 working days after the close), draw_at? (default the postal deadline), skill_question?, skill_options[]?, skill_answer?, ticket_numbering? (in_order or pick; default in_order)}.';
revoke all on function public.admin_create_competition(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_create_competition(jsonb) to authenticated;
grant execute on function public.admin_create_competition(jsonb) to service_role;

create or replace function public.admin_update_competition(p_id uuid, p jsonb) returns public.admin_competition
language plpgsql security definer set search_path = '' as $$
declare
  prev public.competitions%rowtype;
  c public.competitions;
begin
  perform private.require_admin();
  -- The gate first: no entry is in flight while the price, cap or question change, so an
  -- entry's unlocked read of them holds until it commits.
  perform private.hold_competition_gate(p_id);
  select * into prev from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if prev.status not in ('draft', 'live') then
    raise exception 'This competition can no longer be edited' using errcode = 'P0001', hint = 'edit_not_allowed';
  end if;
  c := private.competition_apply(prev, p);
  c := private.competition_apply_fair_play(c, p);
  if prev.status = 'live' then
    if c.slug <> prev.slug then
      raise exception 'The address (slug) cannot change once the competition is live' using errcode = 'P0001', hint = 'edit_not_allowed';
    end if;
    -- Code of practice 1.9 and 2.4, CAP 8.17.4: dates are fixed at publish, never extended or brought forward.
    if (c.opens_at, c.closes_at, c.postal_deadline, c.draw_at)
       is distinct from (prev.opens_at, prev.closes_at, prev.postal_deadline, prev.draw_at) then
      raise exception 'The dates are fixed once a competition is published' using errcode = 'P0001', hint = 'edit_not_allowed';
    end if;
    -- Players may already hold or have bought chosen numbers: the numbering is a term of entry.
    if c.ticket_numbering <> prev.ticket_numbering then
      raise exception 'How tickets are numbered is fixed once a competition is published' using errcode = 'P0001', hint = 'edit_not_allowed';
    end if;
    -- The instant-win numbers were derived over 1..total_tickets at publish.
    if prev.instant_win_commitment is not null and c.total_tickets <> prev.total_tickets then
      raise exception 'Instant wins are fixed once a competition is published, and with them the number of tickets'
        using errcode = 'P0001', hint = 'instant_wins_locked';
    end if;
    if prev.tickets_sold > 0 or prev.postal_tickets > 0 then
      if (c.ticket_price, c.total_tickets, c.max_tickets_per_user, c.skill_question, c.skill_options, c.skill_answer, c.cash_alternative)
         is distinct from
         (prev.ticket_price, prev.total_tickets, prev.max_tickets_per_user, prev.skill_question, prev.skill_options, prev.skill_answer, prev.cash_alternative) then
        raise exception 'Tickets have been sold: only the wording, prize details and images can change' using errcode = 'P0001', hint = 'edit_not_allowed';
      end if;
    end if;
  end if;
  perform private.competition_check_dates(c);
  begin
    update public.competitions
       set slug = c.slug, title = c.title, summary = c.summary, description = c.description,
           prize_description = c.prize_description, prize_value = c.prize_value, images = c.images,
           cash_alternative = c.cash_alternative,
           ticket_price = c.ticket_price, total_tickets = c.total_tickets, max_tickets_per_user = c.max_tickets_per_user,
           opens_at = c.opens_at, closes_at = c.closes_at, postal_deadline = c.postal_deadline, draw_at = c.draw_at,
           skill_question = c.skill_question, skill_options = c.skill_options, skill_answer = c.skill_answer,
           ticket_numbering = c.ticket_numbering, updated_at = now()
     where id = p_id;
  exception when unique_violation then
    raise exception 'The address "%" is already used by another competition', c.slug using errcode = '22023', hint = 'slug_taken';
  end;
  perform private.log_activity('competition.updated', p_id, jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p) k)));
  return private.admin_competition_row(p_id);
end;
$$;
comment on function public.admin_update_competition(uuid,jsonb) is 'Admins: changes the fields present in p. Drafts: anything. Live: not the slug, the dates or the ticket numbering; once tickets are sold only wording, prize details and images.';
revoke all on function public.admin_update_competition(uuid,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_competition(uuid,jsonb) to authenticated;
grant execute on function public.admin_update_competition(uuid,jsonb) to service_role;

create or replace function public.admin_publish_competition(p_id uuid, p_external_randomness jsonb default null) returns public.admin_competition
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  the_seed bytea;
  deadline timestamptz;
begin
  perform private.require_admin();
  select * into c from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if c.status <> 'draft' then
    raise exception 'Only a draft can be published' using errcode = 'P0001', hint = 'not_a_draft';
  end if;
  if c.closes_at <= now() then
    raise exception 'The close time must be in the future' using errcode = '22023', hint = 'invalid_input';
  end if;
  deadline := coalesce(c.postal_deadline, private.default_postal_deadline(c.closes_at));
  if deadline < c.closes_at or coalesce(c.draw_at, deadline) < deadline then
    raise exception 'The dates must be in order: close, postal deadline, draw' using errcode = '22023', hint = 'invalid_input';
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
  -- The instant-win numbers come from the same seed, committed with it, before any sale.
  c.instant_win_commitment := private.instant_win_publish(c, the_seed);
  -- The dates are fixed from here on (admin_update_competition refuses to change them).
  update public.competitions
     set status = 'live', seed_commitment = encode(extensions.digest(the_seed, 'sha256'), 'hex'),
         instant_win_commitment = c.instant_win_commitment,
         postal_deadline = deadline, draw_at = coalesce(c.draw_at, deadline),
         external_randomness = p_external_randomness, published_at = now(), updated_at = now()
   where id = p_id;
  perform private.log_activity('competition.published', p_id,
    jsonb_build_object('external_randomness', p_external_randomness ->> 'source', 'instant_wins', c.instant_win_commitment is not null,
                       'closes_at', c.closes_at, 'postal_deadline', deadline, 'draw_at', coalesce(c.draw_at, deadline)));
  return private.admin_competition_row(p_id);
end;
$$;
comment on function public.admin_publish_competition(uuid,jsonb) is 'Admins: makes a draft live, fixing its dates (postal deadline and draw time defaulted), creating its secret seed in the database and publishing the SHA-256 commitment; optional external randomness (drand round or RANDOM.ORG signed result) is fixed here, before any sale.';
revoke all on function public.admin_publish_competition(uuid,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_publish_competition(uuid,jsonb) to authenticated;
grant execute on function public.admin_publish_competition(uuid,jsonb) to service_role;

create or replace function public.admin_cancel_competition(p_id uuid, p_reason text)
 RETURNS public.competition_cancelled
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
  -- The gate first: entries in flight (each holding its player's account) finish, new ones
  -- wait, and the refunds below lock accounts no entry is holding.
  perform private.hold_competition_gate(p_id);
  select * into c from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
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
     set status = (case when kind = 'paid' then 'refunded' else 'void' end)::public.entry_status, refunded_at = now()
   where competition_id = p_id and status = 'active';
  update public.competitions
     set status = 'cancelled', cancelled_at = now(), cancel_reason = btrim(p_reason), updated_at = now()
   where id = p_id;
  perform private.log_activity('competition.cancelled', p_id,
    jsonb_build_object('reason', btrim(p_reason), 'refunded_entries', refunded_entries, 'refunded_total', refunded_total));
  return row(private.admin_competition_row(p_id), refunded_entries, refunded_total)::public.competition_cancelled;
end;
$function$;
comment on function public.admin_cancel_competition(uuid,text) is 'Admins: cancels a competition that is not drawn, refunding every paid entry to credit with its own ledger row, voiding postal entries and e-mailing entrants.';
revoke all on function public.admin_cancel_competition(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_cancel_competition(uuid,text) to authenticated;
grant execute on function public.admin_cancel_competition(uuid,text) to service_role;

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

create or replace function private.draw_pick(p_x bigint, p_ticket_count integer) returns integer
language sql immutable strict set search_path = '' as $$
  select case
    when p_x < 281474976710656 - (281474976710656 % p_ticket_count) then (p_x % p_ticket_count)::integer + 1
  end
$$;
comment on function private.draw_pick(bigint,integer) is 'Rejection sampling step of the draw: the winning number for a 48-bit value, or null when the value falls in the biased tail.';
revoke all on function private.draw_pick(bigint,integer) from public, anon, authenticated, service_role;

create or replace function private.draw_derive(
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
comment on function private.draw_derive(bytea,uuid,bytea,bytea,integer) is 'The deterministic winner (and the counter used) from the draw inputs; see the derivation above.';
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

create or replace function private.display_name(p_name text) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_name is null or btrim(p_name) = '' then 'A LabCash player'
    when array_length(regexp_split_to_array(btrim(p_name), '\s+'), 1) = 1 then btrim(p_name)
    else (regexp_split_to_array(btrim(p_name), '\s+'))[1] || ' '
      || upper(left((regexp_split_to_array(btrim(p_name), '\s+'))[array_length(regexp_split_to_array(btrim(p_name), '\s+'), 1)], 1)) || '.'
  end
$$;
comment on function private.display_name(text) is 'A winner''s public name, first name and last initial ("Priya P.").';
revoke all on function private.display_name(text) from public, anon, authenticated, service_role;

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
comment on function private.draw_competition(uuid,text) is 'Draws a competition once (row lock plus unique draws.competition_id), and only at or after its draw time, over every online and postal ticket (labcash-draw-v2); reveals the seed in the draws row and notifies the winner; a competition with no tickets is closed without a winner.';
revoke all on function private.draw_competition(uuid,text) from public, anon, authenticated, service_role;

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

create or replace function public.list_winners() returns setof public.winner_summary
language sql stable security definer set search_path = '' as $$
  select d.id, c.id, c.slug, c.title, c.prize_description, c.prize_value, c.images[1], d.winner_display_name,
         d.winner_town, d.winning_number, d.ticket_count, d.drawn_at, d.prize_status, d.delivered_at,
         private.winner_story_json(d.id)
    from public.draws d
    join public.competitions c on c.id = d.competition_id
   order by d.drawn_at desc
$$;
comment on function public.list_winners() is 'Public: every draw, newest first: prize, winner''s first name and initial and town (if given), winning ticket, draw time, id for the verification page, and the prize''s progress (status, delivery date; never the winner''s address or the proof); the winner''s photo and quote only while they consent.';
revoke all on function public.list_winners() from public, anon, authenticated, service_role;
grant execute on function public.list_winners() to anon;
grant execute on function public.list_winners() to authenticated;
grant execute on function public.list_winners() to service_role;

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
    -- v1 embeds the ticket ids; v2 is checked against the ticket-list CSV, which may be millions of lines.
    'tickets', case when d.algorithm = 'labcash-draw-v1' then
                 (select coalesce(jsonb_agg(t.id order by t.number), '[]'::jsonb)
                    from public.tickets t where t.competition_id = c.id) end)
  from public.draws d
  join public.competitions c on c.id = d.competition_id
  where d.id = p_draw_id
$$;
comment on function public.get_draw(uuid) is 'Public: every input of one draw for the verification page and the revealed seed. v1: the ticket ids in number order (element i is ticket i + 1). v2: tickets is null (the ticket list is get_ticket_list_csv) and winning_position is the winning row. Null when there is no such draw.';
revoke all on function public.get_draw(uuid) from public, anon, authenticated, service_role;
grant execute on function public.get_draw(uuid) to anon;
grant execute on function public.get_draw(uuid) to authenticated;
grant execute on function public.get_draw(uuid) to service_role;

create or replace function public.admin_update_prize_status(p_draw_id uuid, p_status text) returns public.prize_status_change
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
  return row(moved.id, moved.prize_status, moved.prize_status_updated_at)::public.prize_status_change;
end;
$$;
comment on function public.admin_update_prize_status(uuid,text) is 'Admins: moves a prize to a status by the same rules as admin_update_prize_fulfilment (private.prize_move), keeping its proof reference.';
revoke all on function public.admin_update_prize_status(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_prize_status(uuid,text) to authenticated;
grant execute on function public.admin_update_prize_status(uuid,text) to service_role;

create or replace function private.enter_competition_for(p_user uuid, p_competition_id uuid, p_quantity integer, p_answer text,
                                                       p_numbers integer[] default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  p public.player_protections;
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
  if acct.rejected_at is not null and not acct.approved then
    raise exception 'Your account was not approved, so you cannot enter competitions' using errcode = 'P0001', hint = 'approval_rejected';
  end if;
  if not acct.approved then
    raise exception 'Your account is awaiting approval' using errcode = 'P0001', hint = 'approval_pending';
  end if;

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
  p := private.protections_of(p_user);
  if p.monthly_limit is not null then
    left_this_month := greatest(p.monthly_limit - private.month_spent(p_user), 0);
    if cost > left_this_month then
      raise exception 'This entry would take you over your monthly limit: % left this month', private.format_gbp(left_this_month)
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

-- ----------------------------------------------------------------------------
-- Pick your numbers (issue 25, item 1; DECISIONS.md "Pick your numbers"). On a pick competition a
-- purchase names its numbers (or takes a lucky dip); a basket holds chosen numbers for
-- ticket_hold_time(). Numbers are taken in the counter queue, one purchase at a time, and the
-- unique (competition_id, number) on tickets is the last word.
-- ----------------------------------------------------------------------------

create or replace function private.ticket_hold_time() returns interval
language sql immutable set search_path = '' as $$
  select interval '10 minutes'
$$;
comment on function private.ticket_hold_time() is 'How long a basket holds chosen numbers after its last change: long enough to top up and answer the question, short enough that an abandoned basket frees its numbers soon.';
revoke all on function private.ticket_hold_time() from public, anon, authenticated, service_role;

create or replace function private.random_ticket_number(p_total integer) returns integer
language sql volatile set search_path = '' as $$
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
language plpgsql volatile set search_path = '' as $$
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
language plpgsql volatile set search_path = '' as $$
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
      where h.competition_id = c.id and h.user_id = p_user and h.expires_at > now()))::public.ticket_number_page;
end;
$$;
comment on function private.ticket_number_page(public.competitions,uuid,integer,integer) is 'Numbers p_from..p_to (at most 1,000) of a competition: sold, held by others, and p_user''s whole basket with its expiry.';
revoke all on function private.ticket_number_page(public.competitions,uuid,integer,integer) from public, anon, authenticated, service_role;

create or replace function public.get_ticket_numbers(p_competition_id uuid, p_from integer, p_to integer)
returns public.ticket_number_page
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where id = p_competition_id;
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
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
  if not found or not acct.approved then
    raise exception 'Your account is awaiting approval' using errcode = 'P0001', hint = 'approval_pending';
  end if;
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

-- The same UK clock time p_days working days later: Saturdays, Sundays and bank
-- holidays are skipped (a Friday-evening close has a Tuesday-evening deadline).
create or replace function private.add_working_days(p_from timestamptz, p_days integer) returns timestamptz
language plpgsql stable security definer set search_path = '' as $$
declare
  local_time timestamp := p_from at time zone 'Europe/London';
  d date := local_time::date;
  counted integer := 0;
begin
  if p_from is null or p_days is null or p_days < 0 then
    return p_from;
  end if;
  while counted < p_days loop
    d := d + 1;
    if extract(isodow from d) < 6 and not exists (select 1 from public.bank_holidays h where h.day = d) then
      counted := counted + 1;
    end if;
  end loop;
  return (d + local_time::time) at time zone 'Europe/London';
end;
$$;
comment on function private.add_working_days(timestamp with time zone,integer) is 'The moment p_days working days (England and Wales: no weekends, no bank holidays) after p_from, at the same UK clock time.';
revoke all on function private.add_working_days(timestamp with time zone,integer) from public, anon, authenticated, service_role;

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

create or replace function private.public_name(p_name text, p_initials_only boolean) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_name is null or btrim(p_name) = '' then 'A LabCash player'
    when p_initials_only then
      (select string_agg(upper(left(w, 1)) || '.', ' ' order by i)
         from unnest(regexp_split_to_array(btrim(p_name), '\s+')) with ordinality x (w, i))
    else private.display_name(p_name)
  end
$$;
comment on function private.public_name(text,boolean) is 'How a player appears in public (winners, entry lists): first name and surname initial ("Priya P."), or initials only ("P. P.") when they chose that.';
revoke all on function private.public_name(text,boolean) from public, anon, authenticated, service_role;

create or replace function private.stamp_parity(p_ticket_price numeric, p_max_per_person integer) returns integer
language sql stable security definer set search_path = '' as $$
  select least(greatest(1, ceil(coalesce((private.setting('stamp_price') #>> '{}')::numeric, 0) / p_ticket_price)::integer),
               p_max_per_person)
$$;
comment on function private.stamp_parity(numeric,integer) is 'Tickets one postal entry gets: as many as a second-class stamp buys at the ticket price, at least one, at most the per-person cap.';
revoke all on function private.stamp_parity(numeric,integer) from public, anon, authenticated, service_role;

create or replace function private.default_postal_deadline(p_closes_at timestamptz) returns timestamptz
language sql stable security definer set search_path = '' as $$
  select private.add_working_days(p_closes_at, coalesce((private.setting('postal_window_working_days') #>> '{}')::integer, 2))
$$;
comment on function private.default_postal_deadline(timestamp with time zone) is 'The postal deadline a competition gets unless the admin sets one: postal_window_working_days working days after the close.';
revoke all on function private.default_postal_deadline(timestamp with time zone) from public, anon, authenticated, service_role;

create or replace function private.entry_list_open(c public.competitions) returns boolean
language sql stable set search_path = '' as $$
  select c.status in ('sold_out', 'closed', 'drawn') or (c.status = 'live' and c.closes_at <= now())
$$;
comment on function private.entry_list_open(public.competitions) is 'True once online sales have ended (sold out or past the close) and the competition was not cancelled: the entry list is public from then.';
revoke all on function private.entry_list_open(public.competitions) from public, anon, authenticated, service_role;

-- Applies postal_deadline, draw_at and cash_alternative from p (after
-- competition_apply has applied the rest); competition_check_dates checks them.
create or replace function private.competition_apply_fair_play(p_base public.competitions, p jsonb) returns public.competitions
language plpgsql stable set search_path = '' as $$
declare
  c public.competitions := p_base;
begin
  begin
    if p ? 'postal_deadline' then c.postal_deadline := (p ->> 'postal_deadline')::timestamptz; end if;
    if p ? 'draw_at' then c.draw_at := (p ->> 'draw_at')::timestamptz; end if;
    if p ? 'cash_alternative' then c.cash_alternative := (p ->> 'cash_alternative')::numeric; end if;
  exception
    when invalid_text_representation or invalid_datetime_format or datetime_field_overflow or numeric_value_out_of_range then
      raise exception 'Check the competition fields: %', sqlerrm using errcode = '22023', hint = 'invalid_input';
  end;
  if c.cash_alternative is not null and (c.cash_alternative <= 0 or c.cash_alternative <> round(c.cash_alternative, 2)
                                         or c.cash_alternative > 9999999999) then
    raise exception 'The cash alternative must be an amount in pounds and pence, above £0' using errcode = '22023', hint = 'invalid_input';
  end if;
  return c;
end;
$$;
comment on function private.competition_apply_fair_play(public.competitions,jsonb) is 'Applies postal_deadline, draw_at and cash_alternative from p (the cash alternative checked; the dates by competition_check_dates).';
revoke all on function private.competition_apply_fair_play(public.competitions,jsonb) from public, anon, authenticated, service_role;

create or replace function private.competition_check_dates(c public.competitions) returns void
language plpgsql stable set search_path = '' as $$
begin
  if c.postal_deadline is not null and c.postal_deadline < c.closes_at then
    raise exception 'The postal deadline cannot be before the close: the free route must not be shorter than the paid one'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  if c.draw_at is not null and c.draw_at < coalesce(c.postal_deadline, private.default_postal_deadline(c.closes_at)) then
    raise exception 'The draw time must be at or after the postal deadline' using errcode = '22023', hint = 'invalid_input';
  end if;
end;
$$;
comment on function private.competition_check_dates(public.competitions) is 'Refuses dates out of order: the close, then the postal deadline (never before the close), then the draw.';
revoke all on function private.competition_check_dates(public.competitions) from public, anon, authenticated, service_role;

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
       from public.draws d where d.competition_id = c.id),
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

create or replace function public.set_initials_only(p_initials_only boolean) returns public.account
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_initials_only is null then
    raise exception 'Choose whether to appear by initials only' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  update public.profiles set show_initials_only = p_initials_only, updated_at = now() where id = uid;
  perform private.log_activity('profile.initials_only', uid, jsonb_build_object('initials_only', p_initials_only));
  return private.account_row(uid);
end;
$$;
comment on function public.set_initials_only(boolean) is 'Signed-in users: appear by initials only (no town) if they win and on entry lists, or by first name, surname initial and town (CAP 8.28.5). Applies to draws from now on.';
revoke all on function public.set_initials_only(boolean) from public, anon, authenticated, service_role;
grant execute on function public.set_initials_only(boolean) to authenticated;
grant execute on function public.set_initials_only(boolean) to service_role;

create or replace function public.claim_prize(p_draw_id uuid, p_choice text, p_delivery_address text DEFAULT NULL::text)
 RETURNS public.prize_claim
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
     set prize_choice = p_choice::public.prize_choice,
         delivery_address = case when p_choice = 'prize' then address end,
         claimed_at = now()
   where id = p_draw_id;
  perform private.log_activity('prize.claimed', p_draw_id, jsonb_build_object('choice', p_choice, 'user_id', uid));
  perform private.queue_mail(uid, 'prize_claimed', 'Your claim: ' || title,
    format(E'Thank you: we have your claim for %s.\n\nYou chose %s.\n\nWe will check your identity and arrange delivery; '
           'you can change your choice until then.',
           title, case when p_choice = 'cash' then private.format_gbp(cash) || ' cash'
                       else E'the prize, sent to:\n' || address end));
  return (select row(x.id, x.prize_choice, x.claimed_at, x.prize_status, x.delivery_address)::public.prize_claim
            from public.draws x where x.id = p_draw_id);
end;
$function$;
comment on function public.claim_prize(uuid,text,text) is 'The winner: claims the prize (with the UK address to send it to) or its cash alternative (when offered); the prize becomes claimed. The claim can change until an admin verifies it (claim_closed after).';
revoke all on function public.claim_prize(uuid,text,text) from public, anon, authenticated, service_role;
grant execute on function public.claim_prize(uuid,text,text) to authenticated;
grant execute on function public.claim_prize(uuid,text,text) to service_role;

create or replace function private.prize_fulfilment_row(p_draw_id uuid) returns public.prize_fulfilment
language sql stable set search_path = '' as $$
  select d.id,
         row(c.id, c.slug, c.title)::public.fulfilment_competition,
         c.prize_description, c.prize_value, c.cash_alternative, d.winning_number, d.drawn_at,
         d.winner_display_name, d.winner_town, d.winner_user_id,
         -- The person to contact: the account's name and e-mail, or the postal entrant's name and address.
         coalesce(p.name, pe.name), p.email, pe.address,
         case when e.kind = 'postal' then 'postal' else 'online' end,
         d.prize_choice, d.delivery_address, d.claimed_at, d.prize_status, d.prize_status_updated_at, d.verified_at,
         d.delivered_at, d.fulfilment_note, d.proof_of_delivery,
         -- What the prize costs us: the cash when the winner chose it, else the prize's value.
         case when d.prize_choice = 'cash' and c.cash_alternative is not null then c.cash_alternative
              else c.prize_value end,
         coalesce(p.show_initials_only, false),
         (select row(s.consent, s.consent_source, s.consent_note, s.consent_changed_at, a.name, s.photo_path,
                     s.photo_alt, s.quote, s.story_updated_at)::public.fulfilment_story
            from public.winner_stories s
            left join public.profiles a on a.id = s.consent_changed_by
           where s.draw_id = d.id)
  from public.draws d
  join public.competitions c on c.id = d.competition_id
  join public.tickets t on t.id = d.winning_ticket_id
  join public.entries e on e.id = t.entry_id
  left join public.profiles p on p.id = d.winner_user_id
  left join public.postal_entries pe on pe.entry_id = e.id
  where d.id = p_draw_id
$$;
comment on function private.prize_fulfilment_row(uuid) is 'One draw''s prize fulfilment for admins: the prize, the winner (name, e-mail or postal address), the claim (prize or cash), status with its times, notes, proof of delivery, the prize cost, and the winner''s photo consent and story.';
revoke all on function private.prize_fulfilment_row(uuid) from public, anon, authenticated, service_role;

create or replace function public.admin_competition_detail(p_id uuid) returns public.admin_competition_detail
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  perform private.require_admin();
  select * into c from public.competitions where id = p_id;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  return row(
    private.admin_competition_row(p_id),
    -- admin_competition_row gives the effective dates; a draft's null ones mean "the default at publish".
    row(c.postal_deadline, c.draw_at)::public.competition_stored_dates,
    (select row(
        c.tickets_sold,
        c.postal_tickets,
        count(*) filter (where e.kind = 'paid' and e.status = 'active'),
        count(*) filter (where e.kind = 'postal' and e.status = 'active'),
        count(distinct e.user_id) filter (where e.status = 'active'),
        coalesce(sum(e.amount) filter (where e.kind = 'paid' and e.status = 'active'), 0),
        count(*) filter (where e.status = 'refunded'),
        coalesce(sum(e.amount) filter (where e.status = 'refunded'), 0),
        count(*) filter (where e.status = 'void'))::public.competition_figures
      from public.entries e where e.competition_id = p_id),
    (select coalesce(array_agg(row(e.id, pe.name, pe.address, pe.postcode, pe.user_id, p.email, pe.answer, e.quantity,
                                   private.entry_ticket_numbers(e.id), e.status, r.name,
                                   pe.created_at)::public.postal_entry_record order by e.first_ticket), '{}')
      from public.postal_entries pe
      join public.entries e on e.id = pe.entry_id
      left join public.profiles p on p.id = pe.user_id
      left join public.profiles r on r.id = pe.recorded_by
      where pe.competition_id = p_id),
    (select private.prize_fulfilment_row(d.id) from public.draws d where d.competition_id = p_id)
  )::public.admin_competition_detail;
end;
$$;
comment on function public.admin_competition_detail(uuid) is 'Admins: one competition for its admin page: the competition with the admin fields, the stored postal deadline and draw time (null in a draft: the default), the figures (online and postal tickets, entries, players, revenue, refunds), every postal entry with its ticket numbers, and the prize fulfilment once drawn.';
revoke all on function public.admin_competition_detail(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_detail(uuid) to authenticated;
grant execute on function public.admin_competition_detail(uuid) to service_role;

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
  select coalesce(string_agg(concat_ws(',',
             x.id::text,
             to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
             case when x.kind = 'postal' then 'postal' else 'online' end,
             x.status,
             x.first_ticket::text,
             -- The highest number: chosen numbers are not contiguous.
             (select max(t.number) from public.tickets t where t.entry_id = x.id)::text,
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
  return row(
    case when after_no = 0
         then 'entry_id,created_at,route,status,first_ticket,last_ticket,tickets,amount,user_id,name,email,postal_address,postcode' || E'\n'
         else '' end || lines,
    last_no,
    last_no is null
      or not exists (select 1 from public.entries e where e.competition_id = p_id and e.first_ticket > last_no)
  )::public.csv_chunk;
end;
$$;
comment on function public.admin_competition_entries_csv(uuid,integer,integer) is 'Admins: a chunk of a competition''s entries as CSV (one line per order or postal entry: id, time (UTC), route, status, ticket range, amount, the buyer''s id, name and e-mail, the postal address), in ticket order after first ticket p_after; the header in the first chunk only. Any state, drafts and cancelled ones included.';
revoke all on function public.admin_competition_entries_csv(uuid,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_entries_csv(uuid,integer,integer) to authenticated;
grant execute on function public.admin_competition_entries_csv(uuid,integer,integer) to service_role;

create or replace function public.admin_competition_history() returns public.competition_history
language plpgsql stable security definer set search_path = '' as $$
declare
  finished public.competition_history_row[];
begin
  perform private.require_admin();
  select coalesce(array_agg(x.line order by x.finished_at desc, x.id), '{}')
    into finished
    from (select c.id,
                 coalesce(d.drawn_at, c.cancelled_at, c.closed_at, c.draw_at, c.closes_at) as finished_at,
                 row(c.id, c.slug, c.title, c.status, c.closes_at, c.draw_at,
                     coalesce(d.drawn_at, c.cancelled_at, c.closed_at, c.draw_at, c.closes_at),
                     c.ticket_price, c.total_tickets, c.tickets_sold, c.postal_tickets, m.revenue, m.refunded,
                     c.prize_value, c.cash_alternative, d.prize_choice, d.prize_status, d.id, d.winner_display_name,
                     pc.cost, m.revenue - pc.cost)::public.competition_history_row as line
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
  return row(
    finished,
    (select row(count(*)::integer, coalesce(sum(h.revenue), 0), coalesce(sum(h.refunded_total), 0),
                coalesce(sum(h.prize_cost), 0), coalesce(sum(h.net), 0))::public.competition_history_totals
       from unnest(finished) h))::public.competition_history;
end;
$$;
comment on function public.admin_competition_history() is 'Admins: finished competitions (drawn, closed, cancelled), most recently finished first, each with revenue (active paid entries), refunds, prize cost (drawn only: the cash alternative when the winner chose cash, else the prize value) and net (revenue - prize cost); totals over all of them.';
revoke all on function public.admin_competition_history() from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_history() to authenticated;
grant execute on function public.admin_competition_history() to service_role;

create or replace function public.admin_list_prize_fulfilment(p_status text DEFAULT NULL::text)
 RETURNS SETOF public.prize_fulfilment
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform private.require_admin();
  if p_status is not null and private.prize_step_index(p_status) is null then
    raise exception 'Prize status must be awaiting claim, claimed, verified or delivered' using errcode = '22023', hint = 'invalid_input';
  end if;
  return query
    select f.* from public.draws d
     cross join lateral private.prize_fulfilment_row(d.id) f
     where p_status is null or d.prize_status = p_status::public.prize_status
     order by private.prize_step_index(d.prize_status::text), d.drawn_at desc;
end;
$function$;
comment on function public.admin_list_prize_fulfilment(text) is 'Admins: every draw''s prize fulfilment (optionally one status), in the order of the steps (awaiting claim, claimed, verified, delivered), newest draw first within each.';
revoke all on function public.admin_list_prize_fulfilment(text) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_prize_fulfilment(text) to authenticated;
grant execute on function public.admin_list_prize_fulfilment(text) to service_role;

create or replace function public.admin_update_prize_fulfilment(p_draw_id uuid, p_status text, p_note text default null,
                                                     p_proof_of_delivery text default null)
returns public.prize_fulfilment
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
  return private.prize_fulfilment_row(p_draw_id);
end;
$$;
comment on function public.admin_update_prize_fulfilment(uuid,text,text,text) is 'Admins: moves a prize along awaiting_claim -> claimed (a claim by letter or phone) -> verified (identity checked) -> delivered (needs the proof-of-delivery reference), one step forward at a time or back to correct a mistake (private.prize_move), with its note; audited. Once verified, the winner can no longer change their claim (claim_prize).';
revoke all on function public.admin_update_prize_fulfilment(uuid,text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_prize_fulfilment(uuid,text,text,text) to authenticated;
grant execute on function public.admin_update_prize_fulfilment(uuid,text,text,text) to service_role;

create or replace function private.share_competition_gate(p_competition_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_advisory_xact_lock_shared(hashtextextended('competition_entry:' || p_competition_id, 0));
end;
$$;
comment on function private.share_competition_gate(uuid) is 'Takes a competition''s entry gate shared until commit (entries and postal entries, before the player''s account): entries do not wait for each other on it.';
revoke all on function private.share_competition_gate(uuid) from public, anon, authenticated, service_role;

create or replace function private.hold_competition_gate(p_competition_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_advisory_xact_lock(hashtextextended('competition_entry:' || p_competition_id, 0));
end;
$$;
comment on function private.hold_competition_gate(uuid) is 'Takes a competition''s entry gate exclusively until commit (cancelling, changing its terms, before its row): waits for the entries in flight and holds new ones back.';
revoke all on function private.hold_competition_gate(uuid) from public, anon, authenticated, service_role;

create or replace function private.queue_for_competition_counter(p_competition_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_advisory_xact_lock(hashtextextended('competition_counter:' || p_competition_id, 0));
end;
$$;
comment on function private.queue_for_competition_counter(uuid) is 'Entries queue here, one at a time until commit, just before the counter update: a plain queue with one wake-up per turn, where waiting on the row itself would wake every waiter on every commit.';
revoke all on function private.queue_for_competition_counter(uuid) from public, anon, authenticated, service_role;

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

create or replace function private.london_time_text(p_at timestamptz) returns text
language sql stable set search_path = '' as $$
  -- HH:MM in the UK, with the date in front when it is not today there.
  select case
    when (p_at at time zone 'Europe/London')::date = (now() at time zone 'Europe/London')::date
      then to_char(p_at at time zone 'Europe/London', 'HH24:MI')
    else to_char(p_at at time zone 'Europe/London', 'HH24:MI "on" FMDD FMMonth YYYY')
  end
$$;
comment on function private.london_time_text(timestamp with time zone) is 'A moment as players read it: HH:MM in Europe/London, with the date after it when it is not today.';
revoke all on function private.london_time_text(timestamp with time zone) from public, anon, authenticated, service_role;

create or replace function private.record_skill_miss(p_user uuid, p_competition_id uuid) returns void
language sql security definer set search_path = '' as $$
  insert into public.skill_answer_misses as m (user_id, competition_id, missed_at)
  values (p_user, p_competition_id, now())
  on conflict (user_id, competition_id) do update set missed_at = excluded.missed_at, misses = m.misses + 1
$$;
comment on function private.record_skill_miss(uuid,uuid) is 'Records a wrong skill answer of p_user in p_competition_id now (the question closes to them for skill_answer_cooldown_minutes).';
revoke all on function private.record_skill_miss(uuid,uuid) from public, anon, authenticated, service_role;

create or replace function private.competition_phase(c competitions, p_now timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select case
    when c.status in ('draft', 'cancelled', 'drawn') then c.status::text
    when c.status = 'live' and p_now < c.opens_at then 'upcoming'
    when c.status = 'live' and p_now < c.closes_at and c.tickets_sold < c.total_tickets then 'live'
    when p_now < c.postal_deadline then 'postal_window'
    when p_now < c.draw_at or c.tickets_sold + c.postal_tickets > 0 then 'awaiting_draw'
    else 'closed'
  end;
$function$;
comment on function private.competition_phase(public.competitions,timestamp with time zone) is 'Where a competition stands at a moment, as the public site shows it (phaseOf in lib/competitions/status.ts): draft, upcoming (published, not open yet), live (online sales open), postal_window (online sales ended, letters still enter), awaiting_draw, drawn, closed (no tickets at the draw time) or cancelled.';
revoke all on function private.competition_phase(public.competitions,timestamp with time zone) from public, anon, authenticated, service_role;

create or replace function private.prize_step_index(p_status text) returns integer
language sql immutable set search_path = '' as $$
  select array_position(array['awaiting_claim', 'claimed', 'verified', 'delivered'], p_status)
$$;
comment on function private.prize_step_index(text) is 'The position of a prize status in awaiting_claim -> claimed -> verified -> delivered (1 to 4), null for anything else.';
revoke all on function private.prize_step_index(text) from public, anon, authenticated, service_role;

create or replace function private.prize_move(p_draw_id uuid, p_status text, p_proof text)
 RETURNS draws
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
  from_i := private.prize_step_index(prev.prize_status::text);
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
     set prize_status = p_status::public.prize_status,
         prize_status_updated_at = case when to_i <> from_i then now() else prize_status_updated_at end,
         claimed_at = case when to_i = 1 then null else coalesce(claimed_at, now()) end,
         verified_at = case when to_i < 3 then null else coalesce(verified_at, now()) end,
         delivered_at = case when to_i < 4 then null else coalesce(delivered_at, now()) end,
         proof_of_delivery = p_proof
   where id = p_draw_id
  returning * into next_row;
  return next_row;
end;
$function$;
comment on function private.prize_move(uuid,text,text) is 'Moves a prize to a status: forward one step at a time (claimed needs nothing more, verified needs a claim, delivered needs verification and the proof reference), back any number of steps (clearing the later dates); sets each step''s date once. The only writer of prize_status.';
revoke all on function private.prize_move(uuid,text,text) from public, anon, authenticated, service_role;

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

create or replace function public.get_my_dashboard() returns public.my_dashboard
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  -- The account dashboard's one read beside the account row the proxy hands on (DECISIONS "Page speed").
  return row(
    private.needs_limit_prompt(private.protections_of(uid), uid),
    coalesce((select array_agg(c.title order by d.drawn_at desc)
                from public.draws d
                join public.competitions c on c.id = d.competition_id
               where d.winner_user_id = uid and d.prize_status = 'awaiting_claim'), '{}'))::public.my_dashboard;
end;
$$;
comment on function public.get_my_dashboard() is 'The caller''s account dashboard: whether to invite a monthly limit (as get_top_up_options'' needs_limit_prompt) and the titles of their prizes awaiting a claim, newest draw first (as get_my_prizes).';
revoke all on function public.get_my_dashboard() from public, anon, authenticated, service_role;
grant execute on function public.get_my_dashboard() to authenticated;
grant execute on function public.get_my_dashboard() to service_role;

create or replace function private.ticket_bundles(c public.competitions) returns public.ticket_bundle[]
language sql stable set search_path = '' as $$
  -- The entry form's quick picks (components/competitions/entry-panel.tsx) that one person may buy now.
  select coalesce(array_agg(row(q, c.ticket_price * q)::public.ticket_bundle order by q), '{}')
    from unnest(array[1, 5, 10, 25]) q
   where q <= least(c.max_tickets_per_user, c.total_tickets - c.tickets_sold)
$$;
comment on function private.ticket_bundles(public.competitions) is 'The ticket bundles (1, 5, 10, 25) one person may buy now, each with its cost in pounds.';
revoke all on function private.ticket_bundles(public.competitions) from public, anon, authenticated, service_role;

create or replace function private.winner_story_json(p_draw_id uuid) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('photo', s.photo_path, 'photo_alt', s.photo_alt, 'quote', s.quote)
    from public.winner_stories s
   where s.draw_id = p_draw_id and s.consent and (s.photo_path is not null or s.quote is not null)
$$;
comment on function private.winner_story_json(uuid) is 'A draw''s published photo (site path and alt text) and quote for the public pages, or null when the winner has not consented (or withdrew) or nothing is published.';
revoke all on function private.winner_story_json(uuid) from public, anon, authenticated, service_role;

create or replace function private.set_winner_story_consent(p_draw_id uuid, p_consent boolean, p_source text, p_note text)
returns void
language plpgsql set search_path = '' as $$
begin
  insert into public.winner_stories as s (draw_id, consent, consent_source, consent_note, consent_changed_at, consent_changed_by)
  values (p_draw_id, p_consent, p_source, p_note, now(), auth.uid())
  on conflict (draw_id) do update
    set consent = excluded.consent,
        consent_source = excluded.consent_source,
        consent_note = excluded.consent_note,
        consent_changed_at = excluded.consent_changed_at,
        consent_changed_by = excluded.consent_changed_by;
  perform private.log_activity(
    case when p_source = 'admin' then 'winner_story.consent_recorded'
         when p_consent then 'winner_story.consent_given'
         else 'winner_story.consent_withdrawn' end,
    p_draw_id,
    jsonb_strip_nulls(jsonb_build_object('consent', p_consent, 'note', p_note)));
end;
$$;
comment on function private.set_winner_story_consent(uuid,boolean,text,text) is 'Records a winner''s consent to publish their photo and quote (or its withdrawal): by whom (the caller), when, how (winner or admin, with a note), audited.';
revoke all on function private.set_winner_story_consent(uuid,boolean,text,text) from public, anon, authenticated, service_role;

create or replace function public.set_my_winner_story_consent(p_draw_id uuid, p_consent boolean) returns public.story_consent
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  winner uuid;
begin
  if p_consent is null then
    raise exception 'Choose whether we may publish your photo and quote' using errcode = '22023', hint = 'invalid_input';
  end if;
  select d.winner_user_id into winner from public.draws d where d.id = p_draw_id;
  if not found then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  if winner is distinct from uid then
    raise exception 'Only the winner can give or withdraw this consent' using errcode = '42501', hint = 'not_the_winner';
  end if;
  perform private.set_winner_story_consent(p_draw_id, p_consent, 'winner', null);
  return row(p_draw_id, p_consent)::public.story_consent;
end;
$$;
comment on function public.set_my_winner_story_consent(uuid,boolean) is 'The winner: gives or withdraws consent to publish their photo and quote; withdrawing hides them from the public pages at once.';
revoke all on function public.set_my_winner_story_consent(uuid,boolean) from public, anon, authenticated, service_role;
grant execute on function public.set_my_winner_story_consent(uuid,boolean) to authenticated;
grant execute on function public.set_my_winner_story_consent(uuid,boolean) to service_role;

create or replace function public.admin_record_winner_story_consent(p_draw_id uuid, p_consent boolean, p_note text)
returns public.story_consent
language plpgsql security definer set search_path = '' as $$
declare
  note text := nullif(btrim(coalesce(p_note, '')), '');
begin
  perform private.require_admin();
  if p_consent is null then
    raise exception 'Choose whether the winner consents' using errcode = '22023', hint = 'invalid_input';
  end if;
  if note is null or char_length(note) > 500 then
    raise exception 'Say how the winner told us (up to 500 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if not exists (select 1 from public.draws d where d.id = p_draw_id) then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  perform private.set_winner_story_consent(p_draw_id, p_consent, 'admin', note);
  return row(p_draw_id, p_consent)::public.story_consent;
end;
$$;
comment on function public.admin_record_winner_story_consent(uuid,boolean,text) is 'Admins: record that a winner gave (or withdrew) consent to publish their photo and quote another way (e.g. by e-mail), with a note saying how; audited.';
revoke all on function public.admin_record_winner_story_consent(uuid,boolean,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_record_winner_story_consent(uuid,boolean,text) to authenticated;
grant execute on function public.admin_record_winner_story_consent(uuid,boolean,text) to service_role;

create or replace function public.admin_set_winner_story(p_draw_id uuid, p_photo_path text, p_photo_alt text, p_quote text)
returns public.story_change
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_admin();
  s public.winner_stories%rowtype;
  photo text := nullif(btrim(coalesce(p_photo_path, '')), '');
  alt text := nullif(btrim(coalesce(p_photo_alt, '')), '');
  said text := nullif(btrim(regexp_replace(coalesce(p_quote, ''), E'\\s+', ' ', 'g')), '');
begin
  if photo is not null and photo !~ '^/media/winner-photos/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp)$' then
    raise exception 'Upload the photo again' using errcode = '22023', hint = 'invalid_input';
  end if;
  if photo is not null and (alt is null or char_length(alt) > 200) then
    raise exception 'Describe the photo for people who cannot see it (up to 200 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if said is not null and char_length(said) > 280 then
    raise exception 'Keep the quote to 280 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if photo is null and said is null then
    raise exception 'Add a photo or a quote' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into s from public.winner_stories where draw_id = p_draw_id for update;
  if not found or not s.consent then
    if not exists (select 1 from public.draws d where d.id = p_draw_id) then
      raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
    end if;
    raise exception 'The winner has not consented to publishing their photo and quote' using errcode = 'P0001', hint = 'story_consent_required';
  end if;
  update public.winner_stories
     set photo_path = photo,
         photo_alt = case when photo is not null then alt end,
         quote = said,
         story_updated_at = now(),
         story_updated_by = uid
   where draw_id = p_draw_id;
  perform private.log_activity('winner_story.published', p_draw_id,
    jsonb_build_object('photo', photo is not null, 'photo_replaced', s.photo_path is distinct from photo and s.photo_path is not null,
                       'quote', said is not null));
  -- The photo this one replaced (or dropped), which the caller deletes from the bucket now nothing shows it.
  return row(p_draw_id, case when s.photo_path is distinct from photo then s.photo_path end)::public.story_change;
end;
$$;
comment on function public.admin_set_winner_story(uuid,text,text,text) is 'Admins: publish (or replace) a winner''s photo (a winner-photos site path, alt text required) and quote (up to 280 characters), only while the winner consents; answers the photo it replaced; audited.';
revoke all on function public.admin_set_winner_story(uuid,text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_set_winner_story(uuid,text,text,text) to authenticated;
grant execute on function public.admin_set_winner_story(uuid,text,text,text) to service_role;

create or replace function public.admin_remove_winner_story(p_draw_id uuid) returns public.story_change
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_admin();
  previous text;
begin
  select s.photo_path into previous from public.winner_stories s where s.draw_id = p_draw_id for update;
  if not found then
    raise exception 'Nothing is published for this winner' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  update public.winner_stories
     set photo_path = null, photo_alt = null, quote = null, story_updated_at = now(), story_updated_by = uid
   where draw_id = p_draw_id;
  perform private.log_activity('winner_story.removed', p_draw_id, jsonb_build_object('photo', previous is not null));
  return row(p_draw_id, previous)::public.story_change;
end;
$$;
comment on function public.admin_remove_winner_story(uuid) is 'Admins: remove a winner''s published photo and quote (whatever the consent, so a withdrawn one can go); answers the photo to delete from the bucket; audited.';
revoke all on function public.admin_remove_winner_story(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_remove_winner_story(uuid) to authenticated;
grant execute on function public.admin_remove_winner_story(uuid) to service_role;

create or replace function public.winner_photo_published(p_photo_path text) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.winner_stories s where s.photo_path = p_photo_path and s.consent)
$$;
comment on function public.winner_photo_published(text) is 'Public: whether a winner-photos site path is a published photo (its winner consents), so the site stops serving one at once when consent is withdrawn or the photo removed.';
revoke all on function public.winner_photo_published(text) from public, anon, authenticated, service_role;
grant execute on function public.winner_photo_published(text) to anon;
grant execute on function public.winner_photo_published(text) to authenticated;
grant execute on function public.winner_photo_published(text) to service_role;

-- ----------------------------------------------------------------------------
-- Indexes
-- ----------------------------------------------------------------------------

create index competitions_created_by_idx on public.competitions (created_by);
create index entries_user_idx on public.entries (user_id, created_at DESC);
create index entries_competition_idx on public.entries (competition_id, created_at);
create index tickets_holder_idx on public.tickets (competition_id, user_id);
create index tickets_entry_idx on public.tickets (entry_id);
create index tickets_user_idx on public.tickets (user_id);
create index ticket_holds_user_idx on public.ticket_holds (user_id, competition_id);
create index postal_entries_competition_idx on public.postal_entries (competition_id);
create index postal_entries_user_idx on public.postal_entries (user_id);
create index postal_entries_recorded_by_idx on public.postal_entries (recorded_by);
create index draws_drawn_idx on public.draws (drawn_at DESC);
create index draws_winning_ticket_idx on public.draws (winning_ticket_id);
create index draws_winner_user_idx on public.draws (winner_user_id);
create index postal_entries_person_idx on public.postal_entries (competition_id, postcode, lower(name));
create index skill_answer_misses_competition_idx on public.skill_answer_misses (competition_id);
create index competitions_status_idx on public.competitions (status, closes_at);
create index competitions_due_draw_idx on public.competitions (draw_at) where (status = ANY (ARRAY['live'::public.competition_status, 'sold_out'::public.competition_status, 'closed'::public.competition_status]));
create index entries_paid_created_idx on public.entries (created_at) where (kind = 'paid'::public.entry_kind);

-- ----------------------------------------------------------------------------
-- Row-level policies
-- ----------------------------------------------------------------------------

create policy "entries: own rows or admin" on public.entries
  as permissive for select to authenticated
  using (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

create policy "tickets: own rows or admin" on public.tickets
  as permissive for select to authenticated
  using (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

create policy "postal entries: admins" on public.postal_entries
  as permissive for select to authenticated
  using (( SELECT public.is_admin() AS is_admin));

create policy "draws: public" on public.draws
  as permissive for select to anon, authenticated
  using (true);

create policy "competition images: admins read" on storage.objects
  as permissive for select to authenticated
  using (((bucket_id = 'competition-images'::text) AND ( SELECT public.is_admin() AS is_admin)));

create policy "competition images: admins add" on storage.objects
  as permissive for insert to authenticated
  with check (((bucket_id = 'competition-images'::text) AND ( SELECT public.is_admin() AS is_admin)));

create policy "competition images: admins replace" on storage.objects
  as permissive for update to authenticated
  using (((bucket_id = 'competition-images'::text) AND ( SELECT public.is_admin() AS is_admin)))
  with check (((bucket_id = 'competition-images'::text) AND ( SELECT public.is_admin() AS is_admin)));

create policy "competition images: admins remove" on storage.objects
  as permissive for delete to authenticated
  using (((bucket_id = 'competition-images'::text) AND ( SELECT public.is_admin() AS is_admin)));

create policy "competitions: published, or admins" on public.competitions
  as permissive for select to anon, authenticated
  using (((status <> 'draft'::public.competition_status) OR ( SELECT public.is_admin() AS is_admin)));

create policy "winner photos: admins read" on storage.objects
  as permissive for select to authenticated
  using (((bucket_id = 'winner-photos'::text) AND ( SELECT public.is_admin() AS is_admin)));

create policy "winner photos: admins add" on storage.objects
  as permissive for insert to authenticated
  with check (((bucket_id = 'winner-photos'::text) AND ( SELECT public.is_admin() AS is_admin)));

create policy "winner photos: admins replace" on storage.objects
  as permissive for update to authenticated
  using (((bucket_id = 'winner-photos'::text) AND ( SELECT public.is_admin() AS is_admin)))
  with check (((bucket_id = 'winner-photos'::text) AND ( SELECT public.is_admin() AS is_admin)));

create policy "winner photos: admins remove" on storage.objects
  as permissive for delete to authenticated
  using (((bucket_id = 'winner-photos'::text) AND ( SELECT public.is_admin() AS is_admin)));

-- ----------------------------------------------------------------------------
-- Instant wins (issue 25, item 2; DECISIONS.md "Instant wins")
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
  left join public.draws d on d.competition_id = c.id
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
