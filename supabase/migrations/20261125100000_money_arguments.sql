-- Money arguments are pounds and pence, finite (issue "Hardening" 11). PostgreSQL's numeric has
-- NaN and ±Infinity, and NaN compares equal to itself and to round(NaN, 2): add_credits took a NaN
-- amount paid, which poisoned every sum of payments after it. A numeric(12, 2) column also rounds
-- 0.251 to 0.25 without a word, so a function must refuse a third decimal before it stores one.

-- True for a finite amount with at most two decimals. NaN sorts above Infinity, so one range test
-- refuses NaN, Infinity and -Infinity together.
create function private.is_pounds(value numeric) returns boolean
language sql immutable parallel safe set search_path = '' as $$
  select value > '-Infinity'::numeric and value < 'Infinity'::numeric and value = round(value, 2)
$$;
comment on function private.is_pounds(numeric) is 'True for a finite amount in pounds and pence (no NaN, no Infinity, at most two decimals).';

-- The last line of defence: whatever function writes the ledger, no NaN reaches it.
alter table public.credit_ledger
  add constraint credit_ledger_amounts_are_pounds
  check (private.is_pounds(amount) and (transaction_amount is null or private.is_pounds(transaction_amount)));

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
