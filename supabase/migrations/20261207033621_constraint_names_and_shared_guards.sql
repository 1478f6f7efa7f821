-- constraint_names_and_shared_guards: written by `npm run db:migration` from supabase/schemas. Review it before committing.

alter table public.competitions rename constraint competitions_check to competitions_closes_after_opening_check;

alter table public.competitions rename constraint competitions_check1 to competitions_per_player_cap_within_total_check;

alter table public.competitions rename constraint competitions_check2 to competitions_sold_within_total_check;

alter table public.competitions rename constraint competitions_check3 to competitions_skill_question_complete_check;

alter table public.competitions rename constraint competitions_check4 to competitions_seed_committed_once_published_check;

alter table public.complaints rename constraint complaints_check to complaints_resolved_with_response_check;

alter table public.credit_ledger rename constraint credit_ledger_amounts_are_pounds to credit_ledger_amounts_are_pounds_check;

alter table public.draws rename constraint draws_prize_fulfilment_steps to draws_prize_fulfilment_steps_check;

alter table public.entries rename constraint entries_check to entries_postal_entries_free_check;

alter table public.instant_win_prizes rename constraint instant_win_prizes_check to instant_win_prizes_credit_amount_for_credit_check;

alter table public.instant_wins rename constraint instant_wins_check to instant_wins_delivered_when_dated_check;

alter table public.mail_campaigns rename constraint mail_campaigns_check to mail_campaigns_competition_for_entrants_check;

alter table public.player_flags rename constraint player_flags_check to player_flags_reviewed_with_note_check;

alter table public.player_protections rename constraint player_protections_check to player_protections_pending_limit_dated_check;

alter table public.referrals rename constraint referrals_check to referrals_refused_with_reason_check;

alter table public.referrals rename constraint referrals_check1 to referrals_credited_with_amount_check;

alter table public.referrals rename constraint referrals_check2 to referrals_decided_unless_pending_check;

alter table public.referrals rename constraint referrals_check3 to referrals_not_self_check;

alter table public.top_ups rename constraint top_ups_check to top_ups_payment_id_once_paid_check;

alter table public.winner_stories rename constraint winner_stories_check to winner_stories_admin_consent_noted_check;

alter table public.winner_stories rename constraint winner_stories_check1 to winner_stories_photo_with_alt_check;

-- One approval rule for every way to spend (enter, hold numbers, spend credit, top up): a rejected account is
-- told so, with what it may not do; any other account not approved, or none, is awaiting approval.
create or replace function private.approval_refusal(p_account public.user_account_data, p_action text) returns jsonb
language sql immutable set search_path = '' as $$
  select case
    when p_account.approved then null
    when p_account.rejected_at is not null then
      jsonb_build_object('code', 'approval_rejected', 'message', 'Your account was not approved, so you cannot ' || p_action)
    else jsonb_build_object('code', 'approval_pending', 'message', 'Your account is awaiting approval')
  end
$$;
comment on function private.approval_refusal(public.user_account_data,text) is 'Why this account may not p_action ({code, message}: approval_rejected or approval_pending), or null when it is approved.';
revoke all on function private.approval_refusal(public.user_account_data,text) from public, anon, authenticated, service_role;

-- The caller passes the account row it has already read (usually locked for update), so the guard reads nothing.
create or replace function private.require_approved(p_account public.user_account_data, p_action text) returns void
language plpgsql stable set search_path = '' as $$
declare
  refusal jsonb := private.approval_refusal(p_account, p_action);
begin
  if refusal is not null then
    perform private.raise_refusal(refusal ->> 'code', refusal ->> 'message');
  end if;
end;
$$;
comment on function private.require_approved(public.user_account_data,text) is 'Refuses an account that is not approved (P0001, approval_rejected or approval_pending); p_action ends the rejected account''s message ("…so you cannot enter competitions").';
revoke all on function private.require_approved(public.user_account_data,text) from public, anon, authenticated, service_role;

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

create or replace function public.get_ticket_numbers(p_competition_id uuid, p_from integer, p_to integer)
returns public.ticket_number_page
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where id = p_competition_id;
  perform private.require_visible_competition(c);
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
  perform private.require_approved(acct, 'enter competitions');
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

create or replace function private.post_ledger(p_user uuid, p_kind text, p_amount numeric, p_reason text, p_reference text, p_transaction_amount numeric default null,
                                               p_spent numeric default 0, p_entries integer default 0) returns numeric
