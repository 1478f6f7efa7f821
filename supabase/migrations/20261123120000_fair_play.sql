-- ============================================================================
-- Fair play (issue 10; code of practice 1.2, 1.9, 2.1-2.5; CAP 8.17, 8.28.5):
--   * fixed dates on every competition: opens, closes (online sales end), postal
--     deadline (default 2 working days after the close, England and Wales bank
--     holidays counted) and draw time; a sell-out ends online sales and never
--     brings the draw forward; run_due_draws draws at the draw time;
--   * free postal entries outside the online pool, until the postal deadline,
--     numbered after the online tickets, with stamp parity and the per-person cap;
--   * the draw over a ticket-list CSV (labcash-draw-v2), published after the close
--     as a public entry list with its two downloads;
--   * winners by first name, surname initial and town, or initials only;
--   * the cash alternative and the winner's choice;
--   * complaints with references and deadlines.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Settings
-- ----------------------------------------------------------------------------
-- stamp_price: a second-class stamp (pounds), for stamp parity.
-- postal_window_working_days: the default gap between the close and the postal deadline.
-- postal_address: where free postal entries go (lines of the address).
-- complaints_contact, dispute_resolution_body: shown on /complaints (code of practice 1.2).
insert into public.app_settings (key, value) values
  ('stamp_price', '0.87'::jsonb),
  ('postal_window_working_days', '2'::jsonb),
  ('postal_address', '["LabCash Free Entry", "PO Box 4021", "Manchester", "M60 1LC"]'::jsonb),
  ('complaints_contact', '"complaints@labcash.example"'::jsonb),
  ('dispute_resolution_body',
   '{"name": "CEDR (Centre for Effective Dispute Resolution)", "url": "https://www.cedr.com/consumer/"}'::jsonb)
on conflict (key) do nothing;

create or replace function public.get_site_settings() returns jsonb
language sql stable security definer set search_path = '' as $$
  -- Only settings meant for every visitor; approval mode, site_url and the like stay private.
  select jsonb_build_object(
    'launch_at', private.setting('launch_at'),
    'stamp_price', private.setting('stamp_price'),
    'postal_address', private.setting('postal_address'),
    'complaints_contact', private.setting('complaints_contact'),
    'dispute_resolution_body', private.setting('dispute_resolution_body'))
$$;
comment on function public.get_site_settings() is 'Public: the settings every page may show: launch_at (the launch countdown, or null), stamp_price (pounds), postal_address (lines), complaints_contact and dispute_resolution_body {name, url}.';

-- ----------------------------------------------------------------------------
-- Working days (England and Wales)
-- ----------------------------------------------------------------------------
create table public.bank_holidays (
  day date primary key,
  name text not null check (char_length(name) between 1 and 100)
);
alter table public.bank_holidays enable row level security;
comment on table public.bank_holidays is 'England and Wales bank holidays (gov.uk), skipped when counting working days for postal deadlines and complaint deadlines. Add future years as they are announced.';
revoke all on table public.bank_holidays from anon, authenticated;
grant all on table public.bank_holidays to service_role;

insert into public.bank_holidays (day, name) values
  ('2025-01-01', 'New Year''s Day'), ('2025-04-18', 'Good Friday'), ('2025-04-21', 'Easter Monday'),
  ('2025-05-05', 'Early May bank holiday'), ('2025-05-26', 'Spring bank holiday'),
  ('2025-08-25', 'Summer bank holiday'), ('2025-12-25', 'Christmas Day'), ('2025-12-26', 'Boxing Day'),
  ('2026-01-01', 'New Year''s Day'), ('2026-04-03', 'Good Friday'), ('2026-04-06', 'Easter Monday'),
  ('2026-05-04', 'Early May bank holiday'), ('2026-05-25', 'Spring bank holiday'),
  ('2026-08-31', 'Summer bank holiday'), ('2026-12-25', 'Christmas Day'), ('2026-12-28', 'Boxing Day (substitute day)'),
  ('2027-01-01', 'New Year''s Day'), ('2027-03-26', 'Good Friday'), ('2027-03-29', 'Easter Monday'),
  ('2027-05-03', 'Early May bank holiday'), ('2027-05-31', 'Spring bank holiday'),
  ('2027-08-30', 'Summer bank holiday'), ('2027-12-27', 'Christmas Day (substitute day)'),
  ('2027-12-28', 'Boxing Day (substitute day)'),
  ('2028-01-03', 'New Year''s Day (substitute day)'), ('2028-04-14', 'Good Friday'), ('2028-04-17', 'Easter Monday'),
  ('2028-05-01', 'Early May bank holiday'), ('2028-05-29', 'Spring bank holiday'),
  ('2028-08-28', 'Summer bank holiday'), ('2028-12-25', 'Christmas Day'), ('2028-12-26', 'Boxing Day');

-- The same UK clock time p_days working days later: Saturdays, Sundays and bank
-- holidays are skipped (a Friday-evening close has a Tuesday-evening deadline).
create function private.add_working_days(p_from timestamptz, p_days integer) returns timestamptz
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
comment on function private.add_working_days(timestamptz, integer) is 'The moment p_days working days (England and Wales: no weekends, no bank holidays) after p_from, at the same UK clock time.';

-- ----------------------------------------------------------------------------
-- Competitions: dates, the postal pool and the cash alternative
-- ----------------------------------------------------------------------------
alter table public.competitions
  add column postal_deadline timestamptz,
  add column draw_at timestamptz,
  add column cash_alternative numeric(12, 2) check (cash_alternative is null or cash_alternative > 0),
  add column postal_tickets integer not null default 0 check (postal_tickets >= 0);

