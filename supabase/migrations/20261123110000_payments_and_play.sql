-- ============================================================================
-- Payments and responsible play (issue 9): top-ups paid by card (Stripe Checkout
-- or the test checkout), credited exactly once through one server-only function;
-- refunds posted as reversals (money and its share of the bonus); the credit-card cap; the player's protections
-- (monthly limit, breaks, self-exclusion, closure) enforced on top-ups and
-- entries; the ledger page and its CSV.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
--
-- Beyond the shared contract, two internal columns the API never shows as such:
-- top_ups.refusal_message keeps the wording a player was shown when a credit-card
-- payment went over the cap (get_top_up returns it as refusal_reason), and
-- top_up_refunds carries payment_id and applied_at, because a refund can arrive
-- before the confirmation that tells us which top-up its payment paid for.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Settings (read by SQL through private.setting; the admin screen comes later)
-- ----------------------------------------------------------------------------
insert into public.app_settings (key, value) values
  ('top_up_min', '5'::jsonb),
  ('top_up_max', '5000'::jsonb),
  ('bonus_enabled', 'true'::jsonb),
  ('bonus_tiers', '[{"from": 50, "percent": 2.5}, {"from": 200, "percent": 5}]'::jsonb),
  ('credit_card_monthly_cap', '250'::jsonb),
  ('limit_increase_delay_hours', '24'::jsonb)
on conflict (key) do nothing;

-- ----------------------------------------------------------------------------
-- The ledger learns one kind: the reversal of a refunded top-up
-- ----------------------------------------------------------------------------
alter table public.credit_ledger drop constraint credit_ledger_kind_check;
alter table public.credit_ledger add constraint credit_ledger_kind_check
  check (kind in ('top_up', 'bonus', 'entry', 'refund', 'admin_adjustment', 'spinner_prize', 'debit', 'top_up_reversal'));

-- ----------------------------------------------------------------------------
-- Tables
-- ----------------------------------------------------------------------------
create table public.top_ups (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  amount numeric(12, 2) not null check (amount > 0),
  bonus numeric(12, 2) not null default 0 check (bonus >= 0),
  status text not null default 'pending'
    check (status in ('pending', 'credited', 'failed', 'expired', 'refused_card_cap', 'refunded', 'partially_refunded')),
  provider text not null check (provider in ('stripe', 'test')),
  checkout_session_id text unique check (char_length(checkout_session_id) between 1 and 255),
  payment_id text unique check (char_length(payment_id) between 1 and 255),
  funding text check (funding in ('debit', 'credit', 'prepaid', 'wallet', 'unknown')),
  purpose jsonb,
  entry_id uuid references public.entries (id) on delete set null,
  entry_error_code text,
  entry_error_message text,
  refusal_message text,
  refunded_amount numeric(12, 2) not null default 0 check (refunded_amount >= 0),
  owed numeric(12, 2) not null default 0 check (owed >= 0),
  created_at timestamptz not null default now(),
  credited_at timestamptz,
  updated_at timestamptz not null default now(),
  check (status = 'pending' or status in ('failed', 'expired') or payment_id is not null)
);
alter table public.top_ups enable row level security;
create index top_ups_user_idx on public.top_ups (user_id, created_at desc);
create index top_ups_entry_idx on public.top_ups (entry_id);
comment on table public.top_ups is 'One attempt to buy credit: pending until the payment provider confirms it; credited once (payment_id is unique), or failed, expired, refused over the credit-card cap, refunded. Read through get_top_up only.';
comment on column public.top_ups.bonus is 'The bonus fixed when the top-up was created, so what was quoted is what lands.';
comment on column public.top_ups.owed is 'Refunded money that could not be taken back from the balance because it was already spent (shown to admins).';
comment on column public.top_ups.refusal_message is 'Why a confirmed payment was not credited (refused_card_cap), as the player was told.';

create table public.top_up_refunds (
  id bigint generated always as identity primary key,
  refund_id text not null unique check (char_length(refund_id) between 1 and 255),
  payment_id text not null check (char_length(payment_id) between 1 and 255),
  top_up_id uuid references public.top_ups (id) on delete cascade,
  amount numeric(12, 2) not null check (amount > 0),
  bonus numeric(12, 2) not null default 0 check (bonus >= 0),
  reversed numeric(12, 2) not null default 0 check (reversed >= 0),
  owed numeric(12, 2) not null default 0 check (owed >= 0),
  applied_at timestamptz,
  created_at timestamptz not null default now()
);
alter table public.top_up_refunds enable row level security;
create index top_up_refunds_payment_idx on public.top_up_refunds (payment_id);
create index top_up_refunds_top_up_idx on public.top_up_refunds (top_up_id);
comment on table public.top_up_refunds is 'Refunds reported by the payment provider, once each (refund_id). One that arrives before its payment is confirmed waits (applied_at null) and is applied by the confirmation.';
comment on column public.top_up_refunds.bonus is 'The share of the top-up''s bonus this refund takes back with the money (bonus × amount / top-up, rounded down to the penny; the refund that completes the top-up takes what is left of the bonus).';
comment on column public.top_up_refunds.reversed is 'Credit taken back from the balance for this refund: amount plus bonus share, up to the balance.';
comment on column public.top_up_refunds.owed is 'What the balance could not cover of amount plus bonus share.';