language plpgsql security definer set search_path = '' as $$
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
  -- A purchase's totals ride on the same update: one new version of the account row per purchase, not two.
  update public.user_account_data
     set credits = credits + p_amount, card_credit = card_credit + card_part,
         total_spent = total_spent + p_spent, total_entries = total_entries + p_entries, updated_at = now()
   where id = p_user
  returning credits into new_balance;
  insert into public.credit_ledger (user_id, kind, amount, balance_after, reason, reference, transaction_amount, created_by, card_amount)
  values (p_user, p_kind::public.ledger_kind, p_amount, new_balance, p_reason, p_reference, p_transaction_amount, auth.uid(), card_part);
  return new_balance;
end;
$$;
comment on function private.post_ledger(uuid,text,numeric,text,text,numeric,numeric,integer) is 'Moves credit and appends the ledger row in one statement pair, keeping the credit-card-funded part (card_credit, card_amount): card top-ups add to it, debits spend other credit first; p_spent and p_entries are added to the account''s total_spent and total_entries in the same update (a purchase). The balance check constraint refuses overdrafts.';
revoke all on function private.post_ledger(uuid,text,numeric,text,text,numeric,numeric,integer) from public, anon, authenticated, service_role;

-- From 20261123140000_credit_procedures_server_only. Before: NaN and Infinity passed the check (NaN equals round(NaN, 2))
-- and were answered false, as if the balance were short; now invalid_input.
create or replace function public.deduct_credits(user_id uuid, amount numeric) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data%rowtype;
begin
  if not private.is_service_role() and deduct_credits.user_id is distinct from private.require_user() then
    raise exception 'You can only spend your own credit' using errcode = '42501', hint = 'self_only';
  end if;
  if deduct_credits.amount is null or not private.is_pounds(deduct_credits.amount) or deduct_credits.amount <= 0 then
    raise exception 'Amount must be more than zero, in pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- Lock the account row so concurrent deductions queue instead of overdrawing.
  select * into acct from public.user_account_data a where a.id = deduct_credits.user_id for update;
  if not found then
    return false;
  end if;
  if not private.is_service_role() then
    perform private.require_approved(acct, 'spend credit');
  end if;
  if acct.credits < deduct_credits.amount then
    return false;
  end if;
  perform private.post_ledger(deduct_credits.user_id, 'debit', -deduct_credits.amount, 'Credit spent', null);
  return true;
end;
$$;
comment on function public.deduct_credits(uuid,numeric) is 'Takes the caller''s own credit (or, for the server, anyone''s) if the balance covers it (true) or changes nothing (false). Never overdraws.';
revoke all on function public.deduct_credits(uuid,numeric) from public, anon, authenticated, service_role;
grant execute on function public.deduct_credits(uuid,numeric) to authenticated;
grant execute on function public.deduct_credits(uuid,numeric) to service_role;

