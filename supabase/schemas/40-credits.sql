-- ============================================================================
-- Credits: the append-only ledger, balances, the player's ledger pages and CSV.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Functions the tables use
-- ----------------------------------------------------------------------------

create or replace function private.forbid_ledger_change() returns trigger
language plpgsql set search_path = '' as $$
begin
  raise exception 'The credit ledger is append-only' using errcode = '42501', hint = 'ledger_append_only';
end;
$$;
comment on function private.forbid_ledger_change() is 'Trigger: refuses updates, deletes and truncation of the append-only ledger.';
revoke all on function private.forbid_ledger_change() from public, anon, authenticated, service_role;

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create type public.ledger_kind as enum ('top_up', 'bonus', 'entry', 'refund', 'top_up_reversal', 'admin_adjustment', 'spinner_prize', 'debit', 'instant_win');
comment on type public.ledger_kind is 'What moved credit: each row of the credit ledger has one.';
create table public.credit_ledger (
  id bigint generated always as identity,
  user_id uuid not null,
  kind public.ledger_kind not null,
  amount numeric(12,2) not null,
  balance_after numeric(12,2) not null,
  transaction_amount numeric(12,2),
  reason text,
  reference text,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  card_amount numeric(12,2) default 0 not null,
  constraint credit_ledger_pkey primary key (id),
  constraint credit_ledger_card_amount_check check (card_amount = 0 or (sign(card_amount) = sign(amount) and abs(card_amount) <= abs(amount))),
  constraint credit_ledger_amount_check check ((amount <> (0)::numeric)),
  constraint credit_ledger_amounts_are_pounds_check check ((private.is_pounds(amount) AND ((transaction_amount IS NULL) OR private.is_pounds(transaction_amount)))),
  constraint credit_ledger_balance_after_check check ((balance_after >= (0)::numeric)),
  constraint credit_ledger_created_by_fkey foreign key (created_by) references auth.users(id) on delete set null,
  constraint credit_ledger_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.credit_ledger enable row level security;
comment on table public.credit_ledger is 'Every movement of credit, append-only. A user''s balance equals the sum of their rows.';
comment on column public.credit_ledger.card_amount is 'The credit-card-funded part of this movement (same sign as amount), set by private.post_ledger.';
revoke all on table public.credit_ledger from public, anon, authenticated, service_role;
grant select on table public.credit_ledger to authenticated;
grant all on table public.credit_ledger to service_role;

create index credit_ledger_user_idx on public.credit_ledger (user_id, id DESC);
create index credit_ledger_created_by_idx on public.credit_ledger (created_by);
create index credit_ledger_top_up_created_idx on public.credit_ledger (created_at) where (kind = 'top_up'::public.ledger_kind);
create unique index credit_ledger_referral_once on public.credit_ledger (user_id, reference) where (reference ~~ 'referral:%'::text);
CREATE TRIGGER credit_ledger_no_truncate BEFORE TRUNCATE ON public.credit_ledger FOR EACH STATEMENT EXECUTE FUNCTION private.forbid_ledger_change();
CREATE TRIGGER credit_ledger_append_only BEFORE DELETE OR UPDATE ON public.credit_ledger FOR EACH ROW EXECUTE FUNCTION private.forbid_ledger_change();
create policy "ledger: own rows or admin" on public.credit_ledger
  as permissive for select to authenticated
  using (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

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

-- It already went through is_admin (so aal1 admins were refused); only the refusal changes, from
-- admin_required to the guard's aal2_required for an admin at aal1. Players, anon and the server
-- see exactly what they saw before.
create or replace function public.get_credit_balance(user_id uuid) returns numeric
language plpgsql stable security definer set search_path = '' as $$
declare
  balance numeric(12, 2);
begin
  if not private.is_service_role() then
    perform private.require_user();
    if get_credit_balance.user_id is distinct from auth.uid() then
      perform private.require_admin();
    end if;
  end if;
  select a.credits into balance from public.user_account_data a where a.id = get_credit_balance.user_id;
  return coalesce(balance, 0);
end;
$$;
comment on function public.get_credit_balance(uuid) is 'A user''s credit balance; the user themself, an admin (aal2 session) or the server may ask.';
revoke all on function public.get_credit_balance(uuid) from public, anon, authenticated, service_role;
grant execute on function public.get_credit_balance(uuid) to authenticated;
grant execute on function public.get_credit_balance(uuid) to service_role;

create or replace function public.add_credits(user_id uuid, amount numeric, transaction_amount numeric default null)
returns numeric
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  if add_credits.amount is null or add_credits.amount <= 0 then
    raise exception 'Amount must be more than zero' using errcode = '22023', hint = 'invalid_input';
  end if;
  if not private.is_pounds(add_credits.amount) then
    raise exception 'Amount must be a non-zero number of pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;
  if add_credits.amount > 100000 then
    raise exception 'Amount is over the limit of 100000 credits' using errcode = '22023', hint = 'invalid_input';
  end if;
  if add_credits.transaction_amount is not null
     and (not private.is_pounds(add_credits.transaction_amount) or add_credits.transaction_amount < 0) then
    raise exception 'The amount paid must be zero or more, in pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(add_credits.user_id);
  return private.post_ledger(
    add_credits.user_id,
    case when add_credits.transaction_amount is not null and add_credits.transaction_amount > 0 then 'top_up' else 'admin_adjustment' end,
    add_credits.amount,
    case when add_credits.transaction_amount is not null then 'Credit purchase' else 'Credit added' end,
    null,
    add_credits.transaction_amount);
end;
$$;
comment on function public.add_credits(uuid,numeric,numeric) is 'Server only (secret key): adds credit to a user (a top-up when transaction_amount is the money paid). Returns the new balance. Admins adjust credit with admin_adjust_credit.';
revoke all on function public.add_credits(uuid,numeric,numeric) from public, anon, authenticated, service_role;
grant execute on function public.add_credits(uuid,numeric,numeric) to service_role;

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

create or replace function public.get_my_ledger(p_limit integer default 50, p_before bigint default null)
returns table (id bigint, kind text, amount numeric, balance_after numeric, reason text, reference text, created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select l.id, l.kind, l.amount, l.balance_after, l.reason, l.reference, l.created_at
    from public.credit_ledger l
   where l.user_id = private.require_user()
     and (p_before is null or l.id < p_before)
   order by l.id desc
   limit least(greatest(coalesce(p_limit, 50), 1), 200)
$$;
comment on function public.get_my_ledger(integer,bigint) is 'The caller''s ledger, newest first, paged by id.';
revoke all on function public.get_my_ledger(integer,bigint) from public, anon, authenticated, service_role;
grant execute on function public.get_my_ledger(integer,bigint) to authenticated;
grant execute on function public.get_my_ledger(integer,bigint) to service_role;

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

create type public.ledger_totals as (count bigint, credits_in numeric, credits_out numeric, net numeric);
comment on type public.ledger_totals is 'Totals of a ledger filter: rows, credits in, credits out (a positive figure) and net = in - out.';

create type public.ledger_row as (id bigint, kind public.ledger_kind, amount numeric(12,2), balance_after numeric(12,2), reason text, reference text, created_at timestamp with time zone);
comment on type public.ledger_row is 'One row of the caller''s credit ledger, as their credits page shows it.';

create type public.ledger_page as (rows public.ledger_row[], next_before bigint, totals public.ledger_totals);
comment on type public.ledger_page is 'One page of the caller''s credit ledger, newest first (next_before is the id to pass for the next page, or null on the last), with the totals of the whole filter.';

create or replace function public.get_my_ledger_page(p_kind text default null, p_month date default null, p_before bigint default null, p_limit integer default 50) returns public.ledger_page
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  from_at timestamptz := private.month_start(p_month::timestamp at time zone 'Europe/London');
  -- The next month's start, found from inside it, so the clock change cannot shift it.
  to_at timestamptz := private.month_start(from_at + interval '32 days');
  page_rows public.ledger_row[];
  last_id bigint;
  more boolean;
begin
  perform private.ledger_filter_check(p_kind);
  select coalesce(array_agg(row(x.id, x.kind, x.amount, x.balance_after, x.reason, x.reference,
                                x.created_at)::public.ledger_row order by x.id desc), '{}'),
         min(x.id)
    into page_rows, last_id
    from (select l.* from public.credit_ledger l
           where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
             and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))
             and (p_before is null or l.id < p_before)
           order by l.id desc limit page_size) x;
  more := last_id is not null and exists (
    select 1 from public.credit_ledger l
     where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
       and (from_at is null or (l.created_at >= from_at and l.created_at < to_at)) and l.id < last_id);
  return row(
    page_rows,
    case when more then last_id end,
    (select row(count(*),
                coalesce(sum(l.amount) filter (where l.amount > 0), 0),
                coalesce(-sum(l.amount) filter (where l.amount < 0), 0),
                coalesce(sum(l.amount), 0))::public.ledger_totals
       from public.credit_ledger l
      where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
        and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))))::public.ledger_page;
