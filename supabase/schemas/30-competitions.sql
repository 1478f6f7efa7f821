-- ============================================================================
-- Competitions: the competition itself, its admin life cycle (create, publish, cancel), its page and its
-- images.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create type public.competition_status as enum ('draft', 'live', 'sold_out', 'closed', 'drawn', 'cancelled');
comment on type public.competition_status is 'A competition''s stored status: draft -> live -> sold_out / closed -> drawn, or cancelled.';
create type public.ticket_numbering as enum ('in_order', 'pick');
comment on type public.ticket_numbering is 'How a competition numbers its online tickets: in purchase order, or chosen by the player (a grid or a lucky dip). Set before publishing, fixed after.';
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
  constraint competitions_closes_after_opening_check check ((closes_at > opens_at)),
  constraint competitions_per_player_cap_within_total_check check ((max_tickets_per_user <= total_tickets)),
  constraint competitions_sold_within_total_check check ((tickets_sold <= total_tickets)),
  constraint competitions_skill_question_complete_check check ((((skill_question IS NULL) AND (skill_options IS NULL) AND (skill_answer IS NULL)) OR ((skill_question IS NOT NULL) AND ((cardinality(skill_options) >= 2) AND (cardinality(skill_options) <= 6)) AND (skill_answer = ANY (skill_options))))),
  constraint competitions_seed_committed_once_published_check check (((status = 'draft'::public.competition_status) OR (seed_commitment IS NOT NULL))),
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

create index competitions_created_by_idx on public.competitions (created_by);
create index competitions_status_idx on public.competitions (status, closes_at);
create index competitions_due_draw_idx on public.competitions (draw_at) where (status = ANY (ARRAY['live'::public.competition_status, 'sold_out'::public.competition_status, 'closed'::public.competition_status]));
create policy "competitions: published, or admins" on public.competitions
  as permissive for select to anon, authenticated
  using (((status <> 'draft'::public.competition_status) OR ( SELECT public.is_admin() AS is_admin)));

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

-- A draft exists for admins only: to anyone else it is not found, as a slug that was never used.
create or replace function private.require_visible_competition(p_competition public.competitions) returns void
language plpgsql stable set search_path = '' as $$
begin
  if p_competition.id is null or (p_competition.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
end;
$$;
comment on function private.require_visible_competition(public.competitions) is 'Refuses a competition the caller may not see (none read, or a draft to a non-admin) with ''Competition not found'' (PT404, competition_not_found).';
revoke all on function private.require_visible_competition(public.competitions) from public, anon, authenticated, service_role;

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

create type public.competition_draw as (id uuid, algorithm text, winning_number integer, winner_display_name text, winner_town text, ticket_count integer, drawn_at timestamp with time zone, story jsonb);
comment on type public.competition_draw is 'A competition''s draw as its pages show it: the algorithm, the winning number, the winner''s public name and town, how many tickets, when, and the winner''s published photo and quote (jsonb, or null without consent).';

create type public.competition as (id uuid, slug text, title text, summary text, description text, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), images text[], ticket_price numeric(12,2), total_tickets integer, tickets_sold integer, tickets_left integer, max_tickets_per_user integer, ticket_numbering public.ticket_numbering, opens_at timestamp with time zone, closes_at timestamp with time zone, postal_deadline timestamp with time zone, draw_at timestamp with time zone, postal_entries bigint, postal_tickets integer, postal_tickets_per_entry integer, stamp_price numeric, entry_list_open boolean, status public.competition_status, is_open boolean, skill_question text, skill_options text[], seed_commitment text, external_randomness jsonb, published_at timestamp with time zone, closed_at timestamp with time zone, cancelled_at timestamp with time zone, cancel_reason text, draw public.competition_draw);
comment on type public.competition is 'A competition as the public pages show it: never the skill answer; the effective postal deadline and draw time (the defaults in a draft), postal entries and stamp parity, whether it is open, the seed commitment and the draw once drawn.';

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
            from public.draws d where d.competition_id = c.id and d.prize_position = 1)
    from public.competitions c
   where c.id = p_id