create or replace function private.play_block(p_user uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections := private.protections_of(p_user);
  acct public.user_account_data%rowtype;
  until_text text := to_char(p.break_until at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI');
begin
  case private.protection_state(p)
    when 'closed' then
      return jsonb_build_object('code', 'account_closed', 'message', 'Your account is closed');
    when 'self_exclusion' then
      return jsonb_build_object('code', 'self_excluded', 'message', 'You have excluded yourself until ' || until_text);
    when 'break' then
      return jsonb_build_object('code', 'on_break', 'message', 'You are taking a break until ' || until_text);
    else
      null;
  end case;
  -- An admin's restriction (an intervention, code of practice 1.7) holds until an admin lifts it.
  if p.restricted_at is not null then
    return jsonb_build_object('code', 'restricted', 'message', 'Your account is restricted: please contact us');
  end if;
  select * into acct from public.user_account_data a where a.id = p_user;
  return private.approval_refusal(acct, 'add credit');
end;
$$;
comment on function private.play_block(uuid) is 'Why a player may not top up or enter now ({code, message}: closure, self-exclusion, break, an admin''s restriction, approval), or null.';
revoke all on function private.play_block(uuid) from public, anon, authenticated, service_role;

create or replace function public.claim_mail_batch(p_limit integer default 20)
returns table (id bigint, to_email text, kind text, subject text, body_text text, list_unsubscribe text)
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  -- A claim lasts five minutes: a crashed sender's rows are retried, and
  -- concurrent senders never take the same row.
  return query
    update public.mail_outbox m
       set claimed_at = now(), attempts = m.attempts + 1
     where m.id in (select q.id from public.mail_outbox q
                     where q.status = 'queued' and (q.claimed_at is null or q.claimed_at < now() - interval '5 minutes')
                     order by q.id
                     limit least(greatest(coalesce(p_limit, 20), 1), 100)
                     for update skip locked)
    returning m.id, m.to_email, m.kind, m.subject, m.body_text, m.list_unsubscribe;
end;
$$;
comment on function public.claim_mail_batch(integer) is 'Server: claims up to p_limit queued mails for delivery (five-minute claim), each with its List-Unsubscribe address (marketing) or null.';
revoke all on function public.claim_mail_batch(integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_mail_batch(integer) to service_role;

-- The functions that wrote these columns with text, each with the cast after its own check.
create or replace function public.mark_mail_sent(p_id bigint, p_transport text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  if p_transport not in ('smtp', 'outbox') then
    raise exception 'Transport must be smtp or outbox' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.mail_outbox
     set status = 'sent', sent_at = now(), transport = p_transport::public.mail_transport, error = null
   where id = p_id and status = 'queued';
end;
$$;
comment on function public.mark_mail_sent(bigint,text) is 'Server: marks a claimed mail delivered (by SMTP, or kept in the outbox when no SMTP is configured).';
revoke all on function public.mark_mail_sent(bigint,text) from public, anon, authenticated, service_role;
grant execute on function public.mark_mail_sent(bigint,text) to service_role;

create or replace function public.mark_mail_failed(p_id bigint, p_error text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  -- Five attempts, then the row is failed for an admin to see.
  update public.mail_outbox
     set status = (case when attempts >= 5 then 'failed' else 'queued' end)::public.mail_status,
         claimed_at = null, error = left(p_error, 1000)
   where id = p_id and status = 'queued';
end;
$$;
comment on function public.mark_mail_failed(bigint,text) is 'Server: records a delivery failure; the mail is retried until its fifth attempt, then marked failed.';
revoke all on function public.mark_mail_failed(bigint,text) from public, anon, authenticated, service_role;
grant execute on function public.mark_mail_failed(bigint,text) to service_role;

create or replace function public.unsubscribe_marketing(p_token text) returns public.marketing_unsubscribed
language plpgsql security definer set search_path = '' as $$
declare
  t public.marketing_unsubscribe_tokens%rowtype;
begin
  perform private.require_server();
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    raise exception 'This unsubscribe link is not valid' using errcode = '22023', hint = 'unsubscribe_link_invalid';
  end if;
  select * into t from public.marketing_unsubscribe_tokens k
   where k.token_hash = extensions.digest(p_token, 'sha256')
   for update;
  if not found then
    raise exception 'This unsubscribe link is not valid' using errcode = '22023', hint = 'unsubscribe_link_invalid';
  end if;
  if t.used_at is not null then
    raise exception 'This unsubscribe link has already been used' using errcode = 'P0001', hint = 'unsubscribe_link_used';
  end if;
  update public.marketing_unsubscribe_tokens k set used_at = now() where k.token_hash = t.token_hash;
  if coalesce((select p.email_notifications from public.profiles p where p.id = t.user_id), false) then
    perform private.record_marketing_consent(t.user_id, false, 'unsubscribe_link');
  end if;
  perform private.log_activity('marketing.unsubscribed', t.user_id, jsonb_build_object('mail_id', t.mail_id));
  return row(true)::public.marketing_unsubscribed;
end;
$$;
comment on function public.unsubscribe_marketing(text) is 'Server: withdraws the marketing consent a mail''s unsubscribe token names, once (unsubscribe_link_used after), recorded with source unsubscribe_link and audited; unsubscribe_link_invalid for a token that is malformed or unknown. The page /unsubscribe and the one-click POST /api/unsubscribe call it without a session.';
revoke all on function public.unsubscribe_marketing(text) from public, anon, authenticated, service_role;
grant execute on function public.unsubscribe_marketing(text) to service_role;

create or replace function public.record_cron_run(p_job text, p_started_at timestamptz, p_ok boolean, p_result jsonb, p_error text)
returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  if p_job is distinct from 'draws' or p_started_at is null or p_ok is null then
    raise exception 'A cron run needs its job, start and outcome' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.cron_runs (job, started_at, ok, result, error)
  values (p_job, p_started_at, p_ok, coalesce(p_result, '{}'::jsonb), left(p_error, 1000));
  delete from public.cron_runs where started_at < now() - interval '30 days';
end;
$$;
comment on function public.record_cron_run(text,timestamp with time zone,boolean,jsonb,text) is 'Server: records one run of the scheduled job (kept 30 days).';
revoke all on function public.record_cron_run(text,timestamp with time zone,boolean,jsonb,text) from public, anon, authenticated, service_role;
grant execute on function public.record_cron_run(text,timestamp with time zone,boolean,jsonb,text) to service_role;

create or replace function public.record_webhook_delivery(p_provider text, p_event_id text, p_event_type text, p_status text, p_http_status integer, p_error text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  if p_status not in ('handled', 'failed', 'mismatch') or p_provider is distinct from 'stripe'
     or coalesce(char_length(p_event_id), 0) not between 1 and 255 then
    raise exception 'Not a webhook delivery' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.webhook_deliveries (provider, event_id, event_type, status, http_status, last_error)
  values (p_provider, p_event_id, left(coalesce(p_event_type, 'unknown'), 255), p_status::public.webhook_status, p_http_status, left(p_error, 500))
  on conflict (provider, event_id) do update
     set status = excluded.status, http_status = excluded.http_status, last_error = excluded.last_error,
         attempts = public.webhook_deliveries.attempts + 1, last_seen_at = now();
end;
$$;
comment on function public.record_webhook_delivery(text,text,text,text,integer,text) is 'Server: records how the webhook answered one delivery of a provider event (attempts count repeats of the same event).';
revoke all on function public.record_webhook_delivery(text,text,text,text,integer,text) from public, anon, authenticated, service_role;
grant execute on function public.record_webhook_delivery(text,text,text,text,integer,text) to service_role;

create or replace function public.record_auth_refusal(p_kind text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  if p_kind not in ('sign_in', 'sign_in_limited', 'code', 'code_limited') then
    raise exception 'Not a kind of refusal' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.auth_refusal_counts (hour, kind, refusals)
  values (date_trunc('hour', now()), p_kind::public.auth_refusal, 1)
  on conflict (hour, kind) do update set refusals = public.auth_refusal_counts.refusals + 1;
  delete from public.auth_refusal_counts where hour < now() - interval '30 days';
end;
$$;
comment on function public.record_auth_refusal(text) is 'Server: counts one refused sign-in or two-step code in the current hour.';
revoke all on function public.record_auth_refusal(text) from public, anon, authenticated, service_role;
grant execute on function public.record_auth_refusal(text) to service_role;

create or replace function public.ops_check() returns public.ops_check
language plpgsql security definer set search_path = '' as $$
declare
  last_run public.cron_runs;
  oldest_queued timestamptz;
  failed_lately boolean;
begin
  perform private.require_server();
  -- The uptime monitor calling /api/health is what notices a stopped job, so the check raises alerts too.
  perform private.raise_ops_alerts();
  last_run := private.last_cron_run();
  select min(m.created_at) into oldest_queued from public.mail_outbox m where m.status = 'queued';
  select exists (select 1 from public.mail_outbox m where m.status = 'failed' and m.created_at > now() - interval '1 hour')
    into failed_lately;
  return row(
    row(case when last_run.id is null and not private.cron_stale() then 'waiting'
             when last_run.id is null or private.cron_stale() then 'stale'
             when not last_run.ok then 'failing'
             else 'ok' end,
        last_run.started_at)::public.ops_cron_check,
    case when failed_lately or oldest_queued < now() - interval '15 minutes' then 'failing' else 'ok' end)::public.ops_check;
end;
$$;
comment on function public.ops_check() is 'Server (the public health check): raises any new alerts, then says whether the scheduled job runs (and when it last ran) and whether mail goes out. States only, no counts.';
revoke all on function public.ops_check() from public, anon, authenticated, service_role;
grant execute on function public.ops_check() to service_role;

create or replace function public.record_webhook_refusal(p_provider text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  this_hour timestamptz := date_trunc('hour', now());
  refused integer;
begin
  perform private.require_server();
  if p_provider is distinct from 'stripe' then
    raise exception 'Not a webhook provider' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.webhook_refusal_counts (hour, provider, refusals)
  values (this_hour, p_provider, 1)
  on conflict (hour, provider) do update set refusals = public.webhook_refusal_counts.refusals + 1
  returning refusals into refused;
  delete from public.webhook_refusal_counts where hour < now() - interval '30 days';
  -- A few refusals are noise (anyone can post to the webhook); more than three in an hour is told once for that
  -- hour, because a wrongly rotated signing secret refuses every real delivery this way.
  if refused > 3 then
    perform private.raise_alert('webhook_refused',
      'webhook_refused:' || p_provider || ':' || to_char(this_hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24'),
      format('%s webhook calls are being refused for a bad signature', p_provider),
      format('More than three calls to the %s webhook were refused for a missing or wrong signature in the hour from %s (UK time). If real deliveries are among them, the signing secret on the server (STRIPE_WEBHOOK_SECRET) does not match the endpoint''s in the %s dashboard.',
             p_provider, to_char(this_hour at time zone 'Europe/London', 'DD Mon YYYY HH24:MI'), p_provider));
  end if;
end;
$$;
comment on function public.record_webhook_refusal(text) is 'Server: counts one webhook call refused for a bad signature in the current hour; more than three in an hour raise one alert for that hour.';
revoke all on function public.record_webhook_refusal(text) from public, anon, authenticated, service_role;
grant execute on function public.record_webhook_refusal(text) to service_role;

comment on column public.draws.prize_status is 'awaiting_claim -> claimed (claimed_at) -> verified (verified_at) -> delivered (delivered_at, proof_of_delivery); see draws_prize_fulfilment_steps_check.';
