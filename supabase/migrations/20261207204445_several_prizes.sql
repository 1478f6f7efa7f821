-- several_prizes: written by `npm run db:migration` from supabase/schemas. Review it before committing.

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

create or replace function public.list_winners() returns setof public.winner_summary
language sql stable security definer set search_path = '' as $$
  select d.id, c.id, c.slug, c.title, d.prize_description, d.prize_value, c.images[1], d.winner_display_name,
         d.winner_town, d.winning_number, d.ticket_count, d.drawn_at, d.prize_status, d.delivered_at,
         private.winner_story_json(d.id), d.prize_position,
         (select count(*)::integer from public.draws x where x.competition_id = d.competition_id)
    from public.draws d
    join public.competitions c on c.id = d.competition_id
   order by d.drawn_at desc, d.competition_id, d.prize_position
$$;
comment on function public.list_winners() is 'Public: every prize drawn, newest draw first and each draw''s prizes in order: prize (as drawn, with its position), winner''s first name and initial and town (if given), winning ticket, draw time, id for the verification page, and the prize''s progress (status, delivery date; never the winner''s address or the proof); the winner''s photo and quote only while they consent.';
revoke all on function public.list_winners() from public, anon, authenticated, service_role;
grant execute on function public.list_winners() to anon;
grant execute on function public.list_winners() to authenticated;
grant execute on function public.list_winners() to service_role;

create or replace function private.won_prize_title(p_draw_id uuid) returns text
language sql stable set search_path = '' as $$
  select c.title || case when exists (select 1 from public.draws x where x.competition_id = d.competition_id
                                                             and x.prize_position <> d.prize_position)
                         then ', ' || private.ordinal(d.prize_position) || ' prize' else '' end
    from public.draws d
    join public.competitions c on c.id = d.competition_id
   where d.id = p_draw_id
$$;
comment on function private.won_prize_title(uuid) is 'A prize as its winner reads it in mail and notifications: the competition''s title, and which prize when it had several ("MacBook Pro, 2nd prize").';
revoke all on function private.won_prize_title(uuid) from public, anon, authenticated, service_role;

create or replace function public.claim_prize(p_draw_id uuid, p_choice text, p_delivery_address text default null) returns public.prize_claim
language plpgsql security definer set search_path = '' as $$
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
  cash := d.cash_alternative;
  title := private.won_prize_title(p_draw_id);
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
$$;
comment on function public.claim_prize(uuid,text,text) is 'The winner: claims the prize (with the UK address to send it to) or its cash alternative (when offered); the prize becomes claimed. The claim can change until an admin verifies it (claim_closed after).';
revoke all on function public.claim_prize(uuid,text,text) from public, anon, authenticated, service_role;
grant execute on function public.claim_prize(uuid,text,text) to authenticated;
grant execute on function public.claim_prize(uuid,text,text) to service_role;

create or replace function private.prize_fulfilment_row(p_draw_id uuid) returns public.prize_fulfilment
language sql stable set search_path = '' as $$
  select d.id,
         row(c.id, c.slug, c.title)::public.fulfilment_competition,
         d.prize_description, d.prize_value, d.cash_alternative, d.winning_number, d.drawn_at,
         d.winner_display_name, d.winner_town, d.winner_user_id,
         -- The person to contact: the account's name and e-mail, or the postal entrant's name and address.
         coalesce(p.name, pe.name), p.email, pe.address,
         case when e.kind = 'postal' then 'postal' else 'online' end,
         d.prize_choice, d.delivery_address, d.claimed_at, d.prize_status, d.prize_status_updated_at, d.verified_at,
         d.delivered_at, d.fulfilment_note, d.proof_of_delivery,
         -- What the prize costs us: the cash when the winner chose it, else the prize's value.
         case when d.prize_choice = 'cash' and d.cash_alternative is not null then d.cash_alternative
              else d.prize_value end,
         coalesce(p.show_initials_only, false),
         (select row(s.consent, s.consent_source, s.consent_note, s.consent_changed_at, a.name, s.photo_path,
                     s.photo_alt, s.quote, s.story_updated_at)::public.fulfilment_story
            from public.winner_stories s
            left join public.profiles a on a.id = s.consent_changed_by
           where s.draw_id = d.id),
         -- What was checked for the verification that stands (none once a step back undid it).
         (select row(v.document_type, v.document_last_four, v.note, a.name, v.checked_at)::public.prize_identity_check
            from public.prize_identity_checks v
            left join public.profiles a on a.id = v.checked_by
           where v.draw_id = d.id and d.verified_at is not null
           order by v.id desc
           limit 1),
         d.prize_position
  from public.draws d
  join public.competitions c on c.id = d.competition_id
  join public.tickets t on t.id = d.winning_ticket_id
  join public.entries e on e.id = t.entry_id
  left join public.profiles p on p.id = d.winner_user_id
  left join public.postal_entries pe on pe.entry_id = e.id
  where d.id = p_draw_id
