-- ============================================================================
-- An admin's authenticator needs their inbox too (issue 21, item 4)
-- ============================================================================
-- Until now whoever held an admin's password first could set up "their" authenticator app: an admin
-- without a factor (new, a demo admin, or just reset by a super admin) enrols with the password alone,
-- and the factor's code then opens the console. Now a factor counts for the console only once it is
-- proven: enrolled in a session that first gave a code e-mailed to the account's own address.
--
-- The code is GoTrue's reauthentication nonce (GET /auth/v1/reauthenticate, on hosted Supabase and in
-- the embedded auth server alike): GoTrue keeps sha224(address || code) in
-- auth.users.reauthentication_token, and confirm_reauthentication compares with it here, so the check
-- needs nothing from the auth server but what it already stores. A nonce is good for an hour, once, and
-- for five wrong tries (ten a day across nonces, so asking for new ones does not buy more guesses); a
-- confirmation for fifteen minutes, in the session that made it, spent by the enrolment it proves,
-- which proves only the factor that same session verified. So someone holding the password, signed in
-- beside the real admin, gains nothing from the admin's confirmation.
--
-- is_admin() and is_super_admin() (so require_admin, require_super_admin, has_permission and every row
-- policy) also need every verified factor of the caller to be proven. Factors verified before this
-- migration were enrolled by their owners and count as proven.