end;
$$;
comment on function public.get_my_ledger_page(text,date,bigint,integer) is 'Signed-in users: one page of their ledger, newest first (keyset: pass next_before), optionally one kind and the calendar month (Europe/London) containing p_month; totals are for the whole filter (credits_out is a positive figure; net = credits_in - credits_out).';
revoke all on function public.get_my_ledger_page(text,date,bigint,integer) from public, anon, authenticated, service_role;
grant execute on function public.get_my_ledger_page(text,date,bigint,integer) to authenticated;
grant execute on function public.get_my_ledger_page(text,date,bigint,integer) to service_role;

create or replace function public.get_my_ledger_csv(p_kind text default null, p_month date default null) returns text
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
                  where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
                    and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))), '')
    || 'total,,' || to_char(coalesce((select sum(l.amount) from public.credit_ledger l
                                       where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
                                         and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))), 0),
                            'FM999999999990.00') || E',,,\n';
end;
$$;
comment on function public.get_my_ledger_csv(text,date) is 'Signed-in users: their ledger (same filters as get_my_ledger_page) as CSV, oldest first: date (ISO UTC), kind, amount, balance_after, reference, reason; then total,,<net>,,, so rows and total match the ledger exactly.';
revoke all on function public.get_my_ledger_csv(text,date) from public, anon, authenticated, service_role;
grant execute on function public.get_my_ledger_csv(text,date) to authenticated;
grant execute on function public.get_my_ledger_csv(text,date) to service_role;
