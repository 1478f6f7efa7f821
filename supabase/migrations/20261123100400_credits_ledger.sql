-- ============================================================================
-- Credits ledger (spec §7): every movement of credit is an append-only row, and
-- the only functions that move money write one. user_account_data.credits is the
-- running balance, kept equal to the sum of a user's rows.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Table (append-only)
-- ----------------------------------------------------------------------------
create table public.credit_ledger (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in ('top_up', 'bonus', 'entry', 'refund', 'admin_adjustment', 'spinner_prize', 'debit')),
  amount numeric(12, 2) not null check (amount <> 0),
  balance_after numeric(12, 2) not null check (balance_after >= 0),
  transaction_amount numeric(12, 2),
  reason text,
  reference text,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
alter table public.credit_ledger enable row level security;
create index credit_ledger_user_idx on public.credit_ledger (user_id, id desc);
create index credit_ledger_created_by_idx on public.credit_ledger (created_by);
comment on table public.credit_ledger is 'Every movement of credit, append-only. A user''s balance equals the sum of their rows.';

-- A user reads their own rows and admins read all; rows are written only by private.post_ledger.
revoke all on table public.credit_ledger from anon, authenticated;
revoke all on sequence public.credit_ledger_id_seq from anon, authenticated;
grant select on table public.credit_ledger to authenticated;
grant all on table public.credit_ledger to service_role;

create policy "ledger: own rows or admin" on public.credit_ledger
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));

create function private.forbid_ledger_change() returns trigger
language plpgsql set search_path = '' as $$
begin
  raise exception 'The credit ledger is append-only' using errcode = '42501', hint = 'ledger_append_only';
end;
$$;
comment on function private.forbid_ledger_change() is 'Trigger: refuses updates, deletes and truncation of the append-only ledger.';

create trigger credit_ledger_append_only
  before update or delete on public.credit_ledger
  for each row execute function private.forbid_ledger_change();

-- Row triggers do not fire on TRUNCATE, which service_role's grant includes.
create trigger credit_ledger_no_truncate
  before truncate on public.credit_ledger
  for each statement execute function private.forbid_ledger_change();

-- ----------------------------------------------------------------------------
-- Posting
-- ----------------------------------------------------------------------------
create function private.post_ledger(
  p_user uuid, p_kind text, p_amount numeric, p_reason text, p_reference text,
  p_transaction_amount numeric default null
) returns numeric
language plpgsql security definer set search_path = '' as $$
declare
  new_balance numeric(12, 2);
begin
  if p_amount is null or p_amount = 0 or p_amount <> round(p_amount, 2) then
    raise exception 'Amount must be a non-zero number of pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.user_account_data
     set credits = credits + p_amount, updated_at = now()
   where id = p_user
  returning credits into new_balance;
  if not found then
    raise exception 'No such user' using errcode = 'P0002', hint = 'user_not_found';
  end if;
  insert into public.credit_ledger (user_id, kind, amount, balance_after, reason, reference, transaction_amount, created_by)
  values (p_user, p_kind, p_amount, new_balance, p_reason, p_reference, p_transaction_amount, auth.uid());
  return new_balance;
end;
$$;
comment on function private.post_ledger(uuid, text, numeric, text, text, numeric) is 'Moves credit and appends the ledger row in one statement pair; the balance check constraint refuses overdrafts.';

-- ----------------------------------------------------------------------------
-- Balance, top-ups and deductions
-- ----------------------------------------------------------------------------
create function public.get_credit_balance(user_id uuid) returns numeric
language plpgsql stable security definer set search_path = '' as $$
declare
  balance numeric(12, 2);
begin
  if not private.is_service_role() then
    perform private.require_user();
    if get_credit_balance.user_id is distinct from auth.uid() and not public.is_admin() then
      raise exception 'Access denied: Admin privileges required' using errcode = '42501', hint = 'admin_required';
    end if;
  end if;
  select a.credits into balance from public.user_account_data a where a.id = get_credit_balance.user_id;
  return coalesce(balance, 0);
end;
$$;
comment on function public.get_credit_balance(uuid) is 'A user''s credit balance; the user themself, an admin or the server may ask.';
grant execute on function public.get_credit_balance(uuid) to authenticated, service_role;

create function public.add_credits(user_id uuid, amount numeric, transaction_amount numeric default null)
returns numeric
language plpgsql security definer set search_path = '' as $$
begin
  if not private.is_service_role() then
    perform private.require_admin();
  end if;
  if add_credits.amount is null or add_credits.amount <= 0 then
    raise exception 'Amount must be more than zero' using errcode = '22023', hint = 'invalid_input';
  end if;
  if add_credits.amount > 100000 then
    raise exception 'Amount is over the limit of 100000 credits' using errcode = '22023', hint = 'invalid_input';
  end if;
  if add_credits.transaction_amount < 0 or add_credits.transaction_amount <> round(add_credits.transaction_amount, 2) then
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
comment on function public.add_credits(uuid, numeric, numeric) is 'Adds credit to a user (a top-up when transaction_amount is the money paid). Server (secret key) and admins only. Returns the new balance.';
grant execute on function public.add_credits(uuid, numeric, numeric) to authenticated, service_role;

create function public.deduct_credits(user_id uuid, amount numeric) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data%rowtype;
begin
  if not private.is_service_role() then
    perform private.require_user();
    if deduct_credits.user_id is distinct from auth.uid() and not public.is_admin() then
      raise exception 'Access denied: Admin privileges required' using errcode = '42501', hint = 'admin_required';
    end if;
  end if;
  if deduct_credits.amount is null or deduct_credits.amount <= 0 or deduct_credits.amount <> round(deduct_credits.amount, 2) then
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
comment on function public.deduct_credits(uuid, numeric) is 'Takes credit from a user if the balance covers it (true) or changes nothing (false). Never overdraws.';
grant execute on function public.deduct_credits(uuid, numeric) to authenticated, service_role;

create function public.get_my_ledger(p_limit integer default 50, p_before bigint default null)
returns table (id bigint, kind text, amount numeric, balance_after numeric, reason text, reference text, created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select l.id, l.kind, l.amount, l.balance_after, l.reason, l.reference, l.created_at
    from public.credit_ledger l
   where l.user_id = private.require_user()
     and (p_before is null or l.id < p_before)
   order by l.id desc
   limit least(greatest(coalesce(p_limit, 50), 1), 200)
$$;
comment on function public.get_my_ledger(integer, bigint) is 'The caller''s ledger, newest first, paged by id.';
grant execute on function public.get_my_ledger(integer, bigint) to authenticated;
