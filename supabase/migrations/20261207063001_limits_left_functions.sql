-- limits_left_functions: written by `npm run db:migration` from supabase/schemas. Review it before committing.

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

-- The monthly limit caps two things, each counted on its own: money put in (top-ups) and credit spent on entries.
-- What is left of each is decided only here, so the refusals and the figures the player reads always agree. Not
-- stable: protections_of applies a due limit change as it reads.
create or replace function private.top_up_left(p_user uuid) returns numeric
language sql security definer set search_path = '' as $$
  select case when p.monthly_limit is null then null
              else greatest(p.monthly_limit - private.month_topped_up(p_user), 0) end
    from (select (private.protections_of(p_user)).monthly_limit) p
$$;
comment on function private.top_up_left(uuid) is 'What the player may still top up this calendar month under their monthly limit (null without one): the limit less private.month_topped_up, never below 0.';
revoke all on function private.top_up_left(uuid) from public, anon, authenticated, service_role;

create or replace function private.spend_left(p_user uuid) returns numeric
language sql security definer set search_path = '' as $$
  select case when p.monthly_limit is null then null
              else greatest(p.monthly_limit - private.month_spent(p_user), 0) end
    from (select (private.protections_of(p_user)).monthly_limit) p
$$;
comment on function private.spend_left(uuid) is 'What the player may still spend on entries this calendar month under their monthly limit (null without one): the limit less private.month_spent, never below 0.';
revoke all on function private.spend_left(uuid) from public, anon, authenticated, service_role;

-- From 20261123110000_payments_and_play. Before: Infinity, and a third decimal over the maximum, were
-- answered top_up_above_maximum; now invalid_input. The refusal is still returned, not raised.
create or replace function private.top_up_quote(p_user uuid, p_amount numeric) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  min_amount numeric := (private.setting('top_up_min'))::numeric;
  max_amount numeric := (private.setting('top_up_max'))::numeric;
  p public.player_protections := private.protections_of(p_user);
  remaining numeric := private.top_up_left(p_user);
  balance numeric := coalesce((select a.credits from public.user_account_data a where a.id = p_user), 0);
  valid boolean := false;
  bonus numeric;
  refusal jsonb := private.play_block(p_user);
begin
  if p_amount is null or not private.is_pounds(p_amount) or p_amount <= 0 then
    refusal := coalesce(refusal, jsonb_build_object('code', 'invalid_input', 'message', 'Enter an amount in pounds and pence, more than zero'));
  elsif p_amount > max_amount then
    refusal := coalesce(refusal, jsonb_build_object('code', 'top_up_above_maximum', 'message', 'The most you can top up at once is ' || private.format_gbp(max_amount)));
  elsif p_amount < min_amount then
    refusal := coalesce(refusal, jsonb_build_object('code', 'top_up_below_minimum', 'message', 'The smallest top-up is ' || private.format_gbp(min_amount)));
  else
    valid := true;
    if remaining is not null and p_amount > remaining then
      refusal := coalesce(refusal, jsonb_build_object('code', 'monthly_limit_reached',
        'message', 'This top-up would take you over your monthly limit: ' || private.format_gbp(remaining) || ' left to top up this month'));
    end if;
  end if;
  bonus := case when valid then private.top_up_bonus(p_amount) end;
  return jsonb_build_object(
    'amount', case when valid then p_amount end,
    'bonus', bonus,
    'credit', case when valid then p_amount + bonus end,
    'balance_after', case when valid then balance + p_amount + bonus end,
    'min', min_amount,
    'max', max_amount,
    'bonus_enabled', coalesce((private.setting('bonus_enabled'))::boolean, false),
    'monthly_limit', p.monthly_limit,
    'monthly_remaining', remaining,
    'refusal', refusal);
end;
$$;
comment on function private.top_up_quote(uuid,numeric) is 'What a top-up of p_amount would give the player and whether it is allowed now (refusal {code, message} or null); shared by quote_top_up and create_top_up.';
revoke all on function private.top_up_quote(uuid,numeric) from public, anon, authenticated, service_role;

create or replace function public.get_top_up_options() returns public.top_up_options
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  p public.player_protections;
  remaining numeric;
  block jsonb;
  blocked public.refusal;
begin
  perform private.create_account_rows(uid);
  p := private.protections_of(uid);
  remaining := private.top_up_left(uid);
  block := private.play_block(uid);
  if block is not null then
    blocked := jsonb_populate_record(null::public.refusal, block);
  elsif remaining is not null and remaining < (private.setting('top_up_min'))::numeric then
    blocked := row('monthly_limit_reached',
      'You have reached your monthly limit: ' || private.format_gbp(remaining) || ' left to top up this month')::public.refusal;
  end if;
  return row(
    (private.setting('top_up_min'))::numeric,
    (private.setting('top_up_max'))::numeric,
    '{10, 25, 50, 100, 200}'::integer[],
    coalesce((private.setting('bonus_enabled'))::boolean, false),
    coalesce((select array_agg(row((t ->> 'from')::numeric, (t ->> 'percent')::numeric)::public.bonus_tier
                               order by (t ->> 'from')::numeric)
                from jsonb_array_elements(private.setting('bonus_tiers')) t), '{}'),
    p.monthly_limit,
    remaining,
    p.pending_limit,
    p.pending_limit_from,
    private.needs_limit_prompt(p, uid),
    blocked)::public.top_up_options;
end;
$$;
comment on function public.get_top_up_options() is 'Signed-in users: what the top-up page needs: min, max, quick picks, bonus tiers, the monthly limit and what is left of it, a pending increase, whether to invite a limit (needs_limit_prompt), and blocked {code, message} when no top-up is possible now.';
revoke all on function public.get_top_up_options() from public, anon, authenticated, service_role;
grant execute on function public.get_top_up_options() to authenticated;
grant execute on function public.get_top_up_options() to service_role;

-- The latest protections_json body (20261127110100_true_month_figures), as a row.
create or replace function private.protections_row(p_user uuid) returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections := private.protections_of(p_user);
  state public.protection_state := private.protection_state(p);
begin
  return (
    p.monthly_limit,
    p.pending_limit,
    p.pending_limit_from,
    -- What the limit counts: credited and still-open checkouts together.
    private.month_topped_up(p_user),
    private.month_credited(p_user),
    private.month_held(p_user),
    private.month_spent(p_user),
    -- The limit caps top-ups and spending each on its own: one figure for both would show £0.00 left while an
    -- entry still goes through.
    private.top_up_left(p_user),
    state,
    case when state in ('break', 'self_exclusion') then p.break_until end,
    p.closed_at,
    (private.setting('limit_increase_delay_hours'))::numeric,
    private.spend_left(p_user))::public.protections;
end;
$$;
comment on function private.protections_row(uuid) is 'A player''s protections as get_my_protections returns them: month_credited (paid) and month_held (open checkouts) are shown; month_topped_up, their sum, is what the limit counts.';
revoke all on function private.protections_row(uuid) from public, anon, authenticated, service_role;