$$;
comment on function private.prize_fulfilment_row(uuid) is 'One prize''s fulfilment for admins: the prize as drawn and its position, the winner (name, e-mail or postal address), the claim (prize or cash), status with its times, notes, proof of delivery, the prize cost, the winner''s photo consent and story, and the identity check behind the verification while it stands.';
revoke all on function private.prize_fulfilment_row(uuid) from public, anon, authenticated, service_role;

create or replace function public.get_my_prizes() returns setof public.my_prize
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  return query
    select d.id,
           row(c.id, c.slug, c.title, c.images[1])::public.prize_competition,
           d.prize_description,
           d.prize_value,
           d.cash_alternative,
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
              from public.winner_stories s where s.draw_id = d.id),
           d.prize_position,
           (select count(*)::integer from public.draws x where x.competition_id = d.competition_id)
      from public.draws d
      join public.competitions c on c.id = d.competition_id
     where d.winner_user_id = uid
     order by d.drawn_at desc, d.prize_position;
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
    coalesce((select array_agg(private.won_prize_title(d.id) order by d.drawn_at desc, d.prize_position)
                from public.draws d
               where d.winner_user_id = uid and d.prize_status = 'awaiting_claim'), '{}'))::public.my_dashboard;
end;
$$;
comment on function public.get_my_dashboard() is 'The caller''s account dashboard: whether to invite a monthly limit (as get_top_up_options'' needs_limit_prompt) and the titles of their prizes awaiting a claim, newest draw first (as get_my_prizes).';
revoke all on function public.get_my_dashboard() from public, anon, authenticated, service_role;
grant execute on function public.get_my_dashboard() to authenticated;
grant execute on function public.get_my_dashboard() to service_role;

