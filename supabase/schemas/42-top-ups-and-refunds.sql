-- ============================================================================
-- Top-ups and refunds: quotes, card top-ups and their confirmation, refunds, payment resolutions, monthly
-- totals.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Functions the tables use
-- ----------------------------------------------------------------------------

-- confirm_top_up enters the competition a top-up was for inside its own sub-transaction and keeps a
-- refusal in the top-up's entry_error_code; a wrong answer there is a miss too, or one top-up per
-- possible answer would find the right one.
create or replace function private.top_up_entry_missed() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.record_skill_miss(new.user_id, (new.purpose ->> 'competition_id')::uuid);
  return new;
end;
$$;
comment on function private.top_up_entry_missed() is 'Trigger: a top-up whose entry was refused for a wrong answer records the miss.';
revoke all on function private.top_up_entry_missed() from public, anon, authenticated, service_role;

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create type public.top_up_status as enum ('pending', 'credited', 'failed', 'expired', 'refused_card_cap', 'refunded', 'partially_refunded');
comment on type public.top_up_status is 'Where a top-up stands with the payment provider.';
create type public.payment_provider as enum ('stripe', 'test');
comment on type public.payment_provider is 'Who took a top-up''s payment: Stripe, or the labelled test checkout.';
create type public.card_funding as enum ('debit', 'credit', 'prepaid', 'wallet', 'unknown');
comment on type public.card_funding is 'How the card that paid a top-up is funded (credit cards are refused).';
create table public.top_ups (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  amount numeric(12,2) not null,
  bonus numeric(12,2) default 0 not null,
  status public.top_up_status default 'pending'::public.top_up_status not null,
  provider public.payment_provider not null,
  checkout_session_id text,
  payment_id text,
  funding public.card_funding,
  purpose jsonb,
  entry_id uuid,
  entry_error_code text,
  entry_error_message text,
  refusal_message text,
  refunded_amount numeric(12,2) default 0 not null,
  owed numeric(12,2) default 0 not null,
  created_at timestamp with time zone default now() not null,
  credited_at timestamp with time zone,
  updated_at timestamp with time zone default now() not null,
  constraint top_ups_pkey primary key (id),
  constraint top_ups_checkout_session_id_key unique (checkout_session_id),
  constraint top_ups_payment_id_key unique (payment_id),
  constraint top_ups_amount_check check ((amount > (0)::numeric)),
  constraint top_ups_bonus_check check ((bonus >= (0)::numeric)),
  constraint top_ups_payment_id_once_paid_check check (((status = 'pending'::public.top_up_status) OR (status = ANY (ARRAY['failed'::public.top_up_status, 'expired'::public.top_up_status])) OR (payment_id IS NOT NULL))),
  constraint top_ups_checkout_session_id_check check (((char_length(checkout_session_id) >= 1) AND (char_length(checkout_session_id) <= 255))),
  constraint top_ups_owed_check check ((owed >= (0)::numeric)),
  constraint top_ups_payment_id_check check (((char_length(payment_id) >= 1) AND (char_length(payment_id) <= 255))),
  constraint top_ups_refunded_amount_check check ((refunded_amount >= (0)::numeric)),
  constraint top_ups_entry_id_fkey foreign key (entry_id) references public.entries(id) on delete set null,
  constraint top_ups_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.top_ups enable row level security;
comment on table public.top_ups is 'One attempt to buy credit: pending until the payment provider confirms it; credited once (payment_id is unique), or failed, expired, refused over the credit-card cap, refunded. Read through get_top_up only.';
comment on column public.top_ups.bonus is 'The bonus fixed when the top-up was created, so what was quoted is what lands.';
comment on column public.top_ups.refusal_message is 'Why a confirmed payment was not credited (refused_card_cap), as the player was told.';
comment on column public.top_ups.owed is 'Refunded money that could not be taken back from the balance because it was already spent (shown to admins).';
revoke all on table public.top_ups from public, anon, authenticated, service_role;
grant all on table public.top_ups to service_role;

create index top_ups_user_idx on public.top_ups (user_id, created_at DESC);
create index top_ups_entry_idx on public.top_ups (entry_id);
create index top_ups_owed_idx on public.top_ups (id) where (owed > (0)::numeric);
CREATE TRIGGER top_up_entry_missed AFTER UPDATE OF entry_error_code ON public.top_ups FOR EACH ROW WHEN (((new.entry_error_code = 'answer_incorrect'::text) AND (old.entry_error_code IS DISTINCT FROM 'answer_incorrect'::text))) EXECUTE FUNCTION private.top_up_entry_missed();

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
comment on table public.top_up_refunds is 'Refunds reported by the payment provider, once each (refund_id). One that arrives before its payment is confirmed waits (applied_at null) and is applied by the confirmation.';
comment on column public.top_up_refunds.bonus is 'The share of the top-up''s bonus this refund takes back with the money (bonus × amount / top-up, rounded down to the penny; the refund that completes the top-up takes what is left of the bonus).';
comment on column public.top_up_refunds.reversed is 'Credit taken back from the balance for this refund: amount plus bonus share, up to the balance.';
comment on column public.top_up_refunds.owed is 'What the balance could not cover of amount plus bonus share.';
revoke all on table public.top_up_refunds from public, anon, authenticated, service_role;
grant all on table public.top_up_refunds to service_role;

create index top_up_refunds_payment_idx on public.top_up_refunds (payment_id);
create index top_up_refunds_top_up_idx on public.top_up_refunds (top_up_id);

create type public.payment_issue as enum ('mismatch', 'owed');
comment on type public.payment_issue is 'A payment that needs a person: one that does not match its top-up, or money owed after a refund.';
create table public.payment_resolutions (
  id bigint generated always as identity,
  kind public.payment_issue not null,
  reference text not null,
  note text not null,
  resolved_by uuid,
  resolved_at timestamp with time zone default now() not null,
  constraint payment_resolutions_pkey primary key (id),
  constraint payment_resolutions_kind_reference_key unique (kind, reference),
  constraint payment_resolutions_note_check check (((char_length(note) >= 3) AND (char_length(note) <= 2000))),
  constraint payment_resolutions_reference_check check (((char_length(reference) >= 1) AND (char_length(reference) <= 255))),
  constraint payment_resolutions_resolved_by_fkey foreign key (resolved_by) references auth.users(id) on delete set null
);
alter table public.payment_resolutions enable row level security;
comment on table public.payment_resolutions is 'A super admin''s record that a payment needing a person was dealt with: a mismatch (by webhook event id) or an amount owed (by top-up id).';
revoke all on table public.payment_resolutions from public, anon, authenticated, service_role;
grant all on table public.payment_resolutions to service_role;

create index payment_resolutions_resolved_by_idx on public.payment_resolutions (resolved_by);

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.month_start(p_at timestamptz default now()) returns timestamptz
language sql stable set search_path = '' as $$
  select (date_trunc('month', p_at at time zone 'Europe/London')) at time zone 'Europe/London'
$$;
comment on function private.month_start(timestamp with time zone) is 'The start of the calendar month (Europe/London) that contains p_at: what "this month" means for limits and the credit-card cap.';
revoke all on function private.month_start(timestamp with time zone) from public, anon, authenticated, service_role;

create or replace function private.top_up_bonus(p_amount numeric) returns numeric
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
revoke all on function private.top_up_bonus(numeric) from public, anon, authenticated, service_role;

create or replace function private.month_topped_up(p_user uuid) returns numeric
language sql stable security definer set search_path = '' as $$
  -- Money put in this month: pending top-ups (they may still be paid) and credited ones, less refunds.
  select coalesce(sum(t.amount - t.refunded_amount), 0)
    from public.top_ups t
   where t.user_id = p_user and t.created_at >= private.month_start()
     and t.status in ('pending', 'credited', 'partially_refunded', 'refunded')
$$;
comment on function private.month_topped_up(uuid) is 'Money the player has put in this calendar month: pending and credited top-ups created this month, less what was refunded.';
revoke all on function private.month_topped_up(uuid) from public, anon, authenticated, service_role;

create or replace function private.month_spent(p_user uuid) returns numeric
language sql stable security definer set search_path = '' as $$
  select coalesce(sum(e.amount), 0)
    from public.entries e
   where e.user_id = p_user and e.kind = 'paid' and e.status = 'active' and e.created_at >= private.month_start()
$$;
comment on function private.month_spent(uuid) is 'Credit the player spent on entries this calendar month (refunded entries excluded).';
revoke all on function private.month_spent(uuid) from public, anon, authenticated, service_role;

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

create or replace function private.may_receive_marketing(p_user uuid) returns boolean
language sql security definer set search_path = '' as $$
  select coalesce((select pr.marketing_consent from public.profiles pr where pr.id = p_user), false)
     and private.protection_state(private.protections_of(p_user)) = 'active'
     and not exists (select 1 from public.player_protections pp where pp.user_id = p_user and pp.restricted_at is not null)
$$;
comment on function private.may_receive_marketing(uuid) is 'True when marketing mail may go to the player: they consented (marketing_consent), are not on a break, excluded or closed, and no admin has restricted them.';
revoke all on function private.may_receive_marketing(uuid) from public, anon, authenticated, service_role;

create type public.top_up_quote as (amount numeric, bonus numeric, credit numeric, balance_after numeric, min numeric, max numeric, bonus_enabled boolean, monthly_limit numeric, monthly_remaining numeric, refusal public.refusal);
comment on type public.top_up_quote is 'What a top-up of an amount would give the player (amount, bonus, credit, balance after; null when the amount is not valid), the bounds, the monthly limit and what is left of it, and the refusal (or null).';

create or replace function public.quote_top_up(p_amount numeric) returns public.top_up_quote
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  perform private.create_account_rows(uid);
  -- The quote stays jsonb because create_top_up reads it; its refusal object becomes the nested refusal (null stays null).
  return jsonb_populate_record(null::public.top_up_quote, private.top_up_quote(uid, p_amount));
end;
$$;
comment on function public.quote_top_up(numeric) is 'Signed-in users: what a top-up of p_amount gives ({amount, bonus, credit, balance_after, min, max, bonus_enabled, monthly_limit, monthly_remaining}) and refusal {code, message} or null. Never raises for a bad amount.';
revoke all on function public.quote_top_up(numeric) from public, anon, authenticated, service_role;
grant execute on function public.quote_top_up(numeric) to authenticated;
grant execute on function public.quote_top_up(numeric) to service_role;

create type public.bonus_tier as ("from" numeric, percent numeric);
comment on type public.bonus_tier is 'One bonus tier: top-ups from this amount get this percent as bonus.';

create type public.top_up_options as (min numeric, max numeric, quick_picks integer[], bonus_enabled boolean, bonus_tiers public.bonus_tier[], monthly_limit numeric, monthly_remaining numeric, pending_limit numeric, pending_limit_from timestamp with time zone, needs_limit_prompt boolean, blocked public.refusal);
comment on type public.top_up_options is 'What the top-up page needs: bounds, quick picks, bonus tiers, the monthly limit, what is left and a pending increase, whether to invite a limit, and what blocks a top-up now (or null).';

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

create or replace function public.create_top_up(p_amount numeric, p_provider text, p_purpose jsonb default null) returns jsonb
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
      raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
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
  values (uid, p_amount, (quote ->> 'bonus')::numeric, p_provider::public.payment_provider, purpose)
  returning id into new_id;
  perform private.log_activity('top_up.created', new_id, jsonb_build_object('amount', p_amount, 'provider', p_provider));
  return jsonb_build_object('id', new_id, 'amount', p_amount, 'bonus', (quote ->> 'bonus')::numeric,
                            'credit', (quote ->> 'credit')::numeric, 'status', 'pending');
end;
$$;
comment on function public.create_top_up(numeric,text,jsonb) is 'Signed-in users: starts a top-up (pending until the provider confirms it) after the same checks as quote_top_up, raising its refusal codes; p_purpose {competition_id, quantity, answer} asks for that entry once credited.';
revoke all on function public.create_top_up(numeric,text,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.create_top_up(numeric,text,jsonb) to authenticated;
grant execute on function public.create_top_up(numeric,text,jsonb) to service_role;

create type public.top_up_entry as (entry_id uuid, ticket_numbers integer[], competition_slug text);
comment on type public.top_up_entry is 'The entry a top-up made for its purpose: its id, ticket numbers and competition.';

create type public.my_top_up as (id uuid, status public.top_up_status, amount numeric, bonus numeric, credit numeric, funding public.card_funding, provider public.payment_provider, balance numeric, created_at timestamp with time zone, credited_at timestamp with time zone, refusal_reason text, refusal_reason_code text, purpose jsonb, entry public.top_up_entry, entry_error public.refusal);
comment on type public.my_top_up is 'The owner''s top-up: status, amounts, funding, the balance now, why it was refused, its purpose {competition_id, quantity, answer}, and the entry it made or why that failed.';

create or replace function public.get_top_up(p_id uuid) returns public.my_top_up
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  t public.top_ups%rowtype;
begin
  select * into t from public.top_ups where id = p_id and user_id = uid;
  if not found then
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
  end if;
  return row(
    t.id,
    t.status,
    t.amount,
    t.bonus,
    t.amount + t.bonus,
    t.funding,
    t.provider,
    coalesce((select a.credits from public.user_account_data a where a.id = uid), 0),
    t.created_at,
    t.credited_at,
    t.refusal_message,
    case when t.status = 'refused_card_cap' then 'card_cap_exceeded' end,
    t.purpose,
    (select row(e.id, private.entry_ticket_numbers(e.id), c.slug)::public.top_up_entry
       from public.entries e join public.competitions c on c.id = e.competition_id
      where e.id = t.entry_id),
    case when t.entry_error_code is not null
         then row(t.entry_error_code, t.entry_error_message)::public.refusal end)::public.my_top_up;
end;
$$;
comment on function public.get_top_up(uuid) is 'The owner''s top-up: status, amounts, funding, current balance, why it was refused, and the entry it made (or why that entry failed). Anyone else gets top_up_not_found.';
revoke all on function public.get_top_up(uuid) from public, anon, authenticated, service_role;
grant execute on function public.get_top_up(uuid) to authenticated;
grant execute on function public.get_top_up(uuid) to service_role;

create or replace function private.payment_lock(p_payment_id text) returns void
language sql set search_path = '' as $$
  -- Confirmations and refunds of one payment queue here: a refund that arrives while its
  -- confirmation is being processed then sees it, and the confirmation sees the refund.
  select pg_advisory_xact_lock(hashtextextended('top_up_payment:' || p_payment_id, 0))
$$;
comment on function private.payment_lock(text) is 'Serialises the confirmation and refunds of one payment (transaction-scoped advisory lock).';
revoke all on function private.payment_lock(text) from public, anon, authenticated, service_role;

create or replace function private.apply_top_up_refund(p_refund_row bigint) returns jsonb
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
revoke all on function private.apply_top_up_refund(bigint) from public, anon, authenticated, service_role;

create or replace function private.require_within_card_cap(p_user uuid, p_amount numeric) returns void
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
comment on function private.require_within_card_cap(uuid,numeric) is 'Refuses (card_cap_exceeded) a credit-card top-up that would take the player''s credit-card top-ups this calendar month over the cap setting.';
revoke all on function private.require_within_card_cap(uuid,numeric) from public, anon, authenticated, service_role;

create or replace function public.attach_checkout_session(p_top_up_id uuid, p_session_id text) returns void
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
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
  end if;
  if t.checkout_session_id is not null and t.checkout_session_id <> p_session_id then
    raise exception 'This top-up already has another checkout session' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.top_ups set checkout_session_id = p_session_id, updated_at = now() where id = p_top_up_id;
end;
$$;
comment on function public.attach_checkout_session(uuid,text) is 'Server: records the provider''s checkout session of a top-up (once; the same id again is a no-op).';
revoke all on function public.attach_checkout_session(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.attach_checkout_session(uuid,text) to service_role;

create or replace function public.find_top_up_by_session(p_session_id text) returns uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_server();
  return (select t.id from public.top_ups t where t.checkout_session_id = p_session_id);
end;
$$;
comment on function public.find_top_up_by_session(text) is 'Server: the top-up of a checkout session, or null.';
revoke all on function public.find_top_up_by_session(text) from public, anon, authenticated, service_role;
grant execute on function public.find_top_up_by_session(text) to service_role;

create or replace function public.confirm_top_up(p_top_up_id uuid, p_payment_id text, p_funding text, p_amount_paid numeric) returns jsonb
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
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
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
         set status = 'refused_card_cap', payment_id = p_payment_id, funding = p_funding::public.card_funding, refusal_message = message, updated_at = now()
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
     set status = 'credited', payment_id = p_payment_id, funding = p_funding::public.card_funding, credited_at = now(), updated_at = now()
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
comment on function public.confirm_top_up(uuid,text,text,numeric) is 'Server: a provider says the top-up was paid. Credits it exactly once (top_up and bonus ledger rows, receipt mail), idempotent on the payment id and the top-up; refuses a different payment or amount (payment_mismatch); refuses credit-card payments over the monthly cap (refund_required); applies refunds that arrived first; makes the entry the top-up was for, keeping the credit if that fails.';
revoke all on function public.confirm_top_up(uuid,text,text,numeric) from public, anon, authenticated, service_role;
grant execute on function public.confirm_top_up(uuid,text,text,numeric) to service_role;

create type public.top_up_outcome as (status public.top_up_status, top_up_id uuid);
comment on type public.top_up_outcome is 'A top-up''s status after fail_top_up.';

create or replace function public.fail_top_up(p_top_up_id uuid, p_status text) returns public.top_up_outcome
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
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
  end if;
  if t.status = 'pending' then
    update public.top_ups set status = p_status::public.top_up_status, updated_at = now() where id = t.id;
    perform private.log_activity('top_up.' || p_status, t.id, '{}'::jsonb);
    t.status := p_status;
  end if;
  return (t.status, t.id)::public.top_up_outcome;
end;
$$;
comment on function public.fail_top_up(uuid,text) is 'Server: marks a pending top-up failed or expired (no-op in any other status); returns its status.';
revoke all on function public.fail_top_up(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.fail_top_up(uuid,text) to service_role;

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
comment on function public.record_top_up_refund(text,text,numeric) is 'Server: a provider refunded (part of) a payment. Once per refund id: takes back the refunded money and its share of the bonus (top_up_reversal rows) as far as the balance covers and records the rest as owed, with a refund receipt; a refund that arrives before its confirmation is kept and applied by it.';
revoke all on function public.record_top_up_refund(text,text,numeric) from public, anon, authenticated, service_role;
grant execute on function public.record_top_up_refund(text,text,numeric) to service_role;

create or replace function private.month_credited(p_user uuid) returns numeric
language sql stable security definer set search_path = '' as $$
  select coalesce(sum(t.amount - t.refunded_amount), 0)
    from public.top_ups t
   where t.user_id = p_user and t.created_at >= private.month_start()
     and t.status in ('credited', 'partially_refunded', 'refunded')
$$;
comment on function private.month_credited(uuid) is 'Money paid and credited to the player from top-ups started this calendar month, less what was refunded (pending checkouts excluded).';
revoke all on function private.month_credited(uuid) from public, anon, authenticated, service_role;

create or replace function private.month_held(p_user uuid) returns numeric
language sql stable security definer set search_path = '' as $$
  select coalesce(sum(t.amount), 0)
    from public.top_ups t
   where t.user_id = p_user and t.created_at >= private.month_start() and t.status = 'pending'
$$;
comment on function private.month_held(uuid) is 'Money in checkouts the player opened this calendar month that are not paid, failed or expired yet: held against the monthly limit, released if not paid.';
revoke all on function private.month_held(uuid) from public, anon, authenticated, service_role;
