-- Admin two-step verification (issue "Hardening" item 7): an admin's powers need a session that
-- passed a second factor. Supabase Auth (and the embedded auth server) put the session's
-- authenticator assurance level in the token: `aal` is 'aal1' after a password and 'aal2' after a
-- TOTP code was verified. PostgREST hands the token's claims to SQL, where auth.jwt() reads them.
--
-- is_admin() and is_super_admin() are now true only for the role AND an aal2 session. Every admin
-- power goes through them (the guards, has_permission, and the row-level policies "own row or
-- admin"), so an aal1 admin is, to the database, a player: they read only their own rows, drafts
-- stay hidden, and every admin_ function refuses them. The guards say why: an admin or super admin
-- whose session is aal1 gets 'Two-step verification required' (aal2_required), so the site can
-- send them to the code page; everyone else gets the same messages as before.
--
-- The other places that read user_account_data.role directly decide nothing about the caller:
-- "an admin cannot be rejected, unapproved or deleted" (admin_reject_user, admin_update_user,
-- admin_delete_user) protect the target account, admin_set_user_role validates the new role, the
-- dashboard counts players, and the mail segments pick players. Each of those runs after
-- require_admin/require_super_admin anyway, so none is redefined. The server's secret key
-- (private.is_service_role) is not a session and has no aal: it is unchanged.

-- ----------------------------------------------------------------------------
-- The session's assurance level
-- ----------------------------------------------------------------------------
create function private.session_is_aal2() returns boolean
language sql stable set search_path = '' as $$
  select coalesce(auth.jwt() ->> 'aal' = 'aal2', false)
$$;
comment on function private.session_is_aal2() is 'True when the caller''s token says the session passed two-step verification (aal = aal2).';

-- ----------------------------------------------------------------------------
-- Admin-ness needs aal2 (same signatures, language, security and grants as before)
-- ----------------------------------------------------------------------------
create or replace function public.is_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select a.role in ('admin', 'super_admin') from public.user_account_data a where a.id = auth.uid()),
    false)
    and private.session_is_aal2()
$$;
comment on function public.is_admin() is 'True when the caller''s role is admin or super_admin and their session is aal2 (two-step verified); an aal1 admin is treated as a player, row-level policies included.';

create or replace function public.is_super_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select a.role = 'super_admin' from public.user_account_data a where a.id = auth.uid()),
    false)
    and private.session_is_aal2()
$$;
comment on function public.is_super_admin() is 'True when the caller''s role is super_admin and their session is aal2 (two-step verified).';

comment on function public.has_permission(text) is 'Spec §6: read/write need admin; delete/manage_users need super admin (both with an aal2, two-step verified, session); anything else, or no profile, is denied.';

-- ----------------------------------------------------------------------------
-- The guards: the same refusals as before, plus aal2_required for an admin at aal1
-- ----------------------------------------------------------------------------
create or replace function private.require_admin() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
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
comment on function private.require_admin() is 'The caller''s id when admin with an aal2 session; an admin at aal1 gets ''Two-step verification required'' (aal2_required); anyone else the spec''s 403 message.';

create or replace function private.require_super_admin() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
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
comment on function private.require_super_admin() is 'The caller''s id when super admin with an aal2 session; a super admin at aal1 gets ''Two-step verification required'' (aal2_required); anyone else (a plain admin included) the spec''s 403 message.';

-- ----------------------------------------------------------------------------
-- Another user's balance: through require_admin, so an aal1 admin hears why
-- ----------------------------------------------------------------------------
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
