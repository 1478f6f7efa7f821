-- ============================================================================
-- Purchases that don't collapse on a hot competition (issue 13, item 4).
--
-- Until now an entry locked the competition row first and held it while it did all its
-- work: the checks, the player's account lock, protections and monthly limit, the ledger
-- debit, the totals, the receipt and the audit row, and then the commit. Every purchase of
-- one competition queued behind the whole of the one before it (bench:onsale --compare on
-- PostgreSQL 15, one run: 532/s to one buyer, 415/s to 50, 199/s to 200; after: 906, 774, 502).
--
-- Now the order is: the competition's entry gate (a shared advisory lock, so entries never
-- wait for each other on it), the player's account row, every check and the debit, the
-- audit row, and only then the competition row, as one conditional counter update that
-- also numbers the tickets (`tickets_sold + n <= total_tickets`, returning the new count),
-- followed by the entry, its tickets and the receipt. Entries take turns for that update in
-- a queue of their own (an exclusive advisory lock per competition): many transactions
-- waiting on one row all wake and re-check it on every commit, which is what made 200
-- buyers slower than 50; a lock queue wakes only the next in line. The row lock is held
-- from that update to the commit, so numbering stays contiguous and exact, and nothing
-- oversells.
--
--   lock order, every path:  gate  ->  account row  ->  (counter queue)  ->  competition row
--   entries, postal entries, the entry a top-up pays for: the gate shared;
--   changing a live competition's terms, cancelling: the gate exclusive, before the row.
--
-- Why the gate: an entry now reads the competition without a lock and holds the player's
-- account before it touches the competition row. Cancelling holds the row and then locks
-- every entrant's account (refunds), so without the gate the two could deadlock; and an
-- admin could change the price, cap or question between an entry's read and its counter
-- update. Both take the gate exclusively first, so they wait for the entries in flight and
-- new entries wait for them. The per-person cap stays exact because every path that adds a
-- player's tickets (an entry, a linked postal entry) holds that player's account row while
-- it counts and adds them. The draw needs no gate: it only runs at its draw time, after
-- online entries close, and locks no account.
--
-- Behaviour, results and refusal codes are unchanged; the checks run in the same order.
-- ============================================================================

-- A hot competition's row is updated by every purchase: room on its page lets each new
-- version stay there (a HOT update, no index entries) instead of moving to a new page.
alter table public.competitions set (fillfactor = 50);