$$;
comment on function private.competition_row(uuid) is 'A competition as the public pages show it (never the skill answer); null when there is no such competition.';
revoke all on function private.competition_row(uuid) from public, anon, authenticated, service_role;

create type public.prize_choice as enum ('prize', 'cash');
comment on type public.prize_choice is 'What a winner chose: the prize, or its cash alternative.';

create type public.prize_status as enum ('awaiting_claim', 'claimed', 'verified', 'delivered');
comment on type public.prize_status is 'A prize''s fulfilment step: awaiting_claim -> claimed -> verified -> delivered.';

create type public.admin_competition as (id uuid, slug text, title text, summary text, description text, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), images text[], ticket_price numeric(12,2), total_tickets integer, tickets_sold integer, tickets_left integer, max_tickets_per_user integer, ticket_numbering public.ticket_numbering, opens_at timestamp with time zone, closes_at timestamp with time zone, postal_deadline timestamp with time zone, draw_at timestamp with time zone, postal_entries bigint, postal_tickets integer, postal_tickets_per_entry integer, stamp_price numeric, entry_list_open boolean, status public.competition_status, is_open boolean, skill_question text, skill_options text[], seed_commitment text, external_randomness jsonb, published_at timestamp with time zone, closed_at timestamp with time zone, cancelled_at timestamp with time zone, cancel_reason text, draw public.competition_draw, skill_answer text, created_by uuid, created_at timestamp with time zone, updated_at timestamp with time zone, entry_count bigint, postal_entry_count bigint, revenue numeric, prize_status public.prize_status, prize_choice public.prize_choice);
comment on type public.admin_competition is 'A competition as the admin calls answer it: public.competition''s fields restated, then the skill answer, who created it and when, when it last changed, its active entries and postal entries, their revenue, and the prize''s status and the winner''s choice once drawn.';

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
    left join public.draws d on d.competition_id = c.id and d.prize_position = 1
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

create or replace function public.list_competitions(p_status text default null) returns setof public.competition
language plpgsql stable security definer set search_path = '' as $$
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
$$;
comment on function public.list_competitions(text) is 'Public: published competitions (never drafts), live ones first by closing soonest; optionally one status.';
revoke all on function public.list_competitions(text) from public, anon, authenticated, service_role;
grant execute on function public.list_competitions(text) to anon;
grant execute on function public.list_competitions(text) to authenticated;
grant execute on function public.list_competitions(text) to service_role;

create type public.ticket_bundle as (tickets integer, cost numeric);
comment on type public.ticket_bundle is 'A quick pick one person may buy now (1, 5, 10 or 25 tickets) and its cost in pounds.';

create type public.competition_page as (id uuid, slug text, title text, summary text, description text, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), images text[], ticket_price numeric(12,2), total_tickets integer, tickets_sold integer, tickets_left integer, max_tickets_per_user integer, ticket_numbering public.ticket_numbering, opens_at timestamp with time zone, closes_at timestamp with time zone, postal_deadline timestamp with time zone, draw_at timestamp with time zone, postal_entries bigint, postal_tickets integer, postal_tickets_per_entry integer, stamp_price numeric, entry_list_open boolean, status public.competition_status, is_open boolean, skill_question text, skill_options text[], seed_commitment text, external_randomness jsonb, published_at timestamp with time zone, closed_at timestamp with time zone, cancelled_at timestamp with time zone, cancel_reason text, draw public.competition_draw, my_tickets integer[], bundles public.ticket_bundle[]);
comment on type public.competition_page is 'One competition''s page: public.competition''s fields, the caller''s ticket numbers (null when signed out) and the ticket bundles they may buy now.';

create or replace function public.get_competition(p_slug text) returns public.competition_page
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  uid uuid := auth.uid();
  mine integer[];
begin
  select * into c from public.competitions where slug = lower(btrim(p_slug));
  perform private.require_visible_competition(c);
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
  if p ? 'prizes' then
    perform private.competition_set_prizes(c.id, false, p -> 'prizes');
  end if;
  if p ? 'charity' then
    perform private.competition_set_charity(c.id, 'draft', p -> 'charity');
  end if;
  perform private.log_activity('competition.created', c.id, jsonb_build_object('title', c.title));
  return private.admin_competition_row(c.id);