-- Each source is grouped by month and for all time in one pass (grouping sets), so the all-time figures are the
-- same sums as the months', and the median is over all draws, not of the months' medians.
create or replace function public.get_transparency_report() returns public.transparency_report
language sql stable security definer set search_path = '' as $$
  with drawn as (
    -- One row per prize drawn; what belongs to the competition (its instant wins) on its first prize's row only.
    select d.id, d.competition_id, d.prize_position, d.drawn_at,
           to_char(d.drawn_at at time zone 'Europe/London', 'YYYY-MM') as month, d.ticket_count,
           d.prize_choice, d.prize_status, d.winner_town, c.slug, c.title, d.prize_value, d.cash_alternative,
           c.postal_tickets,
           case when d.prize_position = 1 then
             coalesce((select sum(p.quantity) from public.instant_win_prizes p where p.competition_id = c.id), 0)
           else 0 end::integer as instant_wins_published,
           case when d.prize_position = 1 then
             (select count(*) from public.instant_wins w where w.competition_id = c.id)
           else 0 end::integer as instant_wins_won,
           (select count(*) from public.draw_checks k where k.draw_id = d.id)::integer as checks
      from public.draws d
      join public.competitions c on c.id = d.competition_id
  ),
  draw_figures as (
    select coalesce(month, 'all') as period,
           (count(*) filter (where prize_position = 1))::integer as competitions_drawn,
           sum(prize_value)::numeric(12,2) as prize_value,
           -- What winners chose is theirs: shown only where at least five in the period have chosen.
           case when count(prize_choice) >= 5 then (count(*) filter (where prize_choice = 'prize'))::integer end
             as prizes_chosen,
           case when count(prize_choice) >= 5 then (count(*) filter (where prize_choice = 'cash'))::integer end
             as cash_chosen,
           case when count(prize_choice) >= 5 then
             coalesce(sum(cash_alternative) filter (where prize_choice = 'cash' and prize_status = 'delivered'), 0)
           end::numeric(12,2) as cash_paid,
           (count(*) filter (where prize_status = 'awaiting_claim'))::integer as awaiting_claim,
           (count(*) filter (where prize_status = 'delivered'))::integer as prizes_delivered,
           (percentile_cont(0.5) within group (order by ticket_count) filter (where prize_position = 1))::numeric
             as median_tickets,
           sum(instant_wins_published)::integer as instant_wins_published,
           sum(instant_wins_won)::integer as instant_wins_won
      from drawn
     group by grouping sets ((month), ())
  ),
  entry_figures as (
    select coalesce(to_char(e.created_at at time zone 'Europe/London', 'YYYY-MM'), 'all') as period,
           (count(*) filter (where e.kind = 'paid' and e.status = 'active'))::integer as online_entries,
           coalesce(sum(e.quantity) filter (where e.kind = 'paid' and e.status = 'active'), 0)::integer as online_tickets,
           (count(*) filter (where e.kind = 'postal'))::integer as postal_received,
           (count(*) filter (where e.kind = 'postal' and e.status <> 'void'))::integer as postal_entered,
           coalesce(sum(e.quantity) filter (where e.kind = 'postal' and e.status <> 'void'), 0)::integer as postal_tickets
      from public.entries e
     group by grouping sets ((to_char(e.created_at at time zone 'Europe/London', 'YYYY-MM')), ())
  ),
  complaint_figures as (
    select coalesce(to_char(c.created_at at time zone 'Europe/London', 'YYYY-MM'), 'all') as period,
           count(*)::integer as complaints_received,
           (count(*) filter (where c.acknowledged_at <= c.acknowledge_by))::integer as complaints_acknowledged_in_time,
           (count(*) filter (where c.resolved_at <= c.respond_by))::integer as complaints_answered_in_time,
           (count(*) filter (where c.status <> 'resolved'))::integer as complaints_open,
           (count(*) filter (where (c.status <> 'resolved' and now() > c.respond_by)
                                or (c.acknowledged_at is null and now() > c.acknowledge_by)))::integer
             as complaints_overdue
      from public.complaints c
     group by grouping sets ((to_char(c.created_at at time zone 'Europe/London', 'YYYY-MM')), ())
  ),
  check_figures as (
    -- A draw is a competition's: the checks of its several prizes' pages are checks of one draw.
    select coalesce(to_char(k.checked_on, 'YYYY-MM'), 'all') as period,
           count(*)::integer as draw_checks,
           count(distinct d.competition_id)::integer as draws_checked
      from public.draw_checks k
      join public.draws d on d.id = k.draw_id
     group by grouping sets ((to_char(k.checked_on, 'YYYY-MM')), ())
  ),
  periods as (
    select period from draw_figures
    union select period from entry_figures
    union select period from complaint_figures
    union select period from check_figures
    union select 'all'
  ),
  figures as (
    select row(p.period, coalesce(d.competitions_drawn, 0), coalesce(d.prize_value, 0), d.prizes_chosen,
               d.cash_chosen, d.cash_paid, coalesce(d.awaiting_claim, 0),
               coalesce(d.prizes_delivered, 0), d.median_tickets, coalesce(d.instant_wins_published, 0),
               coalesce(d.instant_wins_won, 0), coalesce(e.online_entries, 0), coalesce(e.online_tickets, 0),
               coalesce(e.postal_received, 0), coalesce(e.postal_entered, 0), coalesce(e.postal_tickets, 0),
               coalesce(c.complaints_received, 0), coalesce(c.complaints_acknowledged_in_time, 0),
               coalesce(c.complaints_answered_in_time, 0), coalesce(c.complaints_open, 0),
               coalesce(c.complaints_overdue, 0), coalesce(k.draw_checks, 0), coalesce(k.draws_checked, 0)
           )::public.transparency_figures as f,
           p.period
      from periods p
      left join draw_figures d on d.period = p.period
      left join entry_figures e on e.period = p.period
      left join complaint_figures c on c.period = p.period
      left join check_figures k on k.period = p.period
  ),
  recent_months as (
    select f, period from figures where period <> 'all' order by period desc limit 12
  )
  select row(
    now(),
    (select f from figures where period = 'all'),
    (select coalesce(array_agg(f order by period desc), '{}') from recent_months),
    (select coalesce(array_agg(row(t.town, t.winners)::public.transparency_town order by t.winners desc, t.town), '{}')
       from (select min(btrim(winner_town)) as town, count(*)::integer as winners from drawn
              where nullif(btrim(winner_town), '') is not null group by lower(btrim(winner_town))) t),
    (select count(*)::integer from drawn where nullif(btrim(winner_town), '') is null),
    -- A competition's row: its first prize's draw, with every prize's value and every prize's browser checks.
    (select coalesce(array_agg(row(d.id, d.slug, d.title, d.month, d.drawn_at, d.ticket_count, d.postal_tickets,
                                   (select sum(x.prize_value) from drawn x where x.competition_id = d.competition_id),
                                   d.prize_status, d.winner_town, d.instant_wins_published, d.instant_wins_won,
                                   (select sum(x.checks) from drawn x where x.competition_id = d.competition_id)
                               )::public.transparency_draw order by d.drawn_at desc), '{}')
       from drawn d
      where d.prize_position = 1 and d.month >= coalesce((select min(period) from recent_months), ''))
  )::public.transparency_report
