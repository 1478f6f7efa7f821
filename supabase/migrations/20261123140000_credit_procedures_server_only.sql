-- ============================================================================
-- The spec's credit procedures (§5: add_credits, deduct_credits) no longer let an
-- admin move credit: that goes through admin_adjust_credit, which needs a reason,
-- refuses the admin's own account, asks a super admin above the threshold and is
-- audited (issue 11). add_credits is now the server's alone (secret key: the
-- payment adapter's predecessor, the benches and the tests); deduct_credits spends
-- only the caller's own credit (or the server's call).
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

create or replace function public.add_credits(user_id uuid, amount numeric, transaction_amount numeric default null)
returns numeric
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
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
comment on function public.add_credits(uuid, numeric, numeric) is 'Server only (secret key): adds credit to a user (a top-up when transaction_amount is the money paid). Returns the new balance. Admins adjust credit with admin_adjust_credit.';
revoke execute on function public.add_credits(uuid, numeric, numeric) from authenticated;

create or replace function public.deduct_credits(user_id uuid, amount numeric) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data%rowtype;
begin
  if not private.is_service_role() and deduct_credits.user_id is distinct from private.require_user() then
    raise exception 'You can only spend your own credit' using errcode = '42501', hint = 'self_only';
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
comment on function public.deduct_credits(uuid, numeric) is 'Takes the caller''s own credit (or, for the server, anyone''s) if the balance covers it (true) or changes nothing (false). Never overdraws.';