-- Competitions published before these rules: a drawn, closed or cancelled one keeps
-- its history (deadline and draw time at the close); one still running gets the
-- default postal window, and its draw moves to the end of it.
update public.competitions
   set postal_deadline = closes_at, draw_at = closes_at
 where status in ('drawn', 'closed', 'cancelled');
update public.competitions
   set postal_deadline = private.add_working_days(closes_at, 2),
       draw_at = private.add_working_days(closes_at, 2)
 where status in ('live', 'sold_out');

alter table public.competitions
  add constraint competitions_dates_fixed_check
    check (status = 'draft' or (postal_deadline is not null and draw_at is not null)),
  add constraint competitions_postal_deadline_check check (postal_deadline is null or postal_deadline >= closes_at),
  add constraint competitions_draw_at_check check (draw_at is null or draw_at >= coalesce(postal_deadline, closes_at));
create index competitions_due_draw_idx on public.competitions (draw_at) where status in ('live', 'sold_out', 'closed');
comment on column public.competitions.tickets_sold is 'Online tickets sold (the pool of total_tickets). Postal tickets are counted in postal_tickets.';
comment on column public.competitions.postal_deadline is 'Postal entries are accepted until this moment (at or after closes_at). Null in a draft means the default: postal_window_working_days after the close.';
comment on column public.competitions.draw_at is 'When the draw happens (at or after the postal deadline). Null in a draft means the postal deadline. Fixed at publish.';
comment on column public.competitions.cash_alternative is 'Optional cash the winner may take instead of the prize (pounds), shown before entry.';
comment on column public.competitions.postal_tickets is 'Tickets given to postal entries, numbered total_tickets + 1 onwards, outside the online pool.';

grant select (postal_deadline, draw_at, cash_alternative, postal_tickets) on table public.competitions to anon, authenticated;

alter table public.postal_entries add column postcode text check (postcode is null or postcode ~ '^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}$');
create index postal_entries_person_idx on public.postal_entries (competition_id, postcode, lower(name));
comment on column public.postal_entries.postcode is 'The UK postcode from the address, normalised ("HG1 2AB"): with the name, the person an unlinked postal entry counts against the per-person cap.';
comment on table public.postal_entries is 'Free postal entries recorded by an admin: stamp-parity tickets each, numbered after the online pool, same odds as a paid ticket.';

-- ----------------------------------------------------------------------------
-- Winners' names (CAP 8.28.5) and the prize claim
-- ----------------------------------------------------------------------------
alter table public.profiles add column show_initials_only boolean not null default false;
comment on column public.profiles.show_initials_only is 'The player asked to appear by initials only (no town) if they win and on entry lists.';

alter table public.draws drop constraint draws_trigger_check;
alter table public.draws add constraint draws_trigger_check check (trigger in ('sold_out', 'close_time', 'draw_time'));
alter table public.draws drop constraint draws_check;
alter table public.draws
  add constraint draws_winning_number_check check (winning_number >= 1),
  add column winning_position integer,
  add column prize_choice text check (prize_choice in ('prize', 'cash')),
  add column claimed_at timestamptz,
  add constraint draws_winning_position_check
    check ((algorithm = 'labcash-draw-v1' and winning_position is null and winning_number <= ticket_count)
           or (algorithm = 'labcash-draw-v2' and winning_position between 1 and ticket_count));
alter table public.draws alter column algorithm set default 'labcash-draw-v2';
comment on column public.draws.winning_position is 'labcash-draw-v2: the winning row of the ticket list (1-based); winning_number is the ticket number on it.';
comment on column public.draws.prize_choice is 'The winner''s choice when claiming: the prize, or its cash alternative.';
grant select (winning_position) on table public.draws to anon, authenticated;

-- ----------------------------------------------------------------------------
-- Small helpers
-- ----------------------------------------------------------------------------
create function private.uk_postcode(p_text text) returns text
language sql immutable set search_path = '' as $$
  -- The last postcode-shaped word pair in the address (addresses end with the postcode).
  select x.m[1] || ' ' || x.m[2]
    from regexp_matches(upper(coalesce(p_text, '')), '\m([A-Z]{1,2}[0-9][A-Z0-9]?) ?([0-9][A-Z]{2})\M', 'g')
         with ordinality x (m, i)
   order by x.i desc
   limit 1
$$;
comment on function private.uk_postcode(text) is 'A UK postcode found in an address, normalised with one space ("HG1 2AB"), or null.';

create function private.public_name(p_name text, p_initials_only boolean) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_name is null or btrim(p_name) = '' then 'A LabCash player'
    when p_initials_only then
      (select string_agg(upper(left(w, 1)) || '.', ' ' order by i)
         from unnest(regexp_split_to_array(btrim(p_name), '\s+')) with ordinality x (w, i))
    else private.display_name(p_name)
  end
$$;
comment on function private.public_name(text, boolean) is 'How a player appears in public (winners, entry lists): first name and surname initial ("Priya P."), or initials only ("P. P.") when they chose that.';

