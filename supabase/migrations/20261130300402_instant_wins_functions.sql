-- instant_wins_functions: written by `npm run db:migration` from supabase/schemas. Review it before committing.

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
  return private.competition_json(p_id, true);
end;
$$;
comment on function public.admin_update_competition(uuid,jsonb) is 'Admins: changes the fields present in p. Drafts: anything. Live: not the slug, the dates or the ticket numbering; once tickets are sold only wording, prize details and images.';
revoke all on function public.admin_update_competition(uuid,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_competition(uuid,jsonb) to authenticated;
grant execute on function public.admin_update_competition(uuid,jsonb) to service_role;

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
  return private.competition_json(p_id, true);
end;
$$;
comment on function public.admin_publish_competition(uuid,jsonb) is 'Admins: makes a draft live, fixing its dates (postal deadline and draw time defaulted), creating its secret seed in the database and publishing the SHA-256 commitment; optional external randomness (drand round or RANDOM.ORG signed result) is fixed here, before any sale.';
revoke all on function public.admin_publish_competition(uuid,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_publish_competition(uuid,jsonb) to authenticated;
grant execute on function public.admin_publish_competition(uuid,jsonb) to service_role;

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
    'tickets', tickets,
    'instant_wins', private.award_instant_wins(new_entry));
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
  wins := private.award_instant_wins(new_entry);

  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(private.entry_ticket_numbers(new_entry)),
    'balance', (select a.credits from public.user_account_data a where a.id = p_user),
    'instant_wins', wins);
end;
$$;
comment on function private.enter_competition_for(uuid,uuid,integer,text,integer[]) is 'Buys p_quantity tickets (or the chosen p_numbers on a pick competition) for p_user in one transaction (approval, protections, open check, chosen numbers valid, skill answer, per-user cap over both routes, tickets left, monthly spend limit, credit through the ledger, numbers from private.take_ticket_numbers, totals, receipt). Locks the competition''s gate (shared), the account, and the competition row last (the counter update that numbers the tickets). The last ticket ends online sales (sold_out); the draw waits for its time.';
revoke all on function private.enter_competition_for(uuid,uuid,integer,text,integer[]) from public, anon, authenticated, service_role;

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

create or replace function public.admin_set_instant_win_prizes(p_competition_id uuid, p_prizes jsonb) returns jsonb
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
      values (c.id, pos, prize ->> 'kind',
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
  return private.instant_wins_json(c.id, true);
end;
$$;
comment on function public.admin_set_instant_win_prizes(uuid,jsonb) is 'Admins: replaces a draft''s instant-win prizes with p_prizes [{kind: credit | spin | physical, title?, credit_amount (credit only), quantity}], in the order their numbers are assigned. Refused once published (instant_wins_locked) or when the count exceeds the tickets (instant_wins_exceed_tickets).';
revoke all on function public.admin_set_instant_win_prizes(uuid,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_set_instant_win_prizes(uuid,jsonb) to authenticated;
grant execute on function public.admin_set_instant_win_prizes(uuid,jsonb) to service_role;

-- Everything public about a competition's instant wins. The numbers and seed appear only once the draw
-- has revealed the seed (draws.seed_hex); until then only the prizes, the wins so far and the commitment.
create or replace function private.instant_wins_json(p_competition_id uuid, p_admin boolean default false) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'commitment', c.instant_win_commitment,
    'algorithm', 'labcash-instant-win-v1',
    'ticket_count', c.total_tickets,
    'prizes', coalesce((select jsonb_agg(jsonb_build_object(
                 'position', p.position, 'kind', p.kind, 'title', p.title, 'credit_amount', p.credit_amount,
                 'quantity', p.quantity,
                 'won', (select count(*) from public.instant_wins w where w.prize_id = p.id)) order by p.position)
               from public.instant_win_prizes p where p.competition_id = c.id), '[]'::jsonb),
    'wins', coalesce((select jsonb_agg(jsonb_build_object(
                 'ticket_number', w.ticket_number, 'winning_number', w.winning_number, 'prize_position', p.position,
                 'prize', p.title, 'display_name', w.display_name, 'ticket_id', w.ticket_id, 'won_at', w.won_at)
                 order by w.won_at, w.ticket_number)
               from public.instant_wins w join public.instant_win_prizes p on p.id = w.prize_id
              where w.competition_id = c.id), '[]'::jsonb),
    'seed_hex', d.seed_hex,
    'numbers', case when d.seed_hex is not null then
                 (select coalesce(jsonb_agg(jsonb_build_object('slot', n.slot, 'number', n.number, 'prize_position', p.position)
                                  order by n.slot), '[]'::jsonb)
                    from public.instant_win_numbers n join public.instant_win_prizes p on p.id = n.prize_id
                   where n.competition_id = c.id) end)
  from public.competitions c
  left join public.draws d on d.competition_id = c.id
  where c.id = p_competition_id and (p_admin or c.status <> 'draft')
$$;
comment on function private.instant_wins_json(uuid,boolean) is 'A competition''s instant wins: commitment, prizes (with how many are won), wins so far (ticket, prize, public name), and after the draw the seed and every winning number. Drafts only for admins.';
revoke all on function private.instant_wins_json(uuid,boolean) from public, anon, authenticated, service_role;

create or replace function public.get_instant_wins(p_slug text) returns jsonb
language sql stable security definer set search_path = '' as $$
  select private.instant_wins_json(c.id, public.is_admin()) from public.competitions c where c.slug = p_slug
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

create or replace function public.admin_list_instant_win_fulfilment() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', w.id, 'competition_title', c.title, 'slug', c.slug, 'prize', p.title, 'kind', p.kind,
             'ticket_number', w.ticket_number, 'display_name', w.display_name, 'user_id', w.user_id,
             'email', u.email, 'postal_name', pe.name, 'postal_address', pe.address,
             'status', w.status, 'won_at', w.won_at, 'delivered_at', w.delivered_at)
             order by w.won_at desc), '[]'::jsonb)
      from public.instant_wins w
      join public.competitions c on c.id = w.competition_id
      join public.instant_win_prizes p on p.id = w.prize_id
      left join auth.users u on u.id = w.user_id
      left join public.postal_entries pe on pe.entry_id = w.entry_id
     where w.status <> 'awarded');
