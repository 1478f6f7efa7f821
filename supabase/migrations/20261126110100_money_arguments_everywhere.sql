-- Money arguments are finite pounds and pence in every function (issue "Hardening" item 11, after
-- 20261125100000_money_arguments.sql, which added private.is_pounds and used it in add_credits).
-- Each function that takes an amount now refuses NaN, Infinity, -Infinity and a third decimal with
-- its own message and invalid_input, through is_pounds, before anything is read or written. Where
-- the old checks already refused every such amount, only the rule's home moves; where they did not,
-- the comment says what the old code answered. Everything else in each body is as before (each is
-- its latest definition, named below); comments and grants are kept by `create or replace`.
--
-- Already on is_pounds: add_credits, and the competition amounts (ticket price, prize value, cash
-- alternative) in private.competition_apply (20261125100100). Internal helpers that take amounts
-- (post_ledger, top_up_bonus, require_within_card_cap) are given them by these functions or read
-- from stored rows; the credit_ledger check constraint stays as the last line of defence.

-- ----------------------------------------------------------------------------
-- Admin credit adjustments
-- ----------------------------------------------------------------------------
-- From 20261123130200_admin_users. Before: NaN and a third decimal refused by their own tests, Infinity by the £100,000 bound.
create or replace function public.admin_adjust_credit(p_user_id uuid, p_amount numeric, p_reason text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  threshold numeric := coalesce((private.setting('large_adjustment_threshold'))::numeric, 100);
  reason text := trim(p_reason);
  acct public.user_account_data;
  new_balance numeric;
  ledger_id bigint;
begin
  if p_user_id = admin_id then
    raise exception 'You cannot adjust your own credit' using errcode = '42501', hint = 'self_change_refused';
  end if;
  if reason is null or char_length(reason) not between 3 and 500 then
    raise exception 'Give a reason for the adjustment (3 to 500 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_amount is null or not private.is_pounds(p_amount) or p_amount = 0 or abs(p_amount) > 100000 then
    raise exception 'Enter an amount in pounds and pence, not zero, at most £100,000 either way'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  if abs(p_amount) > threshold and not public.is_super_admin() then
    raise exception 'Access denied: Super admin privileges required' using errcode = '42501', hint = 'super_admin_required',
      detail = 'Adjustments over ' || private.format_gbp(threshold) || ' need a super admin.';
  end if;
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  if acct.credits + p_amount < 0 then
    raise exception 'The balance is %: an adjustment can take at most that', private.format_gbp(acct.credits)
      using errcode = 'P0001', hint = 'insufficient_credit';
  end if;
  new_balance := private.post_ledger(p_user_id, 'admin_adjustment', p_amount, reason, 'admin adjustment');
  select max(l.id) into ledger_id from public.credit_ledger l where l.user_id = p_user_id;
  perform private.log_activity('user.credit_adjusted', p_user_id, jsonb_build_object(
    'amount', p_amount, 'reason', reason, 'ledger_id', ledger_id,
    'balance', jsonb_build_object('old', acct.credits, 'new', new_balance)));
  return jsonb_build_object('ledger_id', ledger_id, 'amount', p_amount, 'balance', new_balance);
end;
$$;

-- ----------------------------------------------------------------------------
-- Top-up quotes (quote_top_up, and create_top_up through it)
-- ----------------------------------------------------------------------------
-- From 20261123110000_payments_and_play. Before: Infinity, and a third decimal over the maximum, were
-- answered top_up_above_maximum; now invalid_input. The refusal is still returned, not raised.
create or replace function private.top_up_quote(p_user uuid, p_amount numeric) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  min_amount numeric := (private.setting('top_up_min'))::numeric;
  max_amount numeric := (private.setting('top_up_max'))::numeric;
  p public.player_protections := private.protections_of(p_user);
  remaining numeric := case when p.monthly_limit is null then null
                            else greatest(p.monthly_limit - private.month_topped_up(p_user), 0) end;
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
        'message', 'This top-up would take you over your monthly limit: ' || private.format_gbp(remaining) || ' left this month'));
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