create table public.player_protections (
  user_id uuid primary key references auth.users (id) on delete cascade,
  monthly_limit numeric(12, 2) check (monthly_limit >= 0),
  pending_limit numeric(12, 2) check (pending_limit >= 0),
  pending_limit_from timestamptz,
  limit_set_at timestamptz,
  limit_prompt_seen_at timestamptz,
  break_kind text check (break_kind in ('break', 'self_exclusion', 'closed')),
  break_until timestamptz,
  closed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (pending_limit is null or pending_limit_from is not null)
);
alter table public.player_protections enable row level security;
comment on table public.player_protections is 'A player''s responsible-play choices (code of practice 1.4, 1.5, 1.8): monthly limit (a pending increase waits for the cooling-off), break, self-exclusion, closure. No row means no limit and no block.';
comment on column public.player_protections.pending_limit_from is 'When the pending increase applies; set with pending_limit null it means the limit is being removed.';

-- Read and written through functions only; admins read them through functions later.
revoke all on table public.top_ups, public.top_up_refunds, public.player_protections from anon, authenticated;
revoke all on sequence public.top_up_refunds_id_seq from anon, authenticated;
grant all on table public.top_ups, public.top_up_refunds, public.player_protections to service_role;

-- ----------------------------------------------------------------------------
-- Small helpers
-- ----------------------------------------------------------------------------
create function private.month_start(p_at timestamptz default now()) returns timestamptz
language sql stable set search_path = '' as $$
  select (date_trunc('month', p_at at time zone 'Europe/London')) at time zone 'Europe/London'
$$;
comment on function private.month_start(timestamptz) is 'The start of the calendar month (Europe/London) that contains p_at: what "this month" means for limits and the credit-card cap.';

create function private.top_up_bonus(p_amount numeric) returns numeric
language sql stable security definer set search_path = '' as $$
  select case when coalesce((private.setting('bonus_enabled'))::boolean, false) is not true then 0::numeric
    else coalesce((
      select floor(p_amount * (t ->> 'percent')::numeric) / 100
        from jsonb_array_elements(coalesce(private.setting('bonus_tiers'), '[]'::jsonb)) t
       where (t ->> 'from')::numeric <= p_amount
       order by (t ->> 'from')::numeric desc
       limit 1), 0::numeric)
  end
$$;
comment on function private.top_up_bonus(numeric) is 'The bonus credit for a top-up: the percent of the highest tier it reaches, rounded down to the penny; 0 when bonuses are off.';