end;
$$;
comment on function public.admin_create_competition(jsonb) is 'Admins: creates a draft competition from {title, slug?, summary?, description?, prize_description, prize_value, cash_alternative?, images[], ticket_price, total_tickets, max_tickets_per_user, opens_at?, closes_at, postal_deadline? (default 2 working days after the close), draw_at? (default the postal deadline), skill_question?, skill_options[]?, skill_answer?, ticket_numbering? (in_order or pick; default in_order), prizes? (the prizes after the first: [{description, value, cash_alternative?}]), charity? ({name, registered_number, website?, revenue_percent | fixed_amount})}.';
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
      if (c.ticket_price, c.total_tickets, c.max_tickets_per_user, c.skill_question, c.skill_options, c.skill_answer, c.cash_alternative, c.prize_value)
         is distinct from
         (prev.ticket_price, prev.total_tickets, prev.max_tickets_per_user, prev.skill_question, prev.skill_options, prev.skill_answer, prev.cash_alternative, prev.prize_value) then
        raise exception 'Tickets have been sold: only the wording, the prizes'' descriptions and images can change' using errcode = 'P0001', hint = 'edit_not_allowed';
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
  if p ? 'prizes' then
    perform private.competition_set_prizes(p_id, prev.tickets_sold > 0 or prev.postal_tickets > 0, p -> 'prizes');
  end if;
  if p ? 'charity' then
    perform private.competition_set_charity(p_id, prev.status, p -> 'charity');
  end if;
  perform private.log_activity('competition.updated', p_id, jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p) k)));
  return private.admin_competition_row(p_id);
end;
$$;
comment on function public.admin_update_competition(uuid,jsonb) is 'Admins: changes the fields present in p. Drafts: anything. Live: not the slug, the dates, the ticket numbering or the charity and its terms; once tickets are sold only the wording, the prizes'' descriptions and images (not how many prizes there are, what each is worth or its cash alternative).';
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

create type public.competition_cancelled as (competition public.admin_competition, refunded_entries integer, refunded_total numeric(12,2));
comment on type public.competition_cancelled is 'A cancellation: the cancelled competition, and how many paid entries were refunded to credit and for how much.';

create or replace function public.admin_cancel_competition(p_id uuid, p_reason text) returns public.competition_cancelled
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
$$;
comment on function public.admin_cancel_competition(uuid,text) is 'Admins: cancels a competition that is not drawn, refunding every paid entry to credit with its own ledger row, voiding postal entries and e-mailing entrants.';
revoke all on function public.admin_cancel_competition(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_cancel_competition(uuid,text) to authenticated;
grant execute on function public.admin_cancel_competition(uuid,text) to service_role;

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

create type public.fulfilment_story as (consent boolean, consent_source text, consent_note text, consent_changed_at timestamp with time zone, consent_changed_by text, photo_path text, photo_alt text, quote text, story_updated_at timestamp with time zone);
comment on type public.fulfilment_story is 'A winner''s photo consent (how it was given, by whom, when) and what is published, as the admin sees it.';

create type public.identity_document as enum ('passport', 'driving_licence', 'national_identity_card', 'other');
comment on type public.identity_document is 'The document an admin checked a winner''s identity against before their claim was verified.';

create type public.prize_identity_check as (document_type public.identity_document, document_last_four text, note text, checked_by text, checked_at timestamp with time zone);
comment on type public.prize_identity_check is 'The identity check behind a verified claim, as admins see it: the document, the last four characters of its number, the note, the admin''s name and when.';

create type public.fulfilment_competition as (id uuid, slug text, title text);
comment on type public.fulfilment_competition is 'The competition a prize to fulfil belongs to.';

create type public.prize_fulfilment as (draw_id uuid, competition public.fulfilment_competition, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), winning_number integer, drawn_at timestamp with time zone, winner_display_name text, winner_town text, winner_user_id uuid, winner_name text, winner_email text, winner_address text, route text, prize_choice public.prize_choice, delivery_address text, claimed_at timestamp with time zone, prize_status public.prize_status, prize_status_updated_at timestamp with time zone, verified_at timestamp with time zone, delivered_at timestamp with time zone, fulfilment_note text, proof_of_delivery text, prize_cost numeric(12,2), winner_initials_only boolean, story public.fulfilment_story, identity_check public.prize_identity_check, prize_position smallint);
comment on type public.prize_fulfilment is 'One draw''s prize fulfilment for admins: the prize, the winner (name, e-mail or postal address, route), the claim, the status with its times, the note, the proof of delivery, the prize''s cost, the winner''s photo consent and story, and the identity check behind the latest verification.';