end;
$$;
comment on function public.admin_list_instant_win_fulfilment() is 'Admins: instant wins an admin must deliver (physical prizes, postal entrants without an account), newest first, with the e-mail or the letter''s name and address.';
revoke all on function public.admin_list_instant_win_fulfilment() from public, anon, authenticated, service_role;
grant execute on function public.admin_list_instant_win_fulfilment() to authenticated;
grant execute on function public.admin_list_instant_win_fulfilment() to service_role;

create or replace function public.admin_mark_instant_win_delivered(p_id uuid) returns jsonb
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
  return jsonb_build_object('id', w.id, 'status', w.status, 'delivered_at', w.delivered_at);
end;
$$;
comment on function public.admin_mark_instant_win_delivered(uuid) is 'Admins: marks an instant win awaiting fulfilment as delivered (audited; the winner is notified).';
revoke all on function public.admin_mark_instant_win_delivered(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_mark_instant_win_delivered(uuid) to authenticated;
grant execute on function public.admin_mark_instant_win_delivered(uuid) to service_role;

create or replace function private.post_ledger(p_user uuid, p_kind text, p_amount numeric, p_reason text, p_reference text, p_transaction_amount numeric DEFAULT NULL::numeric)
 RETURNS numeric
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  new_balance numeric(12, 2);
  acct public.user_account_data%rowtype;
  card_part numeric(12, 2) := 0;
  card_top_up boolean;
begin
  if p_amount is null or p_amount = 0 or p_amount <> round(p_amount, 2) then
    raise exception 'Amount must be a non-zero number of pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into acct from public.user_account_data a where a.id = p_user for update;
  if not found then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  -- The credit-card-funded part (code of practice 1.3; DECISIONS "Instant wins"): a credit-card
  -- top-up and its bonus add to it, and taking them back spends it first; a refunded entry gives back
  -- the share its debit took; every other debit spends other credit first and this part last.
  card_top_up := p_kind in ('top_up', 'bonus', 'top_up_reversal') and p_reference like 'top_up:%'
    and exists (select 1 from public.top_ups t where t.id::text = substr(p_reference, 8) and t.funding = 'credit');
  card_part := case
    when p_amount > 0 and card_top_up then p_amount
    when p_amount > 0 and p_kind = 'refund' and p_reference like 'entry:%' then
      least(p_amount, coalesce((select -sum(l.card_amount) from public.credit_ledger l
                                 where l.user_id = p_user and l.kind = 'entry' and l.reference = p_reference), 0))
    when p_amount < 0 and card_top_up then greatest(p_amount, -acct.card_credit)
    when p_amount < 0 then least(0, p_amount + (acct.credits - acct.card_credit))
    else 0 end;
  update public.user_account_data
     set credits = credits + p_amount, card_credit = card_credit + card_part, updated_at = now()
   where id = p_user
  returning credits into new_balance;
  insert into public.credit_ledger (user_id, kind, amount, balance_after, reason, reference, transaction_amount, created_by, card_amount)
  values (p_user, p_kind::public.ledger_kind, p_amount, new_balance, p_reason, p_reference, p_transaction_amount, auth.uid(), card_part);
  return new_balance;
end;
$function$;
comment on function private.post_ledger(uuid,text,numeric,text,text,numeric) is 'Moves credit and appends the ledger row in one statement pair, keeping the credit-card-funded part (card_credit, card_amount): card top-ups add to it, debits spend other credit first. The balance check constraint refuses overdrafts.';
revoke all on function private.post_ledger(uuid,text,numeric,text,text,numeric) from public, anon, authenticated, service_role;

create or replace function private.ledger_filter_check(p_kind text) returns void
language plpgsql stable set search_path = '' as $$
begin
  if p_kind is not null and p_kind not in (select unnest(enum_range(null::public.ledger_kind))::text) then
    raise exception 'Unknown ledger kind: %', p_kind using errcode = '22023', hint = 'invalid_input';
  end if;
end;
$$;
comment on function private.ledger_filter_check(text) is 'Refuses an unknown ledger kind filter.';
revoke all on function private.ledger_filter_check(text) from public, anon, authenticated, service_role;