create function private.csv_field(p_value text) returns text
language sql immutable set search_path = '' as $$
  -- Quote when needed; a leading = + - @ would start a spreadsheet formula, so it is defused with '.
  select case
    when p_value is null then ''
    else case
      when p_value ~ '^[=+\-@\t\r]' or p_value ~ '[",\r\n]'
        then '"' || replace(case when p_value ~ '^[=+\-@\t\r]' then '''' || p_value else p_value end, '"', '""') || '"'
      else p_value
    end
  end
$$;
comment on function private.csv_field(text) is 'One text field for a CSV line (RFC 4180 quoting, spreadsheet formulas defused).';

-- Raises one of the play refusals with its literal code (so every raise names its code).
create function private.raise_refusal(p_code text, p_message text) returns void
language plpgsql set search_path = '' as $$
begin
  case p_code
    when 'invalid_input' then raise exception '%', p_message using errcode = '22023', hint = 'invalid_input';
    when 'top_up_below_minimum' then raise exception '%', p_message using errcode = '22023', hint = 'top_up_below_minimum';
    when 'top_up_above_maximum' then raise exception '%', p_message using errcode = '22023', hint = 'top_up_above_maximum';
    when 'monthly_limit_reached' then raise exception '%', p_message using errcode = 'P0001', hint = 'monthly_limit_reached';
    when 'approval_pending' then raise exception '%', p_message using errcode = 'P0001', hint = 'approval_pending';
    when 'approval_rejected' then raise exception '%', p_message using errcode = 'P0001', hint = 'approval_rejected';
    when 'on_break' then raise exception '%', p_message using errcode = 'P0001', hint = 'on_break';
    when 'self_excluded' then raise exception '%', p_message using errcode = 'P0001', hint = 'self_excluded';
    when 'account_closed' then raise exception '%', p_message using errcode = 'P0001', hint = 'account_closed';
    else raise exception '%', p_message using errcode = 'P0001', hint = 'invalid_input';
  end case;
end;
$$;
comment on function private.raise_refusal(text, text) is 'Raises a refusal computed as {code, message} (quote_top_up''s refusals) with that code in the HINT.';

-- ----------------------------------------------------------------------------
-- Protections: reading them, and what blocks play
-- ----------------------------------------------------------------------------
create function private.protections_of(p_user uuid) returns public.player_protections
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections%rowtype;
begin
  -- A pending increase applies the first time it is read after its moment.
  update public.player_protections
     set monthly_limit = pending_limit, pending_limit = null, pending_limit_from = null, updated_at = now()
   where user_id = p_user and pending_limit_from is not null and pending_limit_from <= now();
  select * into p from public.player_protections where user_id = p_user;
  if not found then
    p.user_id := p_user;
  end if;
  return p;
end;
$$;
comment on function private.protections_of(uuid) is 'A player''s protections with any due limit increase applied (an empty row when they never set any).';

create function private.protection_state(p public.player_protections) returns text
language sql stable set search_path = '' as $$
  select case
    when p.closed_at is not null then 'closed'
    when p.break_until is not null and p.break_until > now() then p.break_kind
    else 'active'
  end
$$;
comment on function private.protection_state(public.player_protections) is 'active, break, self_exclusion or closed: what the protections mean now.';

create function private.play_block(p_user uuid) returns jsonb
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
  select * into acct from public.user_account_data a where a.id = p_user;
  if acct.rejected_at is not null and not acct.approved then
    return jsonb_build_object('code', 'approval_rejected', 'message', 'Your account was not approved, so you cannot add credit');
  end if;
  if not coalesce(acct.approved, false) then
    return jsonb_build_object('code', 'approval_pending', 'message', 'Your account is awaiting approval');
  end if;
  return null;
end;
$$;
comment on function private.play_block(uuid) is 'Why a player may not top up now ({code, message}: closure, self-exclusion, break, approval), or null.';

create function private.month_topped_up(p_user uuid) returns numeric
language sql stable security definer set search_path = '' as $$
  -- Money put in this month: pending top-ups (they may still be paid) and credited ones, less refunds.
  select coalesce(sum(t.amount - t.refunded_amount), 0)
    from public.top_ups t
   where t.user_id = p_user and t.created_at >= private.month_start()
     and t.status in ('pending', 'credited', 'partially_refunded', 'refunded')
$$;
comment on function private.month_topped_up(uuid) is 'Money the player has put in this calendar month: pending and credited top-ups created this month, less what was refunded.';

create function private.month_spent(p_user uuid) returns numeric
language sql stable security definer set search_path = '' as $$
  select coalesce(sum(e.amount), 0)
    from public.entries e
   where e.user_id = p_user and e.kind = 'paid' and e.status = 'active' and e.created_at >= private.month_start()
$$;
comment on function private.month_spent(uuid) is 'Credit the player spent on entries this calendar month (refunded entries excluded).';

create function private.top_up_quote(p_user uuid, p_amount numeric) returns jsonb
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
  if p_amount is null or p_amount = 'NaN'::numeric or p_amount <= 0 then
    refusal := coalesce(refusal, jsonb_build_object('code', 'invalid_input', 'message', 'Enter an amount in pounds and pence, more than zero'));
  elsif p_amount > max_amount then
    refusal := coalesce(refusal, jsonb_build_object('code', 'top_up_above_maximum', 'message', 'The most you can top up at once is ' || private.format_gbp(max_amount)));
  elsif p_amount <> round(p_amount, 2) then
    refusal := coalesce(refusal, jsonb_build_object('code', 'invalid_input', 'message', 'Enter an amount in pounds and pence, more than zero'));
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
comment on function private.top_up_quote(uuid, numeric) is 'What a top-up of p_amount would give the player and whether it is allowed now (refusal {code, message} or null); shared by quote_top_up and create_top_up.';

create function private.protections_json(p_user uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections := private.protections_of(p_user);
  topped_up numeric := private.month_topped_up(p_user);
  spent numeric := private.month_spent(p_user);
  state text := private.protection_state(p);
begin
  return jsonb_build_object(
    'monthly_limit', p.monthly_limit,
    'pending_limit', p.pending_limit,
    'pending_limit_from', p.pending_limit_from,
    'month_topped_up', topped_up,
    'month_spent', spent,
    -- One figure for both things the limit caps: what may still go in and be spent this month.
    'monthly_remaining', case when p.monthly_limit is null then null
                              else greatest(p.monthly_limit - greatest(topped_up, spent), 0) end,
    'state', state,
    'break_until', case when state in ('break', 'self_exclusion') then p.break_until end,
    'closed_at', p.closed_at,
    'limit_increase_delay_hours', (private.setting('limit_increase_delay_hours'))::numeric);
end;
$$;
comment on function private.protections_json(uuid) is 'A player''s protections as get_my_protections returns them.';

create function private.may_receive_marketing(p_user uuid) returns boolean
language sql security definer set search_path = '' as $$
  select coalesce((select pr.email_notifications from public.profiles pr where pr.id = p_user), false)
     and private.protection_state(private.protections_of(p_user)) = 'active'
$$;
comment on function private.may_receive_marketing(uuid) is 'True when marketing mail may go to the player: they consented (email_notifications) and are not on a break, excluded or closed.';

-- ----------------------------------------------------------------------------
-- Entering, now with protections: one private function for the public RPC and for
-- the entry a paid top-up makes. Behaviour, messages and codes as before, plus
-- breaks, exclusion, closure and the monthly limit on credit spent on entries.
-- ----------------------------------------------------------------------------
create function private.enter_competition_for(p_user uuid, p_competition_id uuid, p_quantity integer, p_answer text)
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
  drew boolean := false;
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
           'The draw is verifiable: its seed commitment is %s.',
           c.title, private.ticket_numbers_text(first_no, p_quantity), p_quantity, private.format_gbp(c.ticket_price),
           private.format_gbp(cost), private.format_gbp(new_balance), c.seed_commitment));
  perform private.log_activity('competition.entered', c.id,
    jsonb_build_object('entry_id', new_entry, 'quantity', p_quantity, 'amount', cost, 'user_id', p_user));

  if first_no + p_quantity - 1 = c.total_tickets then
    perform private.draw_competition(c.id, 'sold_out');
    drew := true;
  end if;

  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(array(select generate_series(first_no, first_no + p_quantity - 1))),
    'balance', new_balance,
    'drawn', drew);
end;
$$;
comment on function private.enter_competition_for(uuid, uuid, integer, text) is 'Buys p_quantity tickets for p_user in one transaction (approval, protections, open check, skill answer, per-user cap, tickets left, monthly spend limit, credit through the ledger, numbers in purchase order, totals, receipt) and draws the competition when this sells it out.';

create or replace function public.enter_competition(p_competition_id uuid, p_quantity integer, p_answer text default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
begin
  return private.enter_competition_for(private.require_user(), p_competition_id, p_quantity, p_answer);
end;
$$;
comment on function public.enter_competition(uuid, integer, text) is 'Approved users: buys p_quantity tickets in one transaction (protections, open check, skill answer, per-user cap, tickets left, monthly limit, credit through the ledger, numbers in purchase order, account totals, receipt mail) and draws the competition when this purchase sells it out.';

-- ----------------------------------------------------------------------------
-- Top-ups: the player's side
-- ----------------------------------------------------------------------------
create function public.quote_top_up(p_amount numeric) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  perform private.create_account_rows(uid);
  return private.top_up_quote(uid, p_amount);
end;
$$;
comment on function public.quote_top_up(numeric) is 'Signed-in users: what a top-up of p_amount gives ({amount, bonus, credit, balance_after, min, max, bonus_enabled, monthly_limit, monthly_remaining}) and refusal {code, message} or null. Never raises for a bad amount.';
grant execute on function public.quote_top_up(numeric) to authenticated;

create function public.get_top_up_options() returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  p public.player_protections;
  remaining numeric;
  blocked jsonb;
begin
  perform private.create_account_rows(uid);
  p := private.protections_of(uid);
  remaining := case when p.monthly_limit is null then null
                    else greatest(p.monthly_limit - private.month_topped_up(uid), 0) end;
  blocked := private.play_block(uid);
  if blocked is null and remaining is not null and remaining < (private.setting('top_up_min'))::numeric then
    blocked := jsonb_build_object('code', 'monthly_limit_reached',
      'message', 'You have reached your monthly limit: ' || private.format_gbp(remaining) || ' left this month');
  end if;
  return jsonb_build_object(
    'min', (private.setting('top_up_min'))::numeric,
    'max', (private.setting('top_up_max'))::numeric,
    'quick_picks', '[10, 25, 50, 100, 200]'::jsonb,
    'bonus_enabled', coalesce((private.setting('bonus_enabled'))::boolean, false),
    'bonus_tiers', coalesce((select jsonb_agg(jsonb_build_object('from', (t ->> 'from')::numeric, 'percent', (t ->> 'percent')::numeric)
                                              order by (t ->> 'from')::numeric)
                               from jsonb_array_elements(private.setting('bonus_tiers')) t), '[]'::jsonb),
    'monthly_limit', p.monthly_limit,
    'monthly_remaining', remaining,
    'pending_limit', p.pending_limit,
    'pending_limit_from', p.pending_limit_from,
    'needs_limit_prompt', p.limit_set_at is null and p.limit_prompt_seen_at is null
                          and not exists (select 1 from public.top_ups t where t.user_id = uid and t.credited_at is not null),
    'blocked', blocked);
end;
$$;
comment on function public.get_top_up_options() is 'Signed-in users: what the top-up page needs: min, max, quick picks, bonus tiers, the monthly limit and what is left of it, a pending increase, whether to invite a limit (needs_limit_prompt), and blocked {code, message} when no top-up is possible now.';
grant execute on function public.get_top_up_options() to authenticated;

create function public.create_top_up(p_amount numeric, p_provider text, p_purpose jsonb default null) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  quote jsonb;
  purpose jsonb;
  new_id uuid;
begin
  if p_provider is null or p_provider not in ('stripe', 'test') then
    raise exception 'Payment provider must be stripe or test' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_purpose is not null then
    begin
      if jsonb_typeof(p_purpose) is distinct from 'object'
         or jsonb_typeof(p_purpose -> 'competition_id') is distinct from 'string'
         or jsonb_typeof(p_purpose -> 'quantity') is distinct from 'number'
         or (p_purpose ->> 'quantity')::numeric <> (p_purpose ->> 'quantity')::integer
         or (p_purpose ->> 'quantity')::integer not between 1 and 1000000
         or coalesce(jsonb_typeof(p_purpose -> 'answer'), 'null') not in ('string', 'null')
         or char_length(coalesce(p_purpose ->> 'answer', '')) > 300 then
        raise exception 'The purpose must be {competition_id, quantity, answer}' using errcode = '22023', hint = 'invalid_input';
      end if;
      purpose := jsonb_build_object('competition_id', (p_purpose ->> 'competition_id')::uuid,
                                    'quantity', (p_purpose ->> 'quantity')::integer,
                                    'answer', p_purpose ->> 'answer');
    exception when invalid_text_representation or numeric_value_out_of_range then
      raise exception 'The purpose must be {competition_id, quantity, answer}' using errcode = '22023', hint = 'invalid_input';
    end;
    if not exists (select 1 from public.competitions c where c.id = (purpose ->> 'competition_id')::uuid and c.status <> 'draft') then
      raise exception 'Competition not found' using errcode = 'P0002', hint = 'competition_not_found';
    end if;
  end if;
  perform private.create_account_rows(uid);
  -- Lock the account: a player's concurrent top-ups queue here, so each sees the ones before it.
  perform 1 from public.user_account_data a where a.id = uid for update;
  quote := private.top_up_quote(uid, p_amount);
  if quote -> 'refusal' <> 'null'::jsonb then
    perform private.raise_refusal(quote -> 'refusal' ->> 'code', quote -> 'refusal' ->> 'message');
  end if;
  insert into public.top_ups (user_id, amount, bonus, provider, purpose)
  values (uid, p_amount, (quote ->> 'bonus')::numeric, p_provider, purpose)
  returning id into new_id;
  perform private.log_activity('top_up.created', new_id, jsonb_build_object('amount', p_amount, 'provider', p_provider));
  return jsonb_build_object('id', new_id, 'amount', p_amount, 'bonus', (quote ->> 'bonus')::numeric,
                            'credit', (quote ->> 'credit')::numeric, 'status', 'pending');
end;
$$;
comment on function public.create_top_up(numeric, text, jsonb) is 'Signed-in users: starts a top-up (pending until the provider confirms it) after the same checks as quote_top_up, raising its refusal codes; p_purpose {competition_id, quantity, answer} asks for that entry once credited.';
grant execute on function public.create_top_up(numeric, text, jsonb) to authenticated;

create function public.get_top_up(p_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  t public.top_ups%rowtype;
begin
  select * into t from public.top_ups where id = p_id and user_id = uid;
  if not found then
    raise exception 'Top-up not found' using errcode = 'P0002', hint = 'top_up_not_found';
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
                'ticket_numbers', to_jsonb(array(select generate_series(e.first_ticket, e.first_ticket + e.quantity - 1))),
                'competition_slug', c.slug)
                from public.entries e join public.competitions c on c.id = e.competition_id
               where e.id = t.entry_id),
    'entry_error', case when t.entry_error_code is not null
                        then jsonb_build_object('code', t.entry_error_code, 'message', t.entry_error_message) end);
end;
$$;
comment on function public.get_top_up(uuid) is 'The owner''s top-up: status, amounts, funding, current balance, why it was refused, and the entry it made (or why that entry failed). Anyone else gets top_up_not_found.';
grant execute on function public.get_top_up(uuid) to authenticated;

-- ----------------------------------------------------------------------------
-- Top-ups: the server's side (payment provider webhooks and the test checkout)
-- ----------------------------------------------------------------------------
create function private.require_server() returns void
language plpgsql stable set search_path = '' as $$
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
end;
$$;
comment on function private.require_server() is 'Refuses every caller but the server''s secret key.';

create function private.payment_lock(p_payment_id text) returns void
language sql set search_path = '' as $$
  -- Confirmations and refunds of one payment queue here: a refund that arrives while its
  -- confirmation is being processed then sees it, and the confirmation sees the refund.
  select pg_advisory_xact_lock(hashtextextended('top_up_payment:' || p_payment_id, 0))
$$;
comment on function private.payment_lock(text) is 'Serialises the confirmation and refunds of one payment (transaction-scoped advisory lock).';

create function private.apply_top_up_refund(p_refund_row bigint) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  r public.top_up_refunds%rowtype;
  t public.top_ups%rowtype;
  balance numeric(12, 2);
  bonus_share numeric(12, 2) := 0;
  money_reversed numeric(12, 2) := 0;
  bonus_reversed numeric(12, 2) := 0;
  still_owed numeric(12, 2) := 0;
begin
  select * into r from public.top_up_refunds where id = p_refund_row for update;
  select * into t from public.top_ups where payment_id = r.payment_id for update;
  if r.applied_at is not null or t.id is null then
    return null;
  end if;
  if t.status in ('credited', 'partially_refunded', 'refunded') then
    -- The bonus came with the money, so a refund takes back its share of it: rounded down
    -- (in the player's favour) on a partial refund, and whatever is left of the bonus on the
    -- refund that completes the top-up, so the shares never add up to more than the bonus
    -- and a full refund, in one go or in parts, takes back exactly amount + bonus.
    if t.refunded_amount + r.amount >= t.amount then
      bonus_share := t.bonus - coalesce((select sum(o.bonus) from public.top_up_refunds o
                                          where o.top_up_id = t.id and o.applied_at is not null), 0);
    else
      bonus_share := floor(t.bonus * r.amount / t.amount * 100) / 100;
    end if;
    -- The balance never goes below zero: what was already spent is recorded as owed. The
    -- refunded money is taken first, then the bonus share.
    select a.credits into balance from public.user_account_data a where a.id = t.user_id for update;
    money_reversed := least(r.amount, balance);
    bonus_reversed := least(bonus_share, balance - money_reversed);
    still_owed := r.amount + bonus_share - money_reversed - bonus_reversed;
    -- Two ledger rows rather than one: the first matches the money refunded to the card
    -- (what the player sees on their statement), the second mirrors the top-up's own
    -- `bonus` row, so the ledger says plainly how much bonus went back.
    if money_reversed > 0 then
      balance := private.post_ledger(t.user_id, 'top_up_reversal', -money_reversed, 'Refund of top-up', 'top_up:' || t.id);
    end if;
    if bonus_reversed > 0 then
      balance := private.post_ledger(t.user_id, 'top_up_reversal', -bonus_reversed, 'Bonus taken back with the refund of top-up', 'top_up:' || t.id);
    end if;
  end if;
  update public.top_up_refunds
     set top_up_id = t.id, bonus = bonus_share, reversed = money_reversed + bonus_reversed, owed = still_owed, applied_at = now()
   where id = r.id;
  update public.top_ups
     set refunded_amount = refunded_amount + r.amount, owed = owed + still_owed, updated_at = now(),
         status = case when status not in ('credited', 'partially_refunded', 'refunded') then status
                       when refunded_amount + r.amount >= amount then 'refunded' else 'partially_refunded' end
   where id = t.id;
  balance := (select a.credits from public.user_account_data a where a.id = t.user_id);
  perform private.queue_mail(t.user_id, 'top_up_refund', 'Your LabCash refund',
    format(E'We have refunded %s of your top-up to your card.\n\n%s\nCredit balance: %s\nReference: top_up:%s',
           private.format_gbp(r.amount),
           case when t.status = 'refused_card_cap' then 'This payment was not credited, so your credit is unchanged.'
                else format(E'Bonus taken back with it: %s\n', private.format_gbp(bonus_share))
                  || case when still_owed > 0 then format('We took back %s credit; %s had already been spent and is recorded as owed.',
                                                          private.format_gbp(money_reversed + bonus_reversed), private.format_gbp(still_owed))
                          else format('We took back %s credit.', private.format_gbp(money_reversed + bonus_reversed)) end end,
           private.format_gbp(balance), t.id));
  perform private.log_activity('top_up.refunded', t.id,
    jsonb_build_object('refund_id', r.refund_id, 'amount', r.amount, 'bonus', bonus_share,
                       'reversed', money_reversed + bonus_reversed, 'owed', still_owed));
  return jsonb_build_object('top_up_id', t.id, 'bonus', bonus_share, 'reversed', money_reversed + bonus_reversed,
                            'owed', still_owed, 'balance', balance);
end;
$$;
comment on function private.apply_top_up_refund(bigint) is 'Applies one recorded refund to its confirmed top-up: takes back the refunded money and its share of the bonus (two top_up_reversal rows) as far as the balance covers, records the rest as owed, and sends a refund receipt stating the bonus taken back. Does nothing before the confirmation or twice.';

create function private.require_within_card_cap(p_user uuid, p_amount numeric) returns void
language plpgsql security definer set search_path = '' as $$
declare
  cap numeric := (private.setting('credit_card_monthly_cap'))::numeric;
  card_month numeric;
begin
  -- Credit-card money credited this calendar month, less refunds (code of practice 1.3).
  select coalesce(sum(o.amount - o.refunded_amount), 0) into card_month
    from public.top_ups o
   where o.user_id = p_user and o.funding = 'credit' and o.credited_at >= private.month_start()
     and o.status in ('credited', 'partially_refunded', 'refunded');
  if card_month + p_amount > cap then
    raise exception 'Credit-card top-ups are limited to % a calendar month and this one would take you to %, so it has not been credited and your card will be refunded. You can top up with a debit card instead.',
      private.format_gbp(cap), private.format_gbp(card_month + p_amount)
      using errcode = 'P0001', hint = 'card_cap_exceeded';
  end if;
end;
$$;
comment on function private.require_within_card_cap(uuid, numeric) is 'Refuses (card_cap_exceeded) a credit-card top-up that would take the player''s credit-card top-ups this calendar month over the cap setting.';

create function public.attach_checkout_session(p_top_up_id uuid, p_session_id text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  t public.top_ups%rowtype;
begin
  perform private.require_server();
  if p_session_id is null or char_length(p_session_id) not between 1 and 255 then
    raise exception 'A checkout session id is required' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into t from public.top_ups where id = p_top_up_id for update;
  if not found then
    raise exception 'Top-up not found' using errcode = 'P0002', hint = 'top_up_not_found';
  end if;
  if t.checkout_session_id is not null and t.checkout_session_id <> p_session_id then
    raise exception 'This top-up already has another checkout session' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.top_ups set checkout_session_id = p_session_id, updated_at = now() where id = p_top_up_id;
end;
$$;
comment on function public.attach_checkout_session(uuid, text) is 'Server: records the provider''s checkout session of a top-up (once; the same id again is a no-op).';
grant execute on function public.attach_checkout_session(uuid, text) to service_role;

create function public.find_top_up_by_session(p_session_id text) returns uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_server();
  return (select t.id from public.top_ups t where t.checkout_session_id = p_session_id);
end;
$$;
comment on function public.find_top_up_by_session(text) is 'Server: the top-up of a checkout session, or null.';
grant execute on function public.find_top_up_by_session(text) to service_role;

create function public.confirm_top_up(p_top_up_id uuid, p_payment_id text, p_funding text, p_amount_paid numeric)
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

  -- Lock order: competition (when the top-up pays for an entry), then account, as entering does.
  if t.purpose is not null then
    perform 1 from public.competitions c where c.id = (t.purpose ->> 'competition_id')::uuid for update;
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
comment on function public.confirm_top_up(uuid, text, text, numeric) is 'Server: a provider says the top-up was paid. Credits it exactly once (top_up and bonus ledger rows, receipt mail), idempotent on the payment id and the top-up; refuses a different payment or amount (payment_mismatch); refuses credit-card payments over the monthly cap (refund_required); applies refunds that arrived first; makes the entry the top-up was for, keeping the credit if that fails.';
grant execute on function public.confirm_top_up(uuid, text, text, numeric) to service_role;

create function public.fail_top_up(p_top_up_id uuid, p_status text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  t public.top_ups%rowtype;
begin
  perform private.require_server();
  if p_status is null or p_status not in ('failed', 'expired') then
    raise exception 'Status must be failed or expired' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into t from public.top_ups where id = p_top_up_id for update;
  if not found then
    raise exception 'Top-up not found' using errcode = 'P0002', hint = 'top_up_not_found';
  end if;
  if t.status = 'pending' then
    update public.top_ups set status = p_status, updated_at = now() where id = t.id;
    perform private.log_activity('top_up.' || p_status, t.id, '{}'::jsonb);
    t.status := p_status;
  end if;
  return jsonb_build_object('status', t.status, 'top_up_id', t.id);
end;
$$;
comment on function public.fail_top_up(uuid, text) is 'Server: marks a pending top-up failed or expired (no-op in any other status); returns its status.';
grant execute on function public.fail_top_up(uuid, text) to service_role;

create function public.record_top_up_refund(p_payment_id text, p_refund_id text, p_amount numeric) returns jsonb
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
  if p_amount is null or p_amount = 'NaN'::numeric or p_amount <= 0 or p_amount > 100000 or p_amount <> round(p_amount, 2) then
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
comment on function public.record_top_up_refund(text, text, numeric) is 'Server: a provider refunded (part of) a payment. Once per refund id: takes back the refunded money and its share of the bonus (top_up_reversal rows) as far as the balance covers and records the rest as owed, with a refund receipt; a refund that arrives before its confirmation is kept and applied by it.';
grant execute on function public.record_top_up_refund(text, text, numeric) to service_role;

-- ----------------------------------------------------------------------------
-- Responsible play: the player's choices
-- ----------------------------------------------------------------------------
create function public.get_my_protections() returns jsonb
language plpgsql security definer set search_path = '' as $$
begin
  return private.protections_json(private.require_user());
end;
$$;
comment on function public.get_my_protections() is 'Signed-in users: their monthly limit (and pending increase), money put in and spent this month, what is left, and their state (active, break, self_exclusion, closed).';
grant execute on function public.get_my_protections() to authenticated;

create function public.dismiss_limit_prompt() returns void
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  insert into public.player_protections (user_id, limit_prompt_seen_at) values (uid, now())
  on conflict (user_id) do update set limit_prompt_seen_at = now(), updated_at = now();
end;
$$;
comment on function public.dismiss_limit_prompt() is 'Signed-in users: stop inviting me to set a monthly limit.';
grant execute on function public.dismiss_limit_prompt() to authenticated;

create function public.set_monthly_limit(p_limit numeric) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  p public.player_protections;
  delay numeric := (private.setting('limit_increase_delay_hours'))::numeric;
begin
  if p_limit is not null and (p_limit = 'NaN'::numeric or p_limit < 0 or p_limit > 1000000 or p_limit <> round(p_limit, 2)) then
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
comment on function public.set_monthly_limit(numeric) is 'Signed-in users: sets the monthly limit (null for none; £0 allowed). A decrease applies at once; an increase or removal waits limit_increase_delay_hours.';
grant execute on function public.set_monthly_limit(numeric) to authenticated;

create function private.start_block(p_user uuid, p_kind text, p_until timestamptz) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections;
begin
  -- The account lock, as top-ups and entries take it: one in progress finishes first.
  perform private.create_account_rows(p_user);
  perform 1 from public.user_account_data a where a.id = p_user for update;
  insert into public.player_protections (user_id) values (p_user) on conflict (user_id) do nothing;
  select * into p from public.player_protections where user_id = p_user for update;
  if p.closed_at is not null then
    raise exception 'Your account is closed' using errcode = 'P0001', hint = 'account_closed';
  end if;
  -- Never shortened or weakened: a block can only be extended, or made stronger.
  update public.player_protections
     set break_until = greatest(case when break_until > now() then break_until end, p_until),
         break_kind = case when break_until > now() and break_kind = 'self_exclusion' then 'self_exclusion' else p_kind end,
         updated_at = now()
   where user_id = p_user;
  perform private.log_activity('protections.' || p_kind, p_user, jsonb_build_object('until', p_until));
  return private.protections_json(p_user);
end;
$$;
comment on function private.start_block(uuid, text, timestamptz) is 'Starts or extends a break or self-exclusion; never shortens one or turns a self-exclusion into a break.';

create function public.take_break(p_period text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_period is null or p_period not in ('1 week', '1 month', '3 months') then
    raise exception 'A break lasts 1 week, 1 month or 3 months' using errcode = '22023', hint = 'invalid_input';
  end if;
  return private.start_block(uid, 'break', now() + p_period::interval);
end;
$$;
comment on function public.take_break(text) is 'Signed-in users: a break from top-ups, entries and marketing mail for 1 week, 1 month or 3 months; it cannot be ended early.';
grant execute on function public.take_break(text) to authenticated;

create function public.self_exclude(p_months integer) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_months is null or p_months < 6 or p_months > 120 then
    raise exception 'Self-exclusion lasts from 6 months to 10 years' using errcode = '22023', hint = 'invalid_input';
  end if;
  return private.start_block(uid, 'self_exclusion', now() + make_interval(months => p_months));
end;
$$;
comment on function public.self_exclude(integer) is 'Signed-in users: self-exclusion for p_months (6 to 120); it cannot be ended early.';
grant execute on function public.self_exclude(integer) to authenticated;

create function public.close_account() returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  perform private.create_account_rows(uid);
  perform 1 from public.user_account_data a where a.id = uid for update;
  insert into public.player_protections (user_id) values (uid) on conflict (user_id) do nothing;
  update public.player_protections
     set break_kind = 'closed', closed_at = coalesce(closed_at, now()), updated_at = now()
   where user_id = uid;
  perform private.log_activity('protections.closed', uid, '{}'::jsonb);
  return private.protections_json(uid);
end;
$$;
comment on function public.close_account() is 'Signed-in users: closes the account for good (sign-in and history stay; top-ups, entries and marketing stop). Cannot be undone.';
grant execute on function public.close_account() to authenticated;

-- ----------------------------------------------------------------------------
-- The ledger page and its CSV
-- ----------------------------------------------------------------------------
create function private.ledger_filter_check(p_kind text) returns void
language plpgsql stable set search_path = '' as $$
begin
  if p_kind is not null and p_kind not in ('top_up', 'bonus', 'entry', 'refund', 'admin_adjustment', 'spinner_prize', 'debit', 'top_up_reversal') then
    raise exception 'Unknown ledger kind: %', p_kind using errcode = '22023', hint = 'invalid_input';
  end if;
end;
$$;
comment on function private.ledger_filter_check(text) is 'Refuses an unknown ledger kind filter.';

create function public.get_my_ledger_page(p_kind text default null, p_month date default null,
                                          p_before bigint default null, p_limit integer default 50)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  from_at timestamptz := private.month_start(p_month::timestamp at time zone 'Europe/London');
  -- The next month's start, found from inside it, so the clock change cannot shift it.
  to_at timestamptz := private.month_start(from_at + interval '32 days');
  page_rows jsonb;
  last_id bigint;
  more boolean;
begin
  perform private.ledger_filter_check(p_kind);
  select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'kind', x.kind, 'amount', x.amount, 'balance_after', x.balance_after,
                                               'reason', x.reason, 'reference', x.reference, 'created_at', x.created_at)
                            order by x.id desc), '[]'::jsonb),
         min(x.id)
    into page_rows, last_id
    from (select l.* from public.credit_ledger l
           where l.user_id = uid and (p_kind is null or l.kind = p_kind)
             and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))
             and (p_before is null or l.id < p_before)
           order by l.id desc limit page_size) x;
  more := last_id is not null and exists (
    select 1 from public.credit_ledger l
     where l.user_id = uid and (p_kind is null or l.kind = p_kind)
       and (from_at is null or (l.created_at >= from_at and l.created_at < to_at)) and l.id < last_id);
  return jsonb_build_object(
    'rows', page_rows,
    'next_before', case when more then last_id end,
    'totals', (select jsonb_build_object('count', count(*),
                                         'credits_in', coalesce(sum(l.amount) filter (where l.amount > 0), 0),
                                         'credits_out', coalesce(-sum(l.amount) filter (where l.amount < 0), 0),
                                         'net', coalesce(sum(l.amount), 0))
                 from public.credit_ledger l
                where l.user_id = uid and (p_kind is null or l.kind = p_kind)
                  and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))));
end;
$$;
comment on function public.get_my_ledger_page(text, date, bigint, integer) is 'Signed-in users: one page of their ledger, newest first (keyset: pass next_before), optionally one kind and the calendar month (Europe/London) containing p_month; totals are for the whole filter (credits_out is a positive figure; net = credits_in - credits_out).';
grant execute on function public.get_my_ledger_page(text, date, bigint, integer) to authenticated;

create function public.get_my_ledger_csv(p_kind text default null, p_month date default null) returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  from_at timestamptz := private.month_start(p_month::timestamp at time zone 'Europe/London');
  to_at timestamptz := private.month_start(from_at + interval '32 days');
begin
  perform private.ledger_filter_check(p_kind);
  return E'date,kind,amount,balance_after,reference,reason\n'
    || coalesce((select string_agg(
                   to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ',' || l.kind || ','
                   || to_char(l.amount, 'FM999999999990.00') || ',' || to_char(l.balance_after, 'FM999999999990.00') || ','
                   || private.csv_field(l.reference) || ',' || private.csv_field(l.reason) || E'\n',
                   '' order by l.id)
                   from public.credit_ledger l
                  where l.user_id = uid and (p_kind is null or l.kind = p_kind)
                    and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))), '')
    || 'total,,' || to_char(coalesce((select sum(l.amount) from public.credit_ledger l
                                       where l.user_id = uid and (p_kind is null or l.kind = p_kind)
                                         and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))), 0),
                            'FM999999999990.00') || E',,,\n';
end;
$$;
comment on function public.get_my_ledger_csv(text, date) is 'Signed-in users: their ledger (same filters as get_my_ledger_page) as CSV, oldest first: date (ISO UTC), kind, amount, balance_after, reference, reason; then total,,<net>,,, so rows and total match the ledger exactly.';
grant execute on function public.get_my_ledger_csv(text, date) to authenticated;