-- ----------------------------------------------------------------------------
-- Confirming a top-up
-- ----------------------------------------------------------------------------
-- From 20261123160000_purchase_concurrency. Before: Infinity and a third decimal reached the comparison with the
-- top-up and were answered payment_mismatch; now invalid_input, before the payment lock.
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
  if p_amount_paid is null or not private.is_pounds(p_amount_paid) or p_amount_paid <= 0 then
    raise exception 'The amount paid must be more than zero, in pounds and pence' using errcode = '22023', hint = 'invalid_input';
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
-- Refunds of top-ups
-- ----------------------------------------------------------------------------
-- From 20261123110000_payments_and_play. Before: every bad amount was already refused, by three separate tests.
create or replace function public.record_top_up_refund(p_payment_id text, p_refund_id text, p_amount numeric) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  existing public.top_up_refunds%rowtype;
  new_row bigint;
  applied jsonb;
  t public.top_ups%rowtype;
begin
  perform private.require_server();
  if p_payment_id is null or char_length(p_payment_id) not between 1 and 255
     or p_refund_id is null or char_length(p_refund_id) not between 1 and 255 then
    raise exception 'A payment id and a refund id are required' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_amount is null or not private.is_pounds(p_amount) or p_amount <= 0 or p_amount > 100000 then
    raise exception 'The refund must be an amount in pounds and pence, more than zero' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.payment_lock(p_payment_id);
  select * into existing from public.top_up_refunds where refund_id = p_refund_id;
  if found then
    return jsonb_build_object('status', 'already_recorded', 'top_up_id', existing.top_up_id,
                              'bonus', existing.bonus, 'reversed', existing.reversed, 'owed', existing.owed);
  end if;
  select * into t from public.top_ups where payment_id = p_payment_id;
  if found and t.refunded_amount + p_amount > t.amount then
    raise exception 'Refunds would exceed the payment' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.top_up_refunds (refund_id, payment_id, amount) values (p_refund_id, p_payment_id, p_amount)
  returning id into new_row;
  applied := private.apply_top_up_refund(new_row);
  if applied is null then
    return jsonb_build_object('status', 'awaiting_confirmation', 'top_up_id', null, 'bonus', 0, 'reversed', 0, 'owed', 0);
  end if;
  return jsonb_build_object('status', 'recorded') || applied;
end;
$$;

-- ----------------------------------------------------------------------------
-- Monthly limits (player protection)
-- ----------------------------------------------------------------------------
-- From 20261123110000_payments_and_play. Before: every bad amount was already refused, by three separate tests.
create or replace function public.set_monthly_limit(p_limit numeric) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  p public.player_protections;
  delay numeric := (private.setting('limit_increase_delay_hours'))::numeric;
begin
  if p_limit is not null and (not private.is_pounds(p_limit) or p_limit < 0 or p_limit > 1000000) then
    raise exception 'The limit must be an amount in pounds and pence from £0 to £1,000,000, or none' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  perform 1 from public.user_account_data a where a.id = uid for update;
  insert into public.player_protections (user_id) values (uid) on conflict (user_id) do nothing;
  p := private.protections_of(uid);
  if p_limit is not null and (p.monthly_limit is null or p_limit <= p.monthly_limit) then
    -- A decrease (or a first limit) protects the player, so it applies at once.
    update public.player_protections
       set monthly_limit = p_limit, pending_limit = null, pending_limit_from = null, limit_set_at = now(), updated_at = now()
     where user_id = uid;
  elsif p.monthly_limit is null then
    -- No limit, and none asked for: nothing to wait for.
    update public.player_protections
       set pending_limit = null, pending_limit_from = null, limit_set_at = now(), updated_at = now()
     where user_id = uid;
  else
    -- An increase, or removing the limit, waits for the cooling-off.
    update public.player_protections
       set pending_limit = p_limit, pending_limit_from = now() + make_interval(secs => delay * 3600),
           limit_set_at = now(), updated_at = now()
     where user_id = uid;
  end if;
  perform private.log_activity('protections.limit', uid, jsonb_build_object('limit', p_limit));
  return private.protections_json(uid);
