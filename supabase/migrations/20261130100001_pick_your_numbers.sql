-- pick_your_numbers: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.enter_competition_for(uuid,uuid,integer,text);

drop function private.ticket_numbers_text(integer,integer);

drop function public.enter_competition(uuid,integer,text);

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
      'ticket_numbering', c.ticket_numbering,
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
                 'ticket_count', d.ticket_count, 'drawn_at', d.drawn_at,
                 'story', private.winner_story_json(d.id))
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
comment on function private.competition_json(uuid,boolean) is 'A competition as JSON for the app; the skill answer and admin figures only when p_admin.';
revoke all on function private.competition_json(uuid,boolean) from public, anon, authenticated, service_role;

create or replace function public.enter_competition(p_competition_id uuid, p_quantity integer, p_answer text default null,
                                                    p_numbers integer[] default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  err_hint text;
  retry_at timestamptz;
begin
  -- One attempt at a time per player and competition, held to commit: a second answer sent at the same
  -- moment waits here and then sees the first one's miss (the account lock inside the sub-transaction
  -- is released when a wrong answer rolls it back, so it cannot do this).
  perform pg_advisory_xact_lock(hashtextextended('skill-answer:' || uid::text || ':' || p_competition_id::text, 0));
  begin
    return private.enter_competition_for(uid, p_competition_id, p_quantity, p_answer, p_numbers);
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
comment on function public.enter_competition(uuid,integer,text,integer[]) is 'Signed-in, approved players: buys p_quantity tickets, or on a pick competition the numbers p_numbers (null: a lucky dip of p_quantity) (private.enter_competition_for), refusing with a raised error and its code; except a wrong skill answer, which is recorded (skill_answer_misses: the question closes to the player for skill_answer_cooldown_minutes, refused as skill_answer_cooldown) and returned as {"refused": {"code": "answer_incorrect", message, retry_at}} so the record commits.';
revoke all on function public.enter_competition(uuid,integer,text,integer[]) from public, anon, authenticated, service_role;
grant execute on function public.enter_competition(uuid,integer,text,integer[]) to authenticated;
grant execute on function public.enter_competition(uuid,integer,text,integer[]) to service_role;

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
        'ticket_numbers', to_jsonb(private.entry_ticket_numbers(e.id)),
        'competition', jsonb_build_object(
          'id', c.id, 'slug', c.slug, 'title', c.title, 'status', c.status, 'image', c.images[1],
          'closes_at', c.closes_at, 'total_tickets', c.total_tickets, 'tickets_sold', c.tickets_sold),
        'draw', (select jsonb_build_object(
                   'id', d.id, 'winning_number', d.winning_number, 'drawn_at', d.drawn_at,
                   'won', d.winning_ticket_id in (select t.id from public.tickets t where t.entry_id = e.id),
                   'prize_description', c.prize_description,
                   'cash_alternative', c.cash_alternative,
                   'prize_choice', case when d.winner_user_id = e.user_id
                                         and d.winning_ticket_id in (select t.id from public.tickets t where t.entry_id = e.id)
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
revoke all on function public.get_my_entries() from public, anon, authenticated, service_role;
grant execute on function public.get_my_entries() to authenticated;
grant execute on function public.get_my_entries() to service_role;

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
  return private.competition_json(c.id, true);
end;
$$;
comment on function public.admin_create_competition(jsonb) is 'Admins: creates a draft competition from {title, slug?, summary?, description?, prize_description, prize_value, cash_alternative?, images[], ticket_price, total_tickets, max_tickets_per_user, opens_at?, closes_at, postal_deadline? (default 2 working days after the close), draw_at? (default the postal deadline), skill_question?, skill_options[]?, skill_answer?, ticket_numbering? (in_order or pick; default in_order)}.';
revoke all on function public.admin_create_competition(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_create_competition(jsonb) to authenticated;
grant execute on function public.admin_create_competition(jsonb) to service_role;

create or replace function public.admin_update_competition(p_id uuid, p jsonb) returns jsonb
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
  return private.competition_json(p_id, true);
end;
$$;
comment on function public.admin_update_competition(uuid,jsonb) is 'Admins: changes the fields present in p. Drafts: anything. Live: not the slug, the dates or the ticket numbering; once tickets are sold only wording, prize details and images.';
revoke all on function public.admin_update_competition(uuid,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_competition(uuid,jsonb) to authenticated;
grant execute on function public.admin_update_competition(uuid,jsonb) to service_role;

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
             c.title, private.ticket_numbers_text(private.entry_ticket_numbers(new_entry)), tickets,
             case when tickets = 1 then 'ticket' else 'tickets' end,
             to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI'), c.seed_commitment));
  end if;
  perform private.log_activity('competition.postal_entry', c.id,
    jsonb_build_object('entry_id', new_entry, 'user_id', p_user_id, 'first_ticket', numbers[1], 'tickets', tickets));
  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(private.entry_ticket_numbers(new_entry)),
    'tickets', tickets);
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

  -- The debit, the totals, the audit row and most of the receipt, before the competition row.
  new_balance := private.post_ledger(p_user, 'entry', -cost,
    format('Entry: %s (%s %s)', c.title, p_quantity, case when p_quantity = 1 then 'ticket' else 'tickets' end),
    'entry:' || new_entry);
  update public.user_account_data
     set total_spent = total_spent + cost, total_entries = total_entries + p_quantity, updated_at = now()
   where id = p_user;
  perform private.log_activity('competition.entered', c.id,
    jsonb_build_object('entry_id', new_entry, 'quantity', p_quantity, 'amount', cost, 'user_id', p_user));
  receipt_head := format(E'Thank you for entering %s.\n\nYour ticket numbers: ', c.title);
  receipt_tail := format(E'\nTickets: %s at %s each\nTotal: %s\nCredit left: %s\n\n'
                         'The draw is on %s. It is verifiable: its seed commitment is %s.',
    p_quantity, private.format_gbp(c.ticket_price), private.format_gbp(cost), private.format_gbp(new_balance),
    to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI'), c.seed_commitment);

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
  perform private.queue_mail(p_user, 'entry_receipt', 'Your entry: ' || c.title,
    receipt_head || private.ticket_numbers_text(private.entry_ticket_numbers(new_entry)) || receipt_tail);

  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(private.entry_ticket_numbers(new_entry)),
    'balance', new_balance);
end;
$$;
comment on function private.enter_competition_for(uuid,uuid,integer,text,integer[]) is 'Buys p_quantity tickets (or the chosen p_numbers on a pick competition) for p_user in one transaction (approval, protections, open check, chosen numbers valid, skill answer, per-user cap over both routes, tickets left, monthly spend limit, credit through the ledger, numbers from private.take_ticket_numbers, totals, receipt). Locks the competition''s gate (shared), the account, and the competition row last (the counter update that numbers the tickets). The last ticket ends online sales (sold_out); the draw waits for its time.';
revoke all on function private.enter_competition_for(uuid,uuid,integer,text,integer[]) from public, anon, authenticated, service_role;

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

create or replace function public.admin_competition_detail(p_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  perform private.require_admin();
  select * into c from public.competitions where id = p_id;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
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
          'ticket_numbers', to_jsonb(private.entry_ticket_numbers(e.id)),
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
revoke all on function public.admin_competition_detail(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_detail(uuid) to authenticated;
grant execute on function public.admin_competition_detail(uuid) to service_role;

create or replace function public.admin_competition_entries_csv(p_id uuid, p_after integer default 0, p_limit integer default 10000)
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
  return jsonb_build_object(
    'csv', case when after_no = 0
                then 'entry_id,created_at,route,status,first_ticket,last_ticket,tickets,amount,user_id,name,email,postal_address,postcode' || E'\n'
                else '' end || lines,
    'last_number', last_no,
    'done', last_no is null
            or not exists (select 1 from public.entries e where e.competition_id = p_id and e.first_ticket > last_no));
end;
$$;
comment on function public.admin_competition_entries_csv(uuid,integer,integer) is 'Admins: a chunk of a competition''s entries as CSV (one line per order or postal entry: id, time (UTC), route, status, ticket range, amount, the buyer''s id, name and e-mail, the postal address), in ticket order after first ticket p_after; the header in the first chunk only. Any state, drafts and cancelled ones included.';
revoke all on function public.admin_competition_entries_csv(uuid,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_entries_csv(uuid,integer,integer) to authenticated;
grant execute on function public.admin_competition_entries_csv(uuid,integer,integer) to service_role;

create or replace function public.get_top_up(p_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  t public.top_ups%rowtype;
begin
  select * into t from public.top_ups where id = p_id and user_id = uid;
  if not found then
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
  end if;
  return jsonb_build_object(
    'id', t.id,
    'status', t.status,
    'amount', t.amount,
    'bonus', t.bonus,
    'credit', t.amount + t.bonus,
    'funding', t.funding,
    'provider', t.provider,
    'balance', coalesce((select a.credits from public.user_account_data a where a.id = uid), 0),
    'created_at', t.created_at,
    'credited_at', t.credited_at,
    'refusal_reason', t.refusal_message,
    'refusal_reason_code', case when t.status = 'refused_card_cap' then 'card_cap_exceeded' end,
    'purpose', t.purpose,
    'entry', (select jsonb_build_object(
                'entry_id', e.id,
                'ticket_numbers', to_jsonb(private.entry_ticket_numbers(e.id)),
                'competition_slug', c.slug)
                from public.entries e join public.competitions c on c.id = e.competition_id
               where e.id = t.entry_id),
    'entry_error', case when t.entry_error_code is not null
                        then jsonb_build_object('code', t.entry_error_code, 'message', t.entry_error_message) end);
end;
$$;
comment on function public.get_top_up(uuid) is 'The owner''s top-up: status, amounts, funding, current balance, why it was refused, and the entry it made (or why that entry failed). Anyone else gets top_up_not_found.';
revoke all on function public.get_top_up(uuid) from public, anon, authenticated, service_role;
grant execute on function public.get_top_up(uuid) to authenticated;
grant execute on function public.get_top_up(uuid) to service_role;

create or replace function public.admin_get_user(p_user_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data;
begin
  perform private.require_admin();
  acct := private.admin_user_target(p_user_id);
  return jsonb_build_object(
    'user', private.admin_user_row(p_user_id) || jsonb_build_object(
      'date_of_birth', (select p.date_of_birth from public.profiles p where p.id = p_user_id),
      'town', (select p.town from public.profiles p where p.id = p_user_id),
      'email_notifications', (select p.email_notifications from public.profiles p where p.id = p_user_id),
      'approved_at', acct.approved_at,
      'approved_by_name', (select p.name from public.profiles p where p.id = acct.approved_by),
      'rejected_at', acct.rejected_at,
      'rejection_reason', acct.rejection_reason,
      'total_spent', acct.total_spent,
      'total_entries', acct.total_entries,
      'verified_at', acct.verified_at),
    -- Limits and breaks; a deleted account shows what it had.
    'protections', private.protections_json(p_user_id),
    'entries', (select coalesce(jsonb_agg(jsonb_build_object(
                  'id', e.id, 'competition_id', e.competition_id, 'competition_title', c.title,
                  'kind', e.kind, 'quantity', e.quantity, 'amount', e.amount, 'status', e.status,
                  'first_ticket', e.first_ticket, 'last_ticket', (select max(t.number) from public.tickets t where t.entry_id = e.id),
                  'created_at', e.created_at) order by e.created_at desc), '[]'::jsonb)
                  from (select * from public.entries x where x.user_id = p_user_id
                         order by x.created_at desc limit 50) e
                  join public.competitions c on c.id = e.competition_id),
    'activity', (select coalesce(jsonb_agg(jsonb_build_object(
                   'id', l.id, 'action', l.action, 'created_at', l.created_at, 'details', l.details,
                   'actor_id', l.actor_id, 'actor_name', ap.name,
                   'role', case when l.subject_id = p_user_id then 'subject' else 'actor' end)
                   order by l.id desc), '[]'::jsonb)
                   from (select * from public.activity_log x
                          where x.subject_id = p_user_id or x.actor_id = p_user_id
                          order by x.id desc limit 20) l
                   left join public.profiles ap on ap.id = l.actor_id),
    'large_adjustment_threshold', (private.setting('large_adjustment_threshold'))::numeric);
end;
$$;
comment on function public.admin_get_user(uuid) is 'Admins: one user''s page: profile and account (user), limits and breaks (protections, as the player sees them), the 50 latest entries, the 20 latest activity rows about or by them, and the large-adjustment threshold. The ledger is paged by admin_user_ledger.';
revoke all on function public.admin_get_user(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_get_user(uuid) to authenticated;
grant execute on function public.admin_get_user(uuid) to service_role;

comment on table public.entries is 'One purchase (an order) or one postal entry of quantity tickets. Its numbers are its rows in public.tickets; first_ticket is the lowest of them (contiguous up to first_ticket + quantity - 1 only on in_order competitions).';