create type public.entry_status as enum ('active', 'refunded', 'void');
comment on type public.entry_status is 'Whether an entry''s tickets still count.';

create type public.postal_entry_record as (entry_id uuid, name text, address text, postcode text, user_id uuid, email text, answer text, tickets integer, ticket_numbers integer[], status public.entry_status, recorded_by text, created_at timestamp with time zone);
comment on type public.postal_entry_record is 'One postal entry on its competition''s admin page: the letter''s name, address and answer, the linked account''s e-mail, its tickets and their numbers, and who recorded it.';

create type public.competition_figures as (online_tickets integer, postal_tickets integer, paid_entries bigint, postal_entries bigint, players bigint, revenue numeric, refunded_entries bigint, refunded_total numeric, void_postal_entries bigint);
comment on type public.competition_figures is 'A competition''s figures on its admin page: online and postal tickets, active paid and postal entries, players, revenue, refunds and void postal entries.';

create type public.competition_stored_dates as (postal_deadline timestamp with time zone, draw_at timestamp with time zone);
comment on type public.competition_stored_dates is 'A competition''s postal deadline and draw time as stored: null in a draft means the default at publish.';

create type public.admin_competition_detail as (competition public.admin_competition, stored_dates public.competition_stored_dates, figures public.competition_figures, postal_entries public.postal_entry_record[], fulfilment public.prize_fulfilment);
comment on type public.admin_competition_detail is 'One competition''s admin page: the competition, its stored dates, its figures, every postal entry and, once drawn, the prize fulfilment.';

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
    (select private.prize_fulfilment_row(d.id) from public.draws d where d.competition_id = p_id and d.prize_position = 1)
  )::public.admin_competition_detail;
end;
$$;
comment on function public.admin_competition_detail(uuid) is 'Admins: one competition for its admin page: the competition with the admin fields, the stored postal deadline and draw time (null in a draft: the default), the figures (online and postal tickets, entries, players, revenue, refunds), every postal entry with its ticket numbers, and the prize fulfilment once drawn.';
revoke all on function public.admin_competition_detail(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_detail(uuid) to authenticated;
grant execute on function public.admin_competition_detail(uuid) to service_role;

create type public.competition_history_totals as (competitions integer, revenue numeric, refunded_total numeric, prize_cost numeric, net numeric, charity_owed numeric);
comment on type public.competition_history_totals is 'The admin history''s totals over every finished competition.';

create type public.competition_history_row as (id uuid, slug text, title text, status public.competition_status, closes_at timestamp with time zone, draw_at timestamp with time zone, finished_at timestamp with time zone, ticket_price numeric(12,2), total_tickets integer, tickets_sold integer, postal_tickets integer, revenue numeric, refunded_total numeric, prize_value numeric(12,2), cash_alternative numeric(12,2), prize_choice public.prize_choice, prize_status public.prize_status, draw_id uuid, winner_display_name text, prize_cost numeric, net numeric, charity_owed numeric);
comment on type public.competition_history_row is 'One finished competition (drawn, closed or cancelled) in the admin history: its dates, tickets, revenue, refunds, prize cost (drawn only: every prize), what its charity partner is owed, and net.';

create type public.competition_history as (rows public.competition_history_row[], totals public.competition_history_totals);
comment on type public.competition_history is 'The admin history: finished competitions, most recently finished first, and their totals.';

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
                     pc.cost, m.revenue - pc.cost - co.owed, co.owed)::public.competition_history_row as line
            from public.competitions c
            left join public.draws d on d.competition_id = c.id and d.prize_position = 1
            cross join lateral (
              select coalesce(sum(e.amount) filter (where e.kind = 'paid' and e.status = 'active'), 0) as revenue,
                     coalesce(sum(e.amount) filter (where e.status = 'refunded'), 0) as refunded
                from public.entries e where e.competition_id = c.id) m
            -- Only a drawn competition has prizes to pay: each one's value, or the cash its winner chose.
            cross join lateral (
              select coalesce(sum(case when w.prize_choice = 'cash' and w.cash_alternative is not null
                                       then w.cash_alternative else w.prize_value end), 0)::numeric(12, 2) as cost
                from public.draws w where w.competition_id = c.id) pc
            -- What a charity partner is owed (decision 059) comes out of the net too.
            cross join lateral (select coalesce(private.charity_owed(c.id), 0)::numeric(12, 2) as owed) co
           where c.status in ('drawn', 'closed', 'cancelled')) x;
  return row(
    finished,
    (select row(count(*)::integer, coalesce(sum(h.revenue), 0), coalesce(sum(h.refunded_total), 0),
                coalesce(sum(h.prize_cost), 0), coalesce(sum(h.net), 0),
                coalesce(sum(h.charity_owed), 0))::public.competition_history_totals
       from unnest(finished) h))::public.competition_history;