-- ----------------------------------------------------------------------------
-- Tables
-- ----------------------------------------------------------------------------
create table private.reauthentications (
  user_id uuid not null references auth.users (id) on delete cascade,
  -- Which nonce: GoTrue's reauthentication_sent_at (a new nonce, a new row).
  nonce_sent_at timestamptz not null,
  wrong_tries smallint not null default 0,
  confirmed_at timestamptz,
  -- The session that confirmed it (the token's session_id): only that session may spend it.
  session_id uuid,
  spent_at timestamptz,
  primary key (user_id, nonce_sent_at)
);
alter table private.reauthentications enable row level security;
comment on table private.reauthentications is 'Codes e-mailed by the auth server''s reauthentication (one row per nonce): wrong tries, when and in which session it was confirmed, and when an enrolment spent the confirmation. Written only by confirm_reauthentication and record_factor_enrolment.';

create table private.proven_factors (
  factor_id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  proven_at timestamptz not null default now()
);
create index proven_factors_user_id_idx on private.proven_factors (user_id);
alter table private.proven_factors enable row level security;
comment on table private.proven_factors is 'Second factors enrolled after their owner confirmed a code from their inbox (or verified before that was asked). Keyed by the auth server''s factor id; a removed factor''s row proves nothing, since a new factor has a new id.';

insert into private.proven_factors (factor_id, user_id)
select f.id, f.user_id from auth.mfa_factors f where f.status = 'verified';

-- ----------------------------------------------------------------------------
-- Proof
-- ----------------------------------------------------------------------------
create function private.factors_proven() returns boolean
language sql stable security definer set search_path = '' as $$
  select not exists (
    select 1 from auth.mfa_factors f
     where f.user_id = auth.uid() and f.status = 'verified'
       and not exists (select 1 from private.proven_factors p where p.factor_id = f.id))
$$;
comment on function private.factors_proven() is 'True unless the caller has a verified second factor that was never proven with a code from their inbox.';

create function private.caller_session() returns uuid
language sql stable set search_path = '' as $$
  select nullif(auth.jwt() ->> 'session_id', '')::uuid
$$;
comment on function private.caller_session() is 'The session the caller''s token belongs to (its session_id claim), or null.';

create function private.fresh_reauthentication(p_user_id uuid) returns timestamptz
language sql stable security definer set search_path = '' as $$
  select r.nonce_sent_at from private.reauthentications r
   where r.user_id = p_user_id and r.spent_at is null and r.confirmed_at > now() - interval '15 minutes'
     and r.session_id = private.caller_session()
   order by r.confirmed_at desc limit 1
$$;
comment on function private.fresh_reauthentication(uuid) is 'The nonce of the user''s confirmation, made in the caller''s own session in the last fifteen minutes, that no enrolment has spent; or null.';

create function public.confirm_reauthentication(p_code text) returns boolean
language plpgsql volatile security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  who record;
  attempt private.reauthentications;
begin
  if p_code is null or p_code !~ '^[0-9]{6}$' then
    raise exception 'Enter the 6-digit code from the e-mail' using errcode = '22023', hint = 'invalid_input';
  end if;
  select u.email, u.reauthentication_token, u.reauthentication_sent_at into who from auth.users u where u.id = uid;
  if who.reauthentication_sent_at is null or coalesce(who.reauthentication_token, '') = ''
     or who.reauthentication_sent_at < now() - interval '1 hour' then
    return false;
  end if;
  insert into private.reauthentications (user_id, nonce_sent_at) values (uid, who.reauthentication_sent_at)
  on conflict (user_id, nonce_sent_at) do nothing;
  select * into attempt from private.reauthentications
   where user_id = uid and nonce_sent_at = who.reauthentication_sent_at for update;
  if attempt.confirmed_at is not null or attempt.wrong_tries >= 5 or private.caller_session() is null
     or (select sum(r.wrong_tries) from private.reauthentications r
          where r.user_id = uid and r.nonce_sent_at > now() - interval '1 day') >= 10 then
    return false;
  end if;
  if who.reauthentication_token <> encode(sha224(convert_to(lower(who.email) || p_code, 'UTF8')), 'hex') then
    update private.reauthentications set wrong_tries = wrong_tries + 1
     where user_id = uid and nonce_sent_at = who.reauthentication_sent_at;
    return false;
  end if;
  update private.reauthentications set confirmed_at = now(), session_id = private.caller_session()
   where user_id = uid and nonce_sent_at = who.reauthentication_sent_at;
  return true;
end;
$$;
comment on function public.confirm_reauthentication(text) is 'The caller confirms, for their own session, the code the auth server e-mailed them (GET /auth/v1/reauthenticate): true when it is theirs, under an hour old, not used before, within five tries of it and ten a day; false otherwise (a wrong try is counted). Works before the second step, which it may be setting up.';
revoke all on function public.confirm_reauthentication(text) from public, anon;
grant execute on function public.confirm_reauthentication(text) to authenticated;

create function public.record_factor_enrolment() returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  nonce timestamptz;
begin
  if not private.session_is_aal2() then
    raise exception 'Two-step verification required' using errcode = '42501', hint = 'aal2_required';
  end if;
  nonce := private.fresh_reauthentication(uid);
  if nonce is null then
    raise exception 'Confirm it is you with the code we e-mail you first' using errcode = '42501', hint = 'reauthentication_needed';
  end if;
  -- Only the factor this session verified (the auth server records it on the session it raised).
  insert into private.proven_factors (factor_id, user_id)
  select f.id, f.user_id from auth.mfa_factors f
    join auth.sessions s on s.factor_id = f.id and s.id = private.caller_session()
   where f.user_id = uid and f.status = 'verified'
  on conflict (factor_id) do nothing;
  update private.reauthentications set spent_at = now() where user_id = uid and nonce_sent_at = nonce;
  perform private.log_activity('user.two_step_enrolled', uid);
end;
$$;
comment on function public.record_factor_enrolment() is 'After setting up an authenticator (a session at aal2), proves the factor this session verified with the confirmation this session made in the last fifteen minutes, which it spends, and audits user.two_step_enrolled. Without one: reauthentication_needed.';
revoke all on function public.record_factor_enrolment() from public, anon;
grant execute on function public.record_factor_enrolment() to authenticated;

create function public.get_my_factor_proof() returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'factors_proven', private.factors_proven(),
    'inbox_confirmed', private.fresh_reauthentication(private.require_user_first_step()) is not null)
$$;
comment on function public.get_my_factor_proof() is 'For the two-step page: whether every verified factor of the caller is proven, and whether they confirmed a code from their inbox in the last fifteen minutes (not yet spent).';
revoke all on function public.get_my_factor_proof() from public, anon;
grant execute on function public.get_my_factor_proof() to authenticated;

-- ----------------------------------------------------------------------------
-- Admin-ness needs proven factors (same signatures, language, security and grants as before)
-- ----------------------------------------------------------------------------
create or replace function public.is_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select a.role in ('admin', 'super_admin') from public.user_account_data a where a.id = auth.uid()),
    false)
    and private.session_is_aal2()
    and private.factors_proven()
$$;
comment on function public.is_admin() is 'True when the caller''s role is admin or super_admin, their session is aal2 (two-step verified) and their authenticator was proven with a code from their inbox; otherwise they are treated as a player, row-level policies included.';

create or replace function public.is_super_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select a.role = 'super_admin' from public.user_account_data a where a.id = auth.uid()),
    false)
    and private.session_is_aal2()
    and private.factors_proven()
$$;
comment on function public.is_super_admin() is 'True when the caller''s role is super_admin, their session is aal2 (two-step verified) and their authenticator was proven with a code from their inbox.';