create function private.stamp_parity(p_ticket_price numeric, p_max_per_person integer) returns integer
language sql stable security definer set search_path = '' as $$
  select least(greatest(1, ceil(coalesce((private.setting('stamp_price') #>> '{}')::numeric, 0) / p_ticket_price)::integer),
               p_max_per_person)
$$;
comment on function private.stamp_parity(numeric, integer) is 'Tickets one postal entry gets: as many as a second-class stamp buys at the ticket price, at least one, at most the per-person cap.';

create function private.default_postal_deadline(p_closes_at timestamptz) returns timestamptz
language sql stable security definer set search_path = '' as $$
  select private.add_working_days(p_closes_at, coalesce((private.setting('postal_window_working_days') #>> '{}')::integer, 2))
$$;
comment on function private.default_postal_deadline(timestamptz) is 'The postal deadline a competition gets unless the admin sets one: postal_window_working_days working days after the close.';

create function private.entry_list_open(c public.competitions) returns boolean
language sql stable set search_path = '' as $$
  select c.status in ('sold_out', 'closed', 'drawn') or (c.status = 'live' and c.closes_at <= now())
$$;
comment on function private.entry_list_open(public.competitions) is 'True once online sales have ended (sold out or past the close) and the competition was not cancelled: the entry list is public from then.';

-- ----------------------------------------------------------------------------
-- JSON shape (adds the dates, the postal figures and the cash alternative)
-- ----------------------------------------------------------------------------
create or replace function private.competition_json(p_id uuid, p_admin boolean default false) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  return (
    select jsonb_build_object(
      'id', c.id,
      'slug', c.slug,
      'title', c.title,
      'summary', c.summary,
      'description', c.description,
      'prize_description', c.prize_description,
      'prize_value', c.prize_value,
      'cash_alternative', c.cash_alternative,
      'images', to_jsonb(c.images),
      'ticket_price', c.ticket_price,
      'total_tickets', c.total_tickets,
      'tickets_sold', c.tickets_sold,
      'tickets_left', c.total_tickets - c.tickets_sold,
      'max_tickets_per_user', c.max_tickets_per_user,
      'opens_at', c.opens_at,
      'closes_at', c.closes_at,
      'postal_deadline', coalesce(c.postal_deadline, private.default_postal_deadline(c.closes_at)),
      'draw_at', coalesce(c.draw_at, c.postal_deadline, private.default_postal_deadline(c.closes_at)),
      'postal_entries', (select count(*) from public.entries e
                          where e.competition_id = c.id and e.kind = 'postal' and e.status = 'active'),
      'postal_tickets', c.postal_tickets,
      'postal_tickets_per_entry', private.stamp_parity(c.ticket_price, c.max_tickets_per_user),
      'stamp_price', (private.setting('stamp_price') #>> '{}')::numeric,
      'entry_list_open', private.entry_list_open(c),
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
                 'id', d.id, 'algorithm', d.algorithm, 'winning_number', d.winning_number,
                 'winner_display_name', d.winner_display_name, 'winner_town', d.winner_town,
                 'ticket_count', d.ticket_count, 'drawn_at', d.drawn_at)
               from public.draws d where d.competition_id = c.id)
    ) || case when p_admin then jsonb_build_object(
      'skill_answer', c.skill_answer,
      'created_by', c.created_by,
      'created_at', c.created_at,
      'updated_at', c.updated_at,
      'entry_count', (select count(*) from public.entries e where e.competition_id = c.id and e.status = 'active'),
      'postal_entry_count', (select count(*) from public.postal_entries pe
                               join public.entries e on e.id = pe.entry_id
                              where pe.competition_id = c.id and e.status = 'active'),
      'revenue', (select coalesce(sum(e.amount), 0) from public.entries e where e.competition_id = c.id and e.status = 'active'),
      'prize_status', (select d.prize_status from public.draws d where d.competition_id = c.id),
      'prize_choice', (select d.prize_choice from public.draws d where d.competition_id = c.id))
    else '{}'::jsonb end
    from public.competitions c
    where c.id = p_id);
end;
$$;

-- ----------------------------------------------------------------------------
-- Creating, editing and publishing: the new fields
-- ----------------------------------------------------------------------------
-- Applies postal_deadline, draw_at and cash_alternative from p (after
-- competition_apply has applied the rest); competition_check_dates checks them.
create function private.competition_apply_fair_play(p_base public.competitions, p jsonb) returns public.competitions
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
comment on function private.competition_apply_fair_play(public.competitions, jsonb) is 'Applies postal_deadline, draw_at and cash_alternative from p (the cash alternative checked; the dates by competition_check_dates).';

create function private.competition_check_dates(c public.competitions) returns void
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

create or replace function public.admin_create_competition(p jsonb) returns jsonb
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
  c := private.competition_apply_fair_play(c, p);
  perform private.competition_check_dates(c);
  begin
    insert into public.competitions (id, slug, title, summary, description, prize_description, prize_value, images,
                                     ticket_price, total_tickets, max_tickets_per_user, opens_at, closes_at,
                                     postal_deadline, draw_at, cash_alternative,
                                     skill_question, skill_options, skill_answer, status, created_by)
    values (c.id, c.slug, c.title, c.summary, c.description, c.prize_description, c.prize_value, c.images,
            c.ticket_price, c.total_tickets, c.max_tickets_per_user, c.opens_at, c.closes_at,
            c.postal_deadline, c.draw_at, c.cash_alternative,
            c.skill_question, c.skill_options, c.skill_answer, 'draft', admin_id);
  exception when unique_violation then
    raise exception 'The address "%" is already used by another competition', c.slug using errcode = '22023', hint = 'slug_taken';
  end;
  perform private.log_activity('competition.created', c.id, jsonb_build_object('title', c.title));
  return private.competition_json(c.id, true);
end;
$$;
comment on function public.admin_create_competition(jsonb) is 'Admins: creates a draft competition from {title, slug?, summary?, description?, prize_description, prize_value, cash_alternative?, images[], ticket_price, total_tickets, max_tickets_per_user, opens_at?, closes_at, postal_deadline? (default 2 working days after the close), draw_at? (default the postal deadline), skill_question?, skill_options[]?, skill_answer?}.';

create or replace function public.admin_update_competition(p_id uuid, p jsonb) returns jsonb
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
           updated_at = now()
     where id = p_id;
  exception when unique_violation then
    raise exception 'The address "%" is already used by another competition', c.slug using errcode = '22023', hint = 'slug_taken';
  end;
  perform private.log_activity('competition.updated', p_id, jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p) k)));
  return private.competition_json(p_id, true);
end;
$$;
comment on function public.admin_update_competition(uuid, jsonb) is 'Admins: changes the fields present in p. Drafts: anything. Live: not the slug and never the dates; once tickets are sold only wording, prize details and images.';

create or replace function public.admin_publish_competition(p_id uuid, p_external_randomness jsonb default null) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  the_seed bytea;
  deadline timestamptz;
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
  -- The dates are fixed from here on (admin_update_competition refuses to change them).
  update public.competitions
     set status = 'live', seed_commitment = encode(extensions.digest(the_seed, 'sha256'), 'hex'),
         postal_deadline = deadline, draw_at = coalesce(c.draw_at, deadline),
         external_randomness = p_external_randomness, published_at = now(), updated_at = now()
   where id = p_id;
  perform private.log_activity('competition.published', p_id,
    jsonb_build_object('external_randomness', p_external_randomness ->> 'source',
                       'closes_at', c.closes_at, 'postal_deadline', deadline, 'draw_at', coalesce(c.draw_at, deadline)));
  return private.competition_json(p_id, true);
end;
$$;
comment on function public.admin_publish_competition(uuid, jsonb) is 'Admins: makes a draft live, fixing its dates (postal deadline and draw time defaulted), creating its secret seed in the database and publishing the SHA-256 commitment; optional external randomness (drand round or RANDOM.ORG signed result) is fixed here, before any sale.';

-- ----------------------------------------------------------------------------
-- Entering online: a sell-out ends online sales and no longer draws
-- ----------------------------------------------------------------------------
create or replace function private.enter_competition_for(p_user uuid, p_competition_id uuid, p_quantity integer, p_answer text)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  p public.player_protections;
  held integer;
  cost numeric(12, 2);
  left_this_month numeric(12, 2);
  first_no integer;
  new_entry uuid;
  new_balance numeric(12, 2);
  block jsonb;
begin
  if p_quantity is null or p_quantity < 1 then
    raise exception 'Choose at least one ticket' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(p_user);
  select * into acct from public.user_account_data a where a.id = p_user;
  if acct.rejected_at is not null and not acct.approved then
    raise exception 'Your account was not approved, so you cannot enter competitions' using errcode = 'P0001', hint = 'approval_rejected';
  end if;
  if not acct.approved then
    raise exception 'Your account is awaiting approval' using errcode = 'P0001', hint = 'approval_pending';
  end if;

  -- The competition is locked before the account, the order every path uses (cancelling
  -- refunds each entrant's account while holding the competition).
  c := private.lock_competition_for_entry(p_competition_id);
  if c.skill_question is not null and nullif(btrim(coalesce(p_answer, '')), '') is null then
    raise exception 'Answer the question to enter' using errcode = 'P0001', hint = 'answer_required';
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
  -- The account lock queues a player's concurrent entries, top-ups and protection
  -- changes, so a break that lands meanwhile is honoured and the monthly sums below
  -- include every earlier entry.
  select * into acct from public.user_account_data a where a.id = p_user for update;
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

  first_no := c.tickets_sold + 1;
  insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
  values (c.id, p_user, 'paid', p_quantity, c.ticket_price, cost, first_no)
  returning id into new_entry;
  insert into public.tickets (competition_id, number, entry_id, user_id)
  select c.id, n, new_entry, p_user from generate_series(first_no, first_no + p_quantity - 1) n;
  -- The last ticket ends online sales at once; the draw still waits for its time
  -- (code of practice 1.9, 2.4: postal entries keep arriving until the deadline).
  update public.competitions
     set tickets_sold = tickets_sold + p_quantity, updated_at = now(),
         status = case when tickets_sold + p_quantity = total_tickets then 'sold_out' else status end,
         closed_at = case when tickets_sold + p_quantity = total_tickets then now() else closed_at end
   where id = c.id;

  new_balance := private.post_ledger(p_user, 'entry', -cost,
    format('Entry: %s (%s %s)', c.title, p_quantity, case when p_quantity = 1 then 'ticket' else 'tickets' end),
    'entry:' || new_entry);
  update public.user_account_data
     set total_spent = total_spent + cost, total_entries = total_entries + p_quantity, updated_at = now()
   where id = p_user;

  perform private.queue_mail(p_user, 'entry_receipt', 'Your entry: ' || c.title,
    format(E'Thank you for entering %s.\n\nYour ticket numbers: %s\nTickets: %s at %s each\nTotal: %s\nCredit left: %s\n\n'
           'The draw is on %s. It is verifiable: its seed commitment is %s.',
           c.title, private.ticket_numbers_text(first_no, p_quantity), p_quantity, private.format_gbp(c.ticket_price),
           private.format_gbp(cost), private.format_gbp(new_balance),
           to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI'), c.seed_commitment));
  perform private.log_activity('competition.entered', c.id,
    jsonb_build_object('entry_id', new_entry, 'quantity', p_quantity, 'amount', cost, 'user_id', p_user));

  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(array(select generate_series(first_no, first_no + p_quantity - 1))),
    'balance', new_balance);
end;
$$;
comment on function private.enter_competition_for(uuid, uuid, integer, text) is 'Buys p_quantity tickets for p_user in one transaction (approval, protections, open check, skill answer, per-user cap over both routes, tickets left, monthly spend limit, credit through the ledger, numbers in purchase order, totals, receipt). The last ticket ends online sales (sold_out); the draw waits for its time.';
comment on function public.enter_competition(uuid, integer, text) is 'Approved users: buys p_quantity tickets in one transaction (protections, open check, skill answer, per-user cap, tickets left, monthly limit, credit through the ledger, numbers in purchase order, account totals, receipt mail). A sell-out ends online sales; the draw happens at the draw time.';

-- ----------------------------------------------------------------------------
-- Postal entries: outside the online pool, until the postal deadline
-- ----------------------------------------------------------------------------
create or replace function public.admin_record_postal_entry(
  p_competition_id uuid, p_user_id uuid, p_name text, p_address text, p_answer text
) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  c public.competitions%rowtype;
  the_postcode text := private.uk_postcode(p_address);
  held integer;
  tickets integer;
  first_no integer;
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
    raise exception 'No such user' using errcode = 'P0002', hint = 'user_not_found';
  end if;

  select * into c from public.competitions where id = p_competition_id for update;
  if not found or c.status = 'draft' then
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
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

  -- The per-person cap: a linked account's tickets on both routes; otherwise the
  -- postal tickets already given to the same name at the same postcode.
  if p_user_id is not null then
    perform 1 from public.user_account_data a where a.id = p_user_id for update;
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

  -- Numbered after the whole online pool, so postal entries never take an online ticket.
  first_no := c.total_tickets + c.postal_tickets + 1;
  insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
  values (c.id, p_user_id, 'postal', tickets, 0, 0, first_no)
  returning id into new_entry;
  insert into public.tickets (competition_id, number, entry_id, user_id)
  select c.id, n, new_entry, p_user_id from generate_series(first_no, first_no + tickets - 1) n;
  insert into public.postal_entries (competition_id, entry_id, user_id, name, address, postcode, answer, recorded_by)
  values (c.id, new_entry, p_user_id, btrim(p_name), btrim(p_address), the_postcode, p_answer, admin_id);
  update public.competitions set postal_tickets = postal_tickets + tickets, updated_at = now() where id = c.id;
  if p_user_id is not null then
    update public.user_account_data set total_entries = total_entries + tickets, updated_at = now() where id = p_user_id;
    perform private.queue_mail(p_user_id, 'entry_receipt', 'Your postal entry: ' || c.title,
      format(E'We have received your free postal entry to %s.\n\nYour ticket numbers: %s (%s %s, the same chance per ticket as a paid one)\n\n'
             'The draw is on %s. It is verifiable: its seed commitment is %s.',
             c.title, private.ticket_numbers_text(first_no, tickets), tickets,
             case when tickets = 1 then 'ticket' else 'tickets' end,
             to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI'), c.seed_commitment));
  end if;
  perform private.log_activity('competition.postal_entry', c.id,
    jsonb_build_object('entry_id', new_entry, 'user_id', p_user_id, 'first_ticket', first_no, 'tickets', tickets));
  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(array(select generate_series(first_no, first_no + tickets - 1))),
    'tickets', tickets);
end;
$$;
comment on function public.admin_record_postal_entry(uuid, uuid, text, text, text) is 'Admins: records a free postal entry (name, address with a UK postcode, answer; optionally linked to an account) until the postal deadline, even after a sell-out: stamp-parity tickets numbered after the online pool, within the per-person cap (the account, or the same name and postcode); a receipt mail when linked.';

-- ----------------------------------------------------------------------------
-- The draw, labcash-draw-v2: over the ticket-list CSV, at the draw time
-- ----------------------------------------------------------------------------
--   ticket list      = "ticket_number,ticket_id\n" then "<number>,<ticket uuid>\n" per ticket in number order (UTF-8)
--   ticket_list_hash = SHA-256(ticket list)
--   the derivation is v1's (private.draw_derive) with N = the number of tickets; its result is the
--   winning position (1-based row, header excluded), and the winning number is the number on that row.
create function private.ticket_list_lines(p_competition_id uuid, p_after integer, p_limit integer) returns text
language sql stable security definer set search_path = '' as $$
  select coalesce(string_agg(x.number::text || ',' || x.id::text || E'\n', '' order by x.number), '')
    from (select t.number, t.id from public.tickets t
           where t.competition_id = p_competition_id and t.number > coalesce(p_after, 0)
           order by t.number limit p_limit) x
$$;
comment on function private.ticket_list_lines(uuid, integer, integer) is 'Lines of the v2 ticket list ("number,ticket_id\n") after ticket p_after, at most p_limit (null: all).';

create function private.ticket_list_hash_v2(p_competition_id uuid) returns bytea
language sql stable security definer set search_path = '' as $$
  select extensions.digest(convert_to('ticket_number,ticket_id' || E'\n' || private.ticket_list_lines(p_competition_id, 0, null), 'UTF8'), 'sha256')
$$;
comment on function private.ticket_list_hash_v2(uuid) is 'SHA-256 of the v2 ticket list CSV of a competition (the bytes get_ticket_list_csv serves).';

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
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
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
             'Claim it from your entries: %s/account/entries\nYou can check the draw yourself: %s/winners/%s',
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
comment on function private.draw_competition(uuid, text) is 'Draws a competition once (row lock plus unique draws.competition_id), and only at or after its draw time, over every online and postal ticket (labcash-draw-v2); reveals the seed in the draws row and notifies the winner; a competition with no tickets is closed without a winner.';

create or replace function public.run_due_draws() returns jsonb
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
      drawn := drawn || jsonb_build_object('competition_id', r.id, 'draw_id', draw_id);
    else
      closed := closed || to_jsonb(r.id);
    end if;
  end loop;
  return jsonb_build_object('drawn', drawn, 'closed', closed);
end;
$$;
comment on function public.run_due_draws() is 'Server (cron) and admins: draws every competition whose draw time has passed (over its online and postal tickets), and closes those with no tickets. Idempotent and safe to run concurrently.';

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

-- ----------------------------------------------------------------------------
-- The public entry list (after online sales end) and its two CSV downloads
-- ----------------------------------------------------------------------------
create function private.entry_list_competition(p_slug text) returns public.competitions
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where slug = lower(btrim(coalesce(p_slug, '')));
  if not found or c.status = 'draft' then
    raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
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

create function private.entry_list_rows(p_competition_id uuid, p_from integer, p_to integer, p_limit integer, p_descending boolean)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  page jsonb;
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
  select coalesce(jsonb_agg(jsonb_build_object(
           'number', c.number, 'ticket_id', c.id,
           'entrant', case when e.kind = 'postal' then 'Postal entry'
                           else private.public_name(p.name, coalesce(p.show_initials_only, false)) end,
           'town', case when e.kind = 'postal' or coalesce(p.show_initials_only, false) then null else p.town end,
           'route', case when e.kind = 'postal' then 'postal' else 'online' end)
           order by c.number), '[]'::jsonb)
    into page
    from chunk c
    join public.entries e on e.id = c.entry_id
    left join public.profiles p on p.id = c.user_id;
  return page;
end;
$$;
comment on function private.entry_list_rows(uuid, integer, integer, integer, boolean) is 'Entry-list rows (number, ticket id, public entrant name and town, or "Postal entry") with p_from < number < p_to, the first or (p_descending) the last p_limit, returned in number order.';

create function public.get_entry_list(
  p_slug text, p_after integer default null, p_before integer default null, p_ticket integer default null,
  p_limit integer default 50
) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions := private.entry_list_competition(p_slug);
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  rows jsonb;
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
  first_no := (rows -> 0 ->> 'number')::integer;
  last_no := (rows -> -1 ->> 'number')::integer;
  return jsonb_build_object(
    'competition', jsonb_build_object(
      'id', c.id, 'slug', c.slug, 'title', c.title, 'status', c.status, 'closes_at', c.closes_at,
      'postal_deadline', c.postal_deadline, 'draw_at', c.draw_at, 'total_tickets', c.total_tickets,
      'tickets_sold', c.tickets_sold, 'postal_tickets', c.postal_tickets),
    'draw', (select jsonb_build_object('id', d.id, 'algorithm', d.algorithm, 'ticket_list_hash', d.ticket_list_hash)
               from public.draws d where d.competition_id = c.id),
    'ticket_count', c.tickets_sold + c.postal_tickets,
    'rows', rows,
    'has_before', first_no is not null and exists (select 1 from public.tickets t where t.competition_id = c.id and t.number < first_no),
    'has_after', last_no is not null and exists (select 1 from public.tickets t where t.competition_id = c.id and t.number > last_no));
end;
$$;
comment on function public.get_entry_list(text, integer, integer, integer, integer) is 'Public, once online sales end: one page of the entry list in ticket-number order (after p_after, the page before p_before, or the one ticket p_ticket), with the public entrant name and town or "Postal entry", the draw''s ticket-list hash once drawn, and whether there are pages before and after.';
grant execute on function public.get_entry_list(text, integer, integer, integer, integer) to anon, authenticated, service_role;

create function public.get_ticket_list_csv(p_slug text, p_after integer default 0, p_limit integer default 100000) returns jsonb
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
  return jsonb_build_object(
    'csv', case when after_no = 0 then 'ticket_number,ticket_id' || E'\n' else '' end
           || private.ticket_list_lines(c.id, after_no, chunk),
    'last_number', last_no,
    'done', last_no is null or not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number > last_no));
end;
$$;
comment on function public.get_ticket_list_csv(text, integer, integer) is 'Public, once online sales end: a chunk of the ticket-list CSV (the header only in the first chunk, p_after = 0). Concatenating the chunks until done gives the exact bytes whose SHA-256 is the v2 draw''s ticket_list_hash.';
grant execute on function public.get_ticket_list_csv(text, integer, integer) to anon, authenticated, service_role;

create function public.get_entrants_csv(p_slug text, p_after integer default 0, p_limit integer default 100000) returns jsonb
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
  return jsonb_build_object(
    'csv', case when after_no = 0 then 'ticket_number,ticket_id,entrant,town,route' || E'\n' else '' end || lines,
    'last_number', last_no,
    'done', last_no is null or not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number > last_no));
end;
$$;
comment on function public.get_entrants_csv(text, integer, integer) is 'Public, once online sales end: a chunk of the entrants CSV (ticket number, ticket id, public name, town, route), joined to the ticket list by ticket id. Names never enter the draw''s inputs.';
grant execute on function public.get_entrants_csv(text, integer, integer) to anon, authenticated, service_role;

-- ----------------------------------------------------------------------------
-- The player: initials only, and claiming a prize
-- ----------------------------------------------------------------------------
create or replace function private.account_json(p_user uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'id', p.id,
    'name', p.name,
    'email', p.email,
    'email_notifications', p.email_notifications,
    'date_of_birth', p.date_of_birth,
    'town', p.town,
    'show_initials_only', p.show_initials_only,
    'credits', a.credits,
    'role', a.role,
    'approved', a.approved,
    'approved_at', a.approved_at,
    'approved_by', a.approved_by,
    'rejected_at', a.rejected_at,
    'rejection_reason', a.rejection_reason,
    'total_spent', a.total_spent,
    'total_entries', a.total_entries,
    'kyc_status', a.kyc_status,
    'is_verified', a.is_verified,
    'verified_at', a.verified_at,
    'age_verified', a.age_verified,
    'metadata', a.metadata,
    'created_at', p.created_at)
  from public.profiles p
  join public.user_account_data a on a.id = p.id
  where p.id = p_user
$$;

create function public.set_initials_only(p_initials_only boolean) returns jsonb
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
  return private.account_json(uid);
end;
$$;
comment on function public.set_initials_only(boolean) is 'Signed-in users: appear by initials only (no town) if they win and on entry lists, or by first name, surname initial and town (CAP 8.28.5). Applies to draws from now on.';
grant execute on function public.set_initials_only(boolean) to authenticated;

create function public.claim_prize(p_draw_id uuid, p_choice text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  d public.draws%rowtype;
  cash numeric(12, 2);
  title text;
begin
  if p_choice is null or p_choice not in ('prize', 'cash') then
    raise exception 'Choose the prize or the cash alternative' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into d from public.draws where id = p_draw_id for update;
  if not found then
    raise exception 'Draw not found' using errcode = 'P0002', hint = 'draw_not_found';
  end if;
  if d.winner_user_id is distinct from uid then
    raise exception 'Only the winner can claim this prize' using errcode = '42501', hint = 'not_the_winner';
  end if;
  select c.cash_alternative, c.title into cash, title from public.competitions c where c.id = d.competition_id;
  if p_choice = 'cash' and cash is null then
    raise exception 'This prize has no cash alternative' using errcode = 'P0001', hint = 'cash_not_offered';
  end if;
  if d.prize_status <> 'awaiting_claim' then
    raise exception 'Your claim has been verified, so the choice can no longer change' using errcode = 'P0001', hint = 'claim_closed';
  end if;
  update public.draws set prize_choice = p_choice, claimed_at = now() where id = p_draw_id;
  perform private.log_activity('prize.claimed', p_draw_id, jsonb_build_object('choice', p_choice, 'user_id', uid));
  perform private.queue_mail(uid, 'prize_claimed', 'Your claim: ' || title,
    format(E'Thank you: we have your claim for %s.\n\nYou chose %s.\n\nWe will check your identity and arrange delivery; '
           'you can change your choice until then.',
           title, case when p_choice = 'cash' then private.format_gbp(cash) || ' cash' else 'the prize' end));
  return (select jsonb_build_object('draw_id', x.id, 'prize_choice', x.prize_choice, 'claimed_at', x.claimed_at)
            from public.draws x where x.id = p_draw_id);
end;
$$;
comment on function public.claim_prize(uuid, text) is 'The winner: claims the prize, choosing the prize or its cash alternative (when offered); the choice can change until an admin verifies the claim.';
grant execute on function public.claim_prize(uuid, text) to authenticated;

create or replace function public.get_my_entries() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
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
                   'won', d.winning_number between e.first_ticket and e.first_ticket + e.quantity - 1,
                   'prize_description', c.prize_description,
                   'cash_alternative', c.cash_alternative,
                   'prize_choice', case when d.winner_user_id = e.user_id
                                         and d.winning_number between e.first_ticket and e.first_ticket + e.quantity - 1
                                        then d.prize_choice end,
                   'prize_status', d.prize_status)
                 from public.draws d where d.competition_id = c.id)
      ) order by e.created_at desc, e.id), '[]'::jsonb)
    from public.entries e
    join public.competitions c on c.id = e.competition_id
    where e.user_id = private.require_user());