end;
$$;
comment on function public.admin_competition_history() is 'Admins: finished competitions (drawn, closed, cancelled), most recently finished first, each with revenue (active paid entries), refunds, prize cost (drawn only: over every prize, the cash alternative when its winner chose cash, else the prize value; the first prize''s choice, status and winner shown), what a charity partner is owed, and net (revenue - prize cost - charity owed); totals over all of them.';
revoke all on function public.admin_competition_history() from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_history() to authenticated;
grant execute on function public.admin_competition_history() to service_role;

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

create or replace function private.competition_phase(c public.competitions, p_now timestamp with time zone) returns text
language sql stable set search_path = '' as $$
  select case
    when c.status in ('draft', 'cancelled', 'drawn') then c.status::text
    when c.status = 'live' and p_now < c.opens_at then 'upcoming'
    when c.status = 'live' and p_now < c.closes_at and c.tickets_sold < c.total_tickets then 'live'
    when p_now < c.postal_deadline then 'postal_window'
    when p_now < c.draw_at or c.tickets_sold + c.postal_tickets > 0 then 'awaiting_draw'
    else 'closed'
  end;
$$;
comment on function private.competition_phase(public.competitions,timestamp with time zone) is 'Where a competition stands at a moment, as the public site shows it (phaseOf in lib/competitions/status.ts): draft, upcoming (published, not open yet), live (online sales open), postal_window (online sales ended, letters still enter), awaiting_draw, drawn, closed (no tickets at the draw time) or cancelled.';
revoke all on function private.competition_phase(public.competitions,timestamp with time zone) from public, anon, authenticated, service_role;

create or replace function private.ticket_bundles(c public.competitions) returns public.ticket_bundle[]
language sql stable set search_path = '' as $$
  -- The entry form's quick picks (components/competitions/entry-panel.tsx) that one person may buy now.
  select coalesce(array_agg(row(q, c.ticket_price * q)::public.ticket_bundle order by q), '{}')
    from unnest(array[1, 5, 10, 25]) q
   where q <= least(c.max_tickets_per_user, c.total_tickets - c.tickets_sold)
$$;
comment on function private.ticket_bundles(public.competitions) is 'The ticket bundles (1, 5, 10, 25) one person may buy now, each with its cost in pounds.';
revoke all on function private.ticket_bundles(public.competitions) from public, anon, authenticated, service_role;

-- ----------------------------------------------------------------------------
-- Triggers and policies on tables made elsewhere
-- ----------------------------------------------------------------------------

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
