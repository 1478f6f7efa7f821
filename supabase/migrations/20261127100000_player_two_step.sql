-- Player two-step verification is a second step for every state-changing call (issue 21, item 3).
--
-- Until now SQL checked the session's assurance level for admins only (is_admin, require_admin,
-- 20261126100000_admin_two_step.sql). A player who had turned two-step on could still be driven, with
-- the stolen password alone, by the aal1 session that password gives: entries with their credit, a
-- new name, a higher limit, a self-exclusion, a closed account. Every player function that changes
-- anything begins with private.require_user(), so the guard itself now refuses: a caller with a
-- verified second factor (a 'verified' row in auth.mfa_factors, as GoTrue keeps them on hosted
-- Supabase and the embedded auth server keeps them in supabase/embedded/shim.sql) whose token is not
-- aal2 hears 'Two-step verification required' (42501, aal2_required), the admin guard's words. This is
-- Supabase's own documented rule for "enforce MFA for users who have it enabled", applied in the one
-- guard instead of in row policies (the API never reads tables: every call is a function).
-- A user without a verified factor is unchanged at aal1; the secret key (no user) is unchanged.
--
-- The few reads the code step and the account shell need before the code is given use the lenient
-- guard private.require_user_first_step() (the old body): get_my_account (which now also says
-- whether a second step is owed: `two_step_owed`, read by the proxy, the session and every action),
-- get_my_protections (the header's restriction line) and get_entry_quote (a competition's entry card,
-- so the entry form can show the refusal with a link to the code step). So do require_admin and
-- require_super_admin, so that a player is still told they are not an admin, not asked for a code
-- that would not help; an admin at aal1 hears aal2_required from them as before. Every other
-- function keeps calling require_user() and so becomes strict, the other personal reads included
-- (ledger, entries, complaints, spins, top-ups): none of them is needed to give the code.

-- ----------------------------------------------------------------------------
-- Is a second step owed by this session?
-- ----------------------------------------------------------------------------
create function private.two_step_owed() returns boolean
language sql stable set search_path = '' as $$
  select not private.session_is_aal2()
     and exists (select 1 from auth.mfa_factors f where f.user_id = auth.uid() and f.status = 'verified')
$$;
comment on function private.two_step_owed() is 'True when the caller has a verified second factor and their session has not given it (aal is not aal2). Runs with its caller''s rights (the guards are security definer).';

-- ----------------------------------------------------------------------------
-- The guards
-- ----------------------------------------------------------------------------
create function private.require_user_first_step() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := auth.uid();
begin
  if uid is null then
    raise exception 'User not authenticated' using errcode = '42501', hint = 'not_authenticated';
  end if;
  return uid;
end;
$$;
comment on function private.require_user_first_step() is 'The caller''s id, or ''User not authenticated'', even before a verified second factor has been given (aal1): only for the reads the code step and the account shell need, and the admin guards.';

create or replace function private.require_user() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
begin
  if private.two_step_owed() then
    raise exception 'Two-step verification required' using errcode = '42501', hint = 'aal2_required';
  end if;
  return uid;
end;
$$;
comment on function private.require_user() is 'The caller''s id; ''User not authenticated'' without one, and ''Two-step verification required'' (aal2_required) when they have a verified second factor and the session has not given it.';

create or replace function private.require_admin() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
begin
  if not public.is_admin() then
    -- The role is read again only to say why: an admin who has not done two-step yet.
    if exists (select 1 from public.user_account_data a where a.id = uid and a.role in ('admin', 'super_admin')) then
      raise exception 'Two-step verification required' using errcode = '42501', hint = 'aal2_required';
    end if;
    raise exception 'Access denied: Admin privileges required' using errcode = '42501', hint = 'admin_required';
  end if;
  return uid;
end;
$$;

create or replace function private.require_super_admin() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
begin
  if not public.is_super_admin() then
    -- Only a super admin is told to verify: a plain admin is refused whatever their session.
    if exists (select 1 from public.user_account_data a where a.id = uid and a.role = 'super_admin') then
      raise exception 'Two-step verification required' using errcode = '42501', hint = 'aal2_required';
    end if;
    raise exception 'Access denied: Super admin privileges required' using errcode = '42501', hint = 'super_admin_required';
  end if;
  return uid;
end;
$$;

-- ----------------------------------------------------------------------------
-- The reads that work before the second step (bodies as before but for the guard)
-- ----------------------------------------------------------------------------
create or replace function public.get_my_account() returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  result jsonb := private.account_json(uid);
begin
  if result is null then
    -- Spec §4: a missing profile row is created and read again.
    perform private.create_account_rows(uid);
    result := private.account_json(uid);
  end if;
  return result || jsonb_build_object('two_step_owed', private.two_step_owed());
end;
$$;
comment on function public.get_my_account() is 'The caller''s profile merged with account data, and two_step_owed (a verified second factor the session has not given: everything else refuses until it is); creates the rows if missing. Works at aal1.';

create or replace function public.get_my_protections() returns jsonb
language plpgsql security definer set search_path = '' as $$
begin
  return private.protections_json(private.require_user_first_step());
end;
$$;

create or replace function public.get_entry_quote(p_competition_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  held integer;
  cap_left integer;
  tickets_left integer;
  balance numeric(12, 2);
  quoted integer;
begin
  select * into c from public.competitions where id = p_competition_id;
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  select * into acct from public.user_account_data a where a.id = uid;
  balance := coalesce(acct.credits, 0);
  select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  cap_left := greatest(c.max_tickets_per_user - held, 0);
  tickets_left := greatest(c.total_tickets - c.tickets_sold, 0);
  -- Prices for every quantity the selector can offer, capped so the answer stays small.
  quoted := least(cap_left, tickets_left, 1000);
  return jsonb_build_object(
    'balance', balance,
    'approved', coalesce(acct.approved, false),
    'rejected', acct.rejected_at is not null and not coalesce(acct.approved, false),
    'held', held,
    'cap_left', cap_left,
    'tickets_left', tickets_left,
    'costs', coalesce((select jsonb_agg(c.ticket_price * q order by q) from generate_series(1, quoted) q), '[]'::jsonb),
    'shortfalls', coalesce((select jsonb_agg(greatest(c.ticket_price * q - balance, 0) order by q)
                              from generate_series(1, quoted) q), '[]'::jsonb));
end;
$$;