end;
$$;
comment on function public.get_my_entries() is 'The caller''s entries, newest first, with ticket numbers, competition summary and the draw once drawn (won, the cash alternative, and for the winning entry the claim choice and the prize''s progress).';

-- ----------------------------------------------------------------------------
-- Complaints (code of practice 1.2)
-- ----------------------------------------------------------------------------
create sequence public.complaint_numbers;
revoke all on sequence public.complaint_numbers from anon, authenticated;

create table public.complaints (
  id uuid primary key default gen_random_uuid(),
  reference text not null unique default ('LC-' || lpad(nextval('public.complaint_numbers')::text, 6, '0')),
  user_id uuid references auth.users (id) on delete set null,
  subject text not null check (char_length(subject) between 3 and 120),
  related_reference text check (char_length(related_reference) <= 100),
  details text not null check (char_length(details) between 20 and 5000),
  status text not null default 'received' check (status in ('received', 'acknowledged', 'resolved')),
  acknowledge_by timestamptz not null,
  respond_by timestamptz not null,
  acknowledged_at timestamptz,
  resolved_at timestamptz,
  response text check (char_length(response) <= 5000),
  handled_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (status <> 'resolved' or (response is not null and resolved_at is not null))
);
alter sequence public.complaint_numbers owned by public.complaints.reference;
alter table public.complaints enable row level security;
create index complaints_user_idx on public.complaints (user_id, created_at desc);
create index complaints_status_idx on public.complaints (status, respond_by);
create index complaints_handled_by_idx on public.complaints (handled_by);
comment on table public.complaints is 'Player complaints (code of practice 1.2): a reference, the status (received -> acknowledged -> resolved), and the deadlines: acknowledged within 2 working days, a final answer within 28 days.';

