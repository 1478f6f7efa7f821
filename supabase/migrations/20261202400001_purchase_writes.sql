-- purchase_writes: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.post_ledger(uuid,text,numeric,text,text,numeric);

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

create or replace function private.post_ledger(p_user uuid, p_kind text, p_amount numeric, p_reason text, p_reference text, p_transaction_amount numeric DEFAULT NULL::numeric,
                                               p_spent numeric DEFAULT 0, p_entries integer DEFAULT 0)
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
  -- A purchase's totals ride on the same update: one new version of the account row per purchase, not two
  -- (issue 27, item 4).
  update public.user_account_data
     set credits = credits + p_amount, card_credit = card_credit + card_part,
         total_spent = total_spent + p_spent, total_entries = total_entries + p_entries, updated_at = now()
   where id = p_user
  returning credits into new_balance;
  insert into public.credit_ledger (user_id, kind, amount, balance_after, reason, reference, transaction_amount, created_by, card_amount)
  values (p_user, p_kind::public.ledger_kind, p_amount, new_balance, p_reason, p_reference, p_transaction_amount, auth.uid(), card_part);
  return new_balance;
end;
$function$;
comment on function private.post_ledger(uuid,text,numeric,text,text,numeric,numeric,integer) is 'Moves credit and appends the ledger row in one statement pair, keeping the credit-card-funded part (card_credit, card_amount): card top-ups add to it, debits spend other credit first; p_spent and p_entries are added to the account''s total_spent and total_entries in the same update (a purchase). The balance check constraint refuses overdrafts.';
revoke all on function private.post_ledger(uuid,text,numeric,text,text,numeric,numeric,integer) from public, anon, authenticated, service_role;