end;
$$;

-- ----------------------------------------------------------------------------
-- Spending credit
-- ----------------------------------------------------------------------------
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
  if not acct.approved and not private.is_service_role() then
    raise exception 'Your account is awaiting approval' using errcode = 'P0001', hint = 'approval_pending';
  end if;
  if acct.credits < deduct_credits.amount then
    return false;
  end if;
  perform private.post_ledger(deduct_credits.user_id, 'debit', -deduct_credits.amount, 'Credit spent', null);
  return true;
end;
$$;

-- ----------------------------------------------------------------------------
-- Money settings (admin_update_settings)
-- ----------------------------------------------------------------------------
-- From 20261123130300_admin_settings. A JSON number is never NaN or Infinity and the third decimal was
-- already refused, so only the rule's home moves.
create or replace function private.setting_pounds(p_key text, p_value jsonb, p_label text, p_min numeric, p_max numeric)
returns jsonb
language plpgsql immutable set search_path = '' as $$
declare
  amount numeric;
begin
  if p_value is null or jsonb_typeof(p_value) <> 'number' then
    raise exception '% must be an amount in pounds', p_label using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  amount := (p_value #>> '{}')::numeric;
  if not private.is_pounds(amount) then
    raise exception '% must be in pounds and pence (at most 2 decimal places)', p_label
      using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  if amount < p_min or amount > p_max then
    raise exception '% must be from % to %', p_label, private.format_gbp(p_min), private.format_gbp(p_max)
      using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  return to_jsonb(round(amount, 2));
end;
$$;

-- ----------------------------------------------------------------------------
-- Bonus tiers (admin_update_settings)
-- ----------------------------------------------------------------------------
-- From 20261123130300_admin_settings. The tiers' top-up amounts, as setting_pounds; the rest of the body is
-- unchanged.
create or replace function private.setting_checked(p_key text, p_value jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  tier jsonb;
  tiers jsonb := '[]'::jsonb;
  n integer := 0;
  from_amount numeric;
  percent numeric;
  line jsonb;
  lines text[] := '{}';
  value text;
  days numeric;
  launch_moment timestamptz;
begin
  case p_key
  when 'approval_mode' then
    if p_value is null or p_value not in ('"manual"'::jsonb, '"auto"'::jsonb) then
      raise exception 'Approval mode must be manual or auto' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return p_value;
  when 'top_up_min' then
    return private.setting_pounds(p_key, p_value, 'The top-up minimum', 1, 10000);
  when 'top_up_max' then
    return private.setting_pounds(p_key, p_value, 'The top-up maximum', 1, 100000);
  when 'bonus_enabled' then
    return private.setting_boolean(p_key, p_value, 'Bonuses');
  when 'bonus_tiers' then
    if p_value is null or jsonb_typeof(p_value) <> 'array' then
      raise exception 'Bonus tiers must be a list of tiers' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    if jsonb_array_length(p_value) > 10 then
      raise exception 'Give at most 10 bonus tiers' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    for tier in select t from jsonb_array_elements(p_value) t loop
      n := n + 1;
      if jsonb_typeof(tier) <> 'object' or (select count(*) from jsonb_object_keys(tier)) <> 2
         or jsonb_typeof(tier -> 'from') is distinct from 'number' or jsonb_typeof(tier -> 'percent') is distinct from 'number' then
        raise exception 'Bonus tier % must have a top-up amount (from) and a percent, both numbers', n
          using errcode = '22023', hint = 'invalid_input', detail = p_key;
      end if;
      from_amount := (tier ->> 'from')::numeric;
      percent := (tier ->> 'percent')::numeric;
      if not private.is_pounds(from_amount) or from_amount < 1 or from_amount > 100000 then
        raise exception 'Bonus tier %: the top-up amount must be from £1.00 to £100,000.00 in pounds and pence', n
          using errcode = '22023', hint = 'invalid_input', detail = p_key;
      end if;
      if percent <> round(percent, 2) or percent <= 0 or percent > 100 then
        raise exception 'Bonus tier %: the percent must be more than 0 and at most 100 (2 decimal places at most)', n
          using errcode = '22023', hint = 'invalid_input', detail = p_key;
      end if;
      tiers := tiers || jsonb_build_array(jsonb_build_object('from', round(from_amount, 2), 'percent', round(percent, 2)));
    end loop;
    if (select count(distinct (t ->> 'from')::numeric) from jsonb_array_elements(tiers) t) <> jsonb_array_length(tiers) then
      raise exception 'Two bonus tiers start at the same top-up amount' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    -- Stored in order of the amount, as the top-up page lists them.
    return coalesce((select jsonb_agg(t order by (t ->> 'from')::numeric) from jsonb_array_elements(tiers) t), '[]'::jsonb);
  when 'credit_card_monthly_cap' then
    return private.setting_pounds(p_key, p_value, 'The credit-card monthly cap', 0, 100000);
  when 'large_adjustment_threshold' then
    return private.setting_pounds(p_key, p_value, 'The large-adjustment threshold', 0, 100000);
  when 'stamp_price' then
    return private.setting_pounds(p_key, p_value, 'The stamp price', 0.01, 10);
  when 'postal_window_working_days' then
    if p_value is null or jsonb_typeof(p_value) <> 'number' then
      raise exception 'The postal window must be a whole number of working days' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    days := (p_value #>> '{}')::numeric;
    if days <> trunc(days) or days < 1 or days > 20 then
      raise exception 'The postal window must be a whole number of working days from 1 to 20'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(days::integer);
  when 'postal_address' then
    if p_value is null or jsonb_typeof(p_value) <> 'array' or jsonb_array_length(p_value) not between 2 and 8 then
      raise exception 'The postal address must have 2 to 8 lines' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    for line in select l from jsonb_array_elements(p_value) l loop
      lines := lines || private.setting_text(p_key, line, 'Each line of the postal address', 1, 100);
    end loop;
    if private.uk_postcode(array_to_string(lines, ' ')) is null then
      raise exception 'The postal address must end with a UK postcode' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(lines);
  when 'launch_at' then
    if p_value is null or p_value = 'null'::jsonb then
      return 'null'::jsonb;
    end if;
    if jsonb_typeof(p_value) <> 'string' then
      raise exception 'The launch date must be a date and time, or empty for no countdown'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    begin
      launch_moment := (p_value #>> '{}')::timestamptz;
    exception when others then
      raise exception 'The launch date must be a date and time, or empty for no countdown'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end;
    if launch_moment < timestamptz '2000-01-01 00:00Z' or launch_moment >= timestamptz '3000-01-01 00:00Z' then
      raise exception 'The launch date must be from the year 2000 to 2999' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    -- The shape admin_set_launch_at stores and the countdown reads.
    return to_jsonb(to_char(launch_moment at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'));
  when 'complaints_contact' then
    value := private.setting_text(p_key, p_value, 'The complaints contact', 3, 254);
    if value !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
      raise exception 'The complaints contact must be an e-mail address' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(value);
  when 'dispute_resolution_body' then
    if p_value is null or jsonb_typeof(p_value) <> 'object'
       or (select array_agg(k order by k) from jsonb_object_keys(p_value) k) is distinct from array['name', 'url'] then
      raise exception 'The dispute-resolution body must have a name and a web address'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    value := private.setting_text(p_key, p_value -> 'url', 'The dispute-resolution body''s web address', 10, 500);
    if value !~ '^https://[^\s/]+\.[^\s/]+(/\S*)?$' then
      raise exception 'The dispute-resolution body''s web address must start with https://'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return jsonb_build_object('name', private.setting_text(p_key, p_value -> 'name', 'The dispute-resolution body''s name', 2, 200),
                              'url', value);
  when 'spinner_enabled' then
    return private.setting_boolean(p_key, p_value, 'The LabSpinner switch');
  else
    raise exception 'Unknown setting: %', p_key using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end case;
end;
$$;

-- ----------------------------------------------------------------------------
-- Spinner prizes
-- ----------------------------------------------------------------------------
-- From 20261123150000_labspinner. As for the settings: only the rule's home moves.
create or replace function public.admin_update_spinner_wheel(p_segments jsonb) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  n integer;
  seg jsonb;
  i integer := 0;
  label text;
  colour text;
  label_colour text;
  prize numeric;
  weight numeric;
  ratio numeric;
  wheel bigint;
begin
  if p_segments is null or jsonb_typeof(p_segments) <> 'array' then
    raise exception 'Send the segments as a list' using errcode = '22023', hint = 'invalid_input', detail = 'segments';
  end if;
  n := jsonb_array_length(p_segments);
  if n not between 2 and 16 then
    raise exception 'A wheel has 2 to 16 segments (this one has %)', n using errcode = '22023', hint = 'invalid_input', detail = 'segments';
  end if;
  -- Everything is checked before anything is written.
  for seg in select e from jsonb_array_elements(p_segments) e loop
    i := i + 1;
    if jsonb_typeof(seg) <> 'object' then
      raise exception 'Segment %: send label, colour, label colour, prize and weight', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i;
    end if;
    label := btrim(coalesce(seg ->> 'label', ''));
    if char_length(label) not between 1 and 24 then
      raise exception 'Segment %: the label is 1 to 24 characters', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.label';
    end if;
    colour := lower(coalesce(seg ->> 'colour', ''));
    if colour !~ '^#[0-9a-f]{6}$' then
      raise exception 'Segment %: the colour is a hex colour such as #1d4ed8', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.colour';
    end if;
    label_colour := lower(coalesce(seg ->> 'label_colour', ''));
    if label_colour not in ('#ffffff', '#111111') then
      raise exception 'Segment %: the label colour is white (#ffffff) or black (#111111)', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.label_colour';
    end if;
    ratio := private.contrast_ratio(colour, label_colour);
    if ratio < 4.5 then
      raise exception 'Segment %: the label has a contrast of only %:1 on %; it needs 4.5:1 (try the other label colour or a darker or lighter segment)', i, trunc(ratio, 2), colour
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.colour';
    end if;
    if jsonb_typeof(seg -> 'prize_credits') is distinct from 'number' then
      raise exception 'Segment %: the prize is a number of credits (0 for no prize)', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.prize_credits';
    end if;
    prize := (seg ->> 'prize_credits')::numeric;
    if not private.is_pounds(prize) or prize < 0 or prize > 1000 then
      raise exception 'Segment %: the prize is between £0 and £1,000 in pounds and pence', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.prize_credits';
    end if;
    if jsonb_typeof(seg -> 'weight') is distinct from 'number' then
      raise exception 'Segment %: the weight is a whole number from 1 to 1,000,000', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.weight';
    end if;
    weight := (seg ->> 'weight')::numeric;
    if weight <> trunc(weight) or weight < 1 or weight > 1000000 then
      raise exception 'Segment %: the weight is a whole number from 1 to 1,000,000', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.weight';
    end if;
  end loop;

  insert into public.spinner_wheels (created_by) values (admin_id) returning id into wheel;
  insert into public.spinner_segments (wheel_id, position, label, colour, label_colour, prize_credits, weight)
  select wheel, e.ordinality, btrim(e.value ->> 'label'), lower(e.value ->> 'colour'), lower(e.value ->> 'label_colour'),
         (e.value ->> 'prize_credits')::numeric, (e.value ->> 'weight')::integer
    from jsonb_array_elements(p_segments) with ordinality e;
  perform private.log_activity('spinner.wheel_updated', null,
    jsonb_build_object('wheel_id', wheel, 'previous_wheel_id', (select max(w.id) from public.spinner_wheels w where w.id < wheel))
    || jsonb_build_object('segments', private.wheel_json(wheel) -> 'segments'));
  return private.wheel_json(wheel);
end;
$$;