revoke all on table public.complaints from anon, authenticated;
grant select on table public.complaints to authenticated;
grant all on table public.complaints to service_role;
create policy "complaints: own rows or admin" on public.complaints
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));

create function private.complaint_json(c public.complaints, p_admin boolean default false) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'id', c.id, 'reference', c.reference, 'status', c.status, 'subject', c.subject,
    'related_reference', c.related_reference, 'details', c.details,
    'acknowledge_by', c.acknowledge_by, 'respond_by', c.respond_by,
    'acknowledged_at', c.acknowledged_at, 'resolved_at', c.resolved_at, 'response', c.response,
    'created_at', c.created_at)
  || case when p_admin then jsonb_build_object(
       'user_id', c.user_id,
       'email', (select p.email from public.profiles p where p.id = c.user_id),
       'name', (select p.name from public.profiles p where p.id = c.user_id),
       'overdue', c.status <> 'resolved'
                  and ((c.status = 'received' and now() > c.acknowledge_by) or now() > c.respond_by))
     else '{}'::jsonb end
$$;
comment on function private.complaint_json(public.complaints, boolean) is 'A complaint as JSON; with the complainant and the overdue flag for admins.';

create function public.submit_complaint(p_subject text, p_reference text, p_details text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  subject text := btrim(coalesce(p_subject, ''));
  related text := nullif(btrim(coalesce(p_reference, '')), '');
  details text := btrim(coalesce(p_details, ''));
  new_row public.complaints%rowtype;
begin
  if char_length(subject) not between 3 and 120 then
    raise exception 'Give a subject between 3 and 120 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if related is not null and char_length(related) > 100 then
    raise exception 'The reference must be at most 100 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(details) not between 20 and 5000 then
    raise exception 'Describe the problem in 20 to 5000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The account lock queues one player's submissions, so the daily count below is exact.
  perform private.create_account_rows(uid);
  perform 1 from public.user_account_data a where a.id = uid for update;
  if (select count(*) from public.complaints c where c.user_id = uid and c.created_at > now() - interval '24 hours') >= 3 then
    raise exception 'You have sent 3 complaints in the last 24 hours: we will answer each of them. Please wait before sending another, or e-mail us'
      using errcode = 'P0001', hint = 'rate_limited';
  end if;
  insert into public.complaints (user_id, subject, related_reference, details, acknowledge_by, respond_by)
  values (uid, subject, related, details, private.add_working_days(now(), 2), now() + interval '28 days')
  returning * into new_row;
  perform private.queue_mail(uid, 'complaint_received', 'Your complaint ' || new_row.reference || ': ' || subject,
    format(E'We have received your complaint.\n\nReference: %s\nSubject: %s\n\nWe will acknowledge it by %s and give you our '
           'final answer by %s. If you are not happy with our answer, you can take it to %s (%s), free of charge.',
           new_row.reference, subject,
           to_char(new_row.acknowledge_by at time zone 'Europe/London', 'FMDD FMMonth YYYY'),
           to_char(new_row.respond_by at time zone 'Europe/London', 'FMDD FMMonth YYYY'),
           private.setting('dispute_resolution_body') ->> 'name', private.setting('dispute_resolution_body') ->> 'url'));
  perform private.log_activity('complaint.submitted', new_row.id, jsonb_build_object('reference', new_row.reference));
  return private.complaint_json(new_row);
end;
$$;
comment on function public.submit_complaint(text, text, text) is 'Signed-in users: records a complaint (subject, optional competition or payment reference, details), at most 3 a day, and mails a confirmation with the reference and the deadlines.';
grant execute on function public.submit_complaint(text, text, text) to authenticated;

create function public.get_my_complaints() returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(private.complaint_json(c) order by c.created_at desc), '[]'::jsonb)
    from public.complaints c
   where c.user_id = private.require_user()