-- ----------------------------------------------------------------------------
-- The entry gate of a competition
-- ----------------------------------------------------------------------------
create function private.share_competition_gate(p_competition_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_advisory_xact_lock_shared(hashtextextended('competition_entry:' || p_competition_id, 0));
end;
$$;
comment on function private.share_competition_gate(uuid) is 'Takes a competition''s entry gate shared until commit (entries and postal entries, before the player''s account): entries do not wait for each other on it.';

create function private.hold_competition_gate(p_competition_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_advisory_xact_lock(hashtextextended('competition_entry:' || p_competition_id, 0));
end;
$$;
comment on function private.hold_competition_gate(uuid) is 'Takes a competition''s entry gate exclusively until commit (cancelling, changing its terms, before its row): waits for the entries in flight and holds new ones back.';

create function private.queue_for_competition_counter(p_competition_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_advisory_xact_lock(hashtextextended('competition_counter:' || p_competition_id, 0));
end;
$$;
comment on function private.queue_for_competition_counter(uuid) is 'Entries queue here, one at a time until commit, just before the counter update: a plain queue with one wake-up per turn, where waiting on the row itself would wake every waiter on every commit.';

-- ----------------------------------------------------------------------------
-- Why a competition cannot take entries now (shared by the locked and unlocked reads)
-- ----------------------------------------------------------------------------
create function private.refuse_unless_open_for_entry(c public.competitions) returns void
language plpgsql stable set search_path = '' as $$
begin
  if c.id is null or c.status = 'draft' then
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
end;
$$;
comment on function private.refuse_unless_open_for_entry(public.competitions) is 'Raises the reason a competition row (null when missing) cannot take online entries now, if any.';

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

-- ----------------------------------------------------------------------------
-- Entering online: checks and debit first, the competition row last
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
  sold integer;
  first_no integer;
  new_entry uuid := gen_random_uuid();
  new_balance numeric(12, 2);
  block jsonb;
  receipt_head text;
  receipt_tail text;
begin
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
  -- and the competition is still live, and its new value numbers them. The last ticket ends
  -- online sales at once; the draw still waits for its time (code of practice 1.9, 2.4).
  -- Entries take turns in the counter queue first, so the row is never contended by them.
  perform private.queue_for_competition_counter(c.id);
  update public.competitions
     set tickets_sold = tickets_sold + p_quantity, updated_at = now(),
         status = case when tickets_sold + p_quantity = total_tickets then 'sold_out' else status end,
         closed_at = case when tickets_sold + p_quantity = total_tickets then now() else closed_at end
   where id = c.id and status = 'live' and tickets_sold + p_quantity <= total_tickets
  returning tickets_sold into sold;
  if not found then
    -- Sold out, or too few left, or closed (drawn) since the read above: say which.
    select * into c from public.competitions where id = p_competition_id;
    perform private.refuse_unless_open_for_entry(c);
    raise exception 'Only % tickets left', c.total_tickets - c.tickets_sold using errcode = 'P0001', hint = 'not_enough_tickets';
  end if;
  first_no := sold - p_quantity + 1;
  insert into public.entries (id, competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
  values (new_entry, c.id, p_user, 'paid', p_quantity, c.ticket_price, cost, first_no);
  insert into public.tickets (competition_id, number, entry_id, user_id)
  select c.id, n, new_entry, p_user from generate_series(first_no, first_no + p_quantity - 1) n;
  perform private.queue_mail(p_user, 'entry_receipt', 'Your entry: ' || c.title,
    receipt_head || private.ticket_numbers_text(first_no, p_quantity) || receipt_tail);

  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(array(select generate_series(first_no, first_no + p_quantity - 1))),
    'balance', new_balance);
end;
$$;
comment on function private.enter_competition_for(uuid, uuid, integer, text) is 'Buys p_quantity tickets for p_user in one transaction (approval, protections, open check, skill answer, per-user cap over both routes, tickets left, monthly spend limit, credit through the ledger, numbers in purchase order, totals, receipt). Locks the competition''s gate (shared), the account, and the competition row last (the counter update that numbers the tickets). The last ticket ends online sales (sold_out); the draw waits for its time.';

-- ----------------------------------------------------------------------------
-- Postal entries: the same lock order
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

  -- Lock order, as entering: the gate, the linked account, the competition row. The row is
  -- held for the rest (postal entries are few): it serialises the per-person cap of an
  -- unlinked entrant (name and postcode), and numbers the postal tickets.
  perform private.share_competition_gate(p_competition_id);
  if p_user_id is not null then
    perform 1 from public.user_account_data a where a.id = p_user_id for update;
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
-- Changing a live competition's terms and cancelling: the gate, exclusively, first
-- (the bodies are those of the fair-play and competitions migrations plus the gate)
-- ----------------------------------------------------------------------------
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

create or replace function public.admin_cancel_competition(p_id uuid, p_reason text) returns jsonb
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

-- ----------------------------------------------------------------------------
-- The entry a top-up pays for: the gate (not the competition row) before the account
-- (the body is the payments migration's with that lock changed)
-- ----------------------------------------------------------------------------
create or replace function public.confirm_top_up(p_top_up_id uuid, p_payment_id text, p_funding text, p_amount_paid numeric)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  t public.top_ups%rowtype;
  balance numeric(12, 2);
  message text;
  r record;
  entry jsonb;
  err_hint text;
  err_message text;
begin
  perform private.require_server();
  if p_payment_id is null or char_length(p_payment_id) not between 1 and 255 then
    raise exception 'A payment id is required' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_funding is null or p_funding not in ('debit', 'credit', 'prepaid', 'wallet', 'unknown') then
    raise exception 'Funding must be debit, credit, prepaid, wallet or unknown' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_amount_paid is null or p_amount_paid = 'NaN'::numeric or p_amount_paid <= 0 then
    raise exception 'The amount paid must be more than zero' using errcode = '22023', hint = 'invalid_input';
  end if;

  perform private.payment_lock(p_payment_id);
  -- The row lock makes a replayed, duplicated or concurrent confirmation wait, then see
  -- this one's outcome and credit nothing.
  select * into t from public.top_ups where id = p_top_up_id for update;
  if not found then
    raise exception 'Top-up not found' using errcode = 'P0002', hint = 'top_up_not_found';
  end if;
  if t.payment_id is not null then
    if t.payment_id <> p_payment_id then
      raise exception 'This top-up was already paid by another payment' using errcode = 'P0001', hint = 'payment_mismatch';
    end if;
    return jsonb_build_object(
      'status', case t.status when 'refused_card_cap' then 'refund_required'
                              when 'refunded' then 'refunded' else 'already_credited' end,
      'top_up_id', t.id,
      'balance', (select a.credits from public.user_account_data a where a.id = t.user_id),
      'message', t.refusal_message,
      'message_code', case when t.status = 'refused_card_cap' then 'card_cap_exceeded' end);
  end if;
  if exists (select 1 from public.top_ups o where o.payment_id = p_payment_id) then
    raise exception 'This payment already paid for another top-up' using errcode = 'P0001', hint = 'payment_mismatch';
  end if;
  if p_amount_paid <> t.amount then
    raise exception 'The amount paid (%) is not the amount of the top-up (%)', private.format_gbp(p_amount_paid), private.format_gbp(t.amount)
      using errcode = 'P0001', hint = 'payment_mismatch';
  end if;

  -- Lock order: the competition's entry gate (when the top-up pays for an entry), then the
  -- account, as entering does; the competition row itself is locked last, by the entry.
  if t.purpose is not null then
    perform private.share_competition_gate((t.purpose ->> 'competition_id')::uuid);
  end if;
  perform private.create_account_rows(t.user_id);
  perform 1 from public.user_account_data a where a.id = t.user_id for update;

  if p_funding = 'credit' then
    begin
      perform private.require_within_card_cap(t.user_id, t.amount);
    exception when raise_exception then
      -- The money is already taken, so the refusal is recorded (and refunded by the
      -- adapter) instead of failing the confirmation.
      get stacked diagnostics message = message_text, err_hint = pg_exception_hint;
      if err_hint is distinct from 'card_cap_exceeded' then
        raise;
      end if;
      update public.top_ups
         set status = 'refused_card_cap', payment_id = p_payment_id, funding = p_funding, refusal_message = message, updated_at = now()
       where id = t.id;
      perform private.log_activity('top_up.refused_card_cap', t.id, jsonb_build_object('amount', t.amount));
      for r in select id from public.top_up_refunds where payment_id = p_payment_id and applied_at is null order by id loop
        perform private.apply_top_up_refund(r.id);
      end loop;
      return jsonb_build_object('status', 'refund_required', 'top_up_id', t.id,
        'balance', (select a.credits from public.user_account_data a where a.id = t.user_id),
        'message', message, 'message_code', 'card_cap_exceeded');
    end;
  end if;

  -- Credited even when the top-up had been marked failed or expired: the money was taken.
  update public.top_ups
     set status = 'credited', payment_id = p_payment_id, funding = p_funding, credited_at = now(), updated_at = now()
   where id = t.id;
  balance := private.post_ledger(t.user_id, 'top_up', t.amount,
    'Top-up by ' || case p_funding when 'debit' then 'debit card' when 'credit' then 'credit card'
                                   when 'prepaid' then 'prepaid card' when 'wallet' then 'wallet' else 'card' end,
    'top_up:' || t.id, t.amount);
  if t.bonus > 0 then
    balance := private.post_ledger(t.user_id, 'bonus', t.bonus, 'Top-up bonus', 'top_up:' || t.id);
  end if;
  perform private.queue_mail(t.user_id, 'top_up_receipt', 'Your LabCash top-up receipt',
    format(E'Thank you for your top-up.\n\nAmount paid: %s\nBonus credit: %s\nPaid by: %s\nCredit balance: %s\nReference: top_up:%s',
           private.format_gbp(t.amount), private.format_gbp(t.bonus),
           case p_funding when 'debit' then 'debit card' when 'credit' then 'credit card'
                          when 'prepaid' then 'prepaid card' when 'wallet' then 'wallet' else 'card' end,
           private.format_gbp(balance), t.id));
  perform private.log_activity('top_up.credited', t.id,
    jsonb_build_object('amount', t.amount, 'bonus', t.bonus, 'funding', p_funding, 'was', t.status));

  -- A refund that arrived before this confirmation is applied now.
  for r in select id from public.top_up_refunds where payment_id = p_payment_id and applied_at is null order by id loop
    perform private.apply_top_up_refund(r.id);
  end loop;
  select * into t from public.top_ups where id = t.id;

  -- The entry the top-up was for: made in a sub-transaction, so a refusal (sold out
  -- meanwhile, say) keeps the credit and is recorded for the player to see.
  if t.purpose is not null and t.status = 'credited' then
    begin
      entry := private.enter_competition_for(t.user_id, (t.purpose ->> 'competition_id')::uuid,
                                             (t.purpose ->> 'quantity')::integer, t.purpose ->> 'answer');
      update public.top_ups set entry_id = (entry ->> 'entry_id')::uuid, updated_at = now() where id = t.id;
    exception when others then
      get stacked diagnostics err_hint = pg_exception_hint, err_message = message_text;
      update public.top_ups
         set entry_error_code = coalesce(nullif(err_hint, ''), 'unexpected'), entry_error_message = err_message, updated_at = now()
       where id = t.id;
    end;
  end if;

  return jsonb_build_object(
    'status', case when t.status = 'refunded' then 'refunded' else 'credited' end,
    'top_up_id', t.id,
    'balance', (select a.credits from public.user_account_data a where a.id = t.user_id));
end;
$$;

-- ----------------------------------------------------------------------------
-- The small helpers every purchase calls, in PL/pgSQL: a SQL-language function with its own
-- search_path is never inlined, and its plan is made again in every transaction (about a
-- tenth of a millisecond each, two of them after the competition row is locked); PL/pgSQL
-- keeps its plans for the connection. Same results.
-- ----------------------------------------------------------------------------
create or replace function private.queue_mail(p_user uuid, p_kind text, p_subject text, p_body text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.mail_outbox (to_email, to_user, kind, subject, body_text)
  select u.email, u.id, p_kind, p_subject, p_body from auth.users u where u.id = p_user and u.email is not null;
end;
$$;

create or replace function private.log_activity(p_action text, p_subject uuid, p_details jsonb default '{}'::jsonb) returns void
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.activity_log (actor_id, action, subject_id, details)
  values (auth.uid(), p_action, p_subject, coalesce(p_details, '{}'::jsonb));
end;
$$;

create or replace function private.ticket_numbers_text(p_first integer, p_quantity integer) returns text
language plpgsql immutable set search_path = '' as $$
begin
  return case
    when p_quantity = 1 then '#' || p_first
    when p_quantity <= 20 then (select string_agg('#' || n, ', ' order by n) from generate_series(p_first, p_first + p_quantity - 1) n)
    else '#' || p_first || ' to #' || (p_first + p_quantity - 1)
  end;
end;
$$;

create or replace function private.answer_is_correct(c public.competitions, p_answer text) returns boolean
language plpgsql stable set search_path = '' as $$
begin
  return c.skill_question is null or lower(btrim(coalesce(p_answer, ''))) = lower(btrim(c.skill_answer));
end;
$$;