$$;
comment on function public.get_transparency_report() is 'The site (secret key only; it reads every entry, so the site computes it at most once a minute and serves the cached page): the trust page''s figures, all time and for each of the last twelve London months with any activity, computed from draws, entries, instant wins, complaints and browser checks; winners by town only as published (initials-only winners have none); no person, address or complaint text.';
revoke all on function public.get_transparency_report() from public, anon, authenticated, service_role;
grant execute on function public.get_transparency_report() to service_role;

-- Owed by the month a competition was drawn, paid by the month of the donation, both for all time too.
create or replace function public.get_transparency_charity_figures() returns setof public.charity_figures
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_server();
  return query
    with amounts as (
      select to_char(d.drawn_at at time zone 'Europe/London', 'YYYY-MM') as month, cc.charity_id,
             private.charity_owed(cc.competition_id) as owed, 0::numeric as paid
        from public.competition_charities cc
        join public.draws d on d.competition_id = cc.competition_id and d.prize_position = 1
      union all
      select to_char(g.donated_on, 'YYYY-MM'), cc.charity_id, 0, g.amount
        from public.charity_donations g
        join public.competition_charities cc on cc.competition_id = g.competition_id
    )
    select coalesce(a.month, 'all'), coalesce(sum(a.owed), 0)::numeric(12,2), coalesce(sum(a.paid), 0)::numeric(12,2),
           count(distinct a.charity_id)::integer
      from amounts a
     group by grouping sets ((a.month), ())
    having count(*) > 0;
end;
$$;
comment on function public.get_transparency_charity_figures() is 'The site (secret key only, cached): the trust page''s charity figures for all time and each London month with any: owed by the competitions drawn in it, paid by the donations made in it, and the charities concerned.';
revoke all on function public.get_transparency_charity_figures() from public, anon, authenticated, service_role;
grant execute on function public.get_transparency_charity_figures() to service_role;