$$;
comment on function public.get_my_complaints() is 'The caller''s complaints, newest first, with status, deadlines and our answer.';
grant execute on function public.get_my_complaints() to authenticated;

create function public.admin_list_complaints(p_status text default null) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  if p_status is not null and p_status not in ('received', 'acknowledged', 'resolved') then
    raise exception 'Unknown status: %', p_status using errcode = '22023', hint = 'invalid_input';
  end if;
  return coalesce((select jsonb_agg(private.complaint_json(c, true) order by c.status = 'resolved', c.respond_by)
                     from public.complaints c
                    where p_status is null or c.status = p_status), '[]'::jsonb);
end;
$$;
comment on function public.admin_list_complaints(text) is 'Admins: complaints (optionally one status), open ones first by answer deadline, with the complainant and an overdue flag.';
grant execute on function public.admin_list_complaints(text) to authenticated;

create function public.admin_update_complaint(p_id uuid, p_status text, p_response text default null) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  prev public.complaints%rowtype;
  answer text := nullif(btrim(coalesce(p_response, '')), '');
  updated public.complaints%rowtype;
begin
  if p_status is null or p_status not in ('acknowledged', 'resolved') then
    raise exception 'Status must be acknowledged or resolved' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_status = 'resolved' and (answer is null or char_length(answer) not between 10 and 5000) then
    raise exception 'Write the final answer (10 to 5000 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into prev from public.complaints where id = p_id for update;
  if not found then
    raise exception 'Complaint not found' using errcode = 'P0002', hint = 'complaint_not_found';
  end if;
  if prev.status = 'resolved' then
    raise exception 'This complaint has been answered already' using errcode = 'P0001', hint = 'edit_not_allowed';
  end if;
  update public.complaints
     set status = p_status,
         acknowledged_at = coalesce(acknowledged_at, now()),
         resolved_at = case when p_status = 'resolved' then now() end,
         response = case when p_status = 'resolved' then answer else response end,
         handled_by = admin_id, updated_at = now()
   where id = p_id
   returning * into updated;
  if prev.user_id is not null then
    perform private.queue_mail(prev.user_id, 'complaint_' || p_status,
      case when p_status = 'resolved' then 'Our answer to your complaint ' else 'We are looking into your complaint ' end || prev.reference,
      case when p_status = 'resolved'
           then format(E'%s\n\nIf you are not happy with this answer, you can take it to %s (%s), free of charge.',
                       answer, private.setting('dispute_resolution_body') ->> 'name', private.setting('dispute_resolution_body') ->> 'url')
           else format('We have your complaint %s and will give you our final answer by %s.', prev.reference,
                       to_char(prev.respond_by at time zone 'Europe/London', 'FMDD FMMonth YYYY')) end);
  end if;
  perform private.log_activity('complaint.' || p_status, p_id, jsonb_build_object('reference', prev.reference));
  return private.complaint_json(updated, true);
end;
$$;
comment on function public.admin_update_complaint(uuid, text, text) is 'Admins: acknowledges a complaint or resolves it with the final answer; the complainant is mailed; audited.';
grant execute on function public.admin_update_complaint(uuid, text, text) to authenticated;