-- A draw: every account holding a ticket hears the result in one insert (10,000 entrants: npm run
-- bench:notifications). A competition has one draws row per prize position (unique), so this runs once per prize
-- however often the cron retries; the notifications' unique key is the second guard.
create or replace function private.notify_draw() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where id = new.competition_id;
  -- Each prize tells its winner. The first prize's row, recorded after every other prize's (draw_competition), also
  -- tells each ticket holder who won nothing, once.
  insert into public.notifications (user_id, kind, ref, title, body, link, push_pending)
  select h.user_id,
         h.kind,
         'draw:' || new.id,
         case when h.kind = 'draw_won' then 'You won: ' || c.title else 'Draw result: ' || c.title end,
         case when h.kind = 'draw_won' and new.prize_position = 1 and h.prizes = 1
              then format('Your ticket #%s won. Claim your prize on My prizes.', new.winning_number)
              when h.kind = 'draw_won'
              then format('Your ticket #%s won the %s prize. Claim it on My prizes.', new.winning_number,
                          private.ordinal(new.prize_position))
              when h.prizes = 1
              then format('Ticket #%s won; none of your tickets did this time.', new.winning_number)
              else format('Ticket #%s won the first prize; none of your tickets won a prize this time.',
                          new.winning_number) end,
         '/winners/' || new.id,
         private.push_wanted(h.user_id, h.kind)
    from (select u.user_id,
                 case when u.user_id = new.winner_user_id then 'draw_won' else 'draw_lost' end as kind,
                 (select count(*) from public.draws x where x.competition_id = new.competition_id) as prizes
            -- Only the first prize reads every holder (one pass over the tickets); a later prize tells its winner.
            from (select distinct t.user_id from public.tickets t
                   where new.prize_position = 1 and t.competition_id = new.competition_id and t.user_id is not null
                  union
                  select new.winner_user_id where new.winner_user_id is not null) u
           where u.user_id = new.winner_user_id
              or not exists (select 1 from public.draws x
                              where x.competition_id = new.competition_id and x.winner_user_id = u.user_id)) h
  on conflict (user_id, kind, ref) do nothing;
  return null;
end;
$$;
comment on function private.notify_draw() is 'After a prize''s draw is recorded: draw_won to its winner; with the first prize (recorded last), draw_lost to every other account holding a ticket that won nothing; each links the verification page.';
revoke all on function private.notify_draw() from public, anon, authenticated, service_role;

create or replace function private.notify_prize() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.winner_user_id is not null then
    perform private.notify(new.winner_user_id, 'prize', 'draw:' || new.id || ':' || new.prize_status,
      'Prize update: ' || private.won_prize_title(new.id),
      case new.prize_status
        when 'verified' then 'Your claim is verified; your prize is on its way.'
        else 'Your prize has been delivered.' end,
      '/account/prizes');
  end if;
  return null;
end;
$$;
comment on function private.notify_prize() is 'When a prize is verified or delivered: a prize notification to the winner (their own claim is not news to them).';
revoke all on function private.notify_prize() from public, anon, authenticated, service_role;

create or replace function public.check_ticket(p_slug text, p_number integer) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  d public.draws%rowtype;
begin
  select * into c from public.competitions where slug = lower(btrim(p_slug));
  if not found or c.status = 'draft' then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if p_number is null or not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number = p_number) then
    return jsonb_build_object('result', 'no_such_ticket', 'number', p_number, 'title', c.title);
  end if;
  -- The prize this ticket won, or else the first prize.
  select * into d from public.draws x where x.competition_id = c.id
   order by x.winning_number = p_number desc, x.prize_position limit 1;
  if not found then
    return jsonb_build_object('result', 'not_drawn', 'number', p_number, 'title', c.title, 'draw_at', c.draw_at);
  end if;
  return jsonb_build_object('result', case when d.winning_number = p_number then 'won' else 'not_won' end,
                            'number', p_number, 'title', c.title, 'draw_id', d.id, 'winning_number', d.winning_number,
                            'prize_position', d.prize_position, 'prize_description', d.prize_description,
                            'prizes', (select count(*) from public.draws x where x.competition_id = c.id));
end;
$$;
comment on function public.check_ticket(text,integer) is 'Public "Did I win?": for a published competition''s ticket number, won, not_won, not_drawn or no_such_ticket (with the draw id to verify and, once drawn, the prize it won or the first prize, and how many prizes there were); never who holds the ticket.';
revoke all on function public.check_ticket(text,integer) from public, anon, authenticated, service_role;
grant execute on function public.check_ticket(text,integer) to anon;
grant execute on function public.check_ticket(text,integer) to authenticated;
grant execute on function public.check_ticket(text,integer) to service_role;
