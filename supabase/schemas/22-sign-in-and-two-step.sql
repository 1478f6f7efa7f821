-- ============================================================================
-- Sign-in and two-step: reauthentication, proven factors, e-mailed codes and their allowances, wrong
-- authenticator codes (the auth server's MFA verification attempt hook), admins' recovery codes.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
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
revoke all on table private.reauthentications from public, anon, authenticated, service_role;

create table private.proven_factors (
  factor_id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  proven_at timestamptz not null default now()
);
alter table private.proven_factors enable row level security;
comment on table private.proven_factors is 'Second factors enrolled after their owner confirmed a code from their inbox (or verified before that was asked). Keyed by the auth server''s factor id; a removed factor''s row proves nothing, since a new factor has a new id.';
revoke all on table private.proven_factors from public, anon, authenticated, service_role;

create index proven_factors_user_id_idx on private.proven_factors (user_id);

create table private.two_step_wrong_codes (
  id bigint generated always as identity primary key,
  factor_id uuid not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The client address the auth server saw (the site forwards each visitor's own).
  visitor text not null,
  typed_at timestamptz not null default now()
);
alter table private.two_step_wrong_codes enable row level security;
comment on table private.two_step_wrong_codes is 'Wrong authenticator codes of the last day, one row per code: which factor, whose, from which visitor, when. Written and read only by the auth server''s MFA verification hook (hook_mfa_verification_attempt); older rows are pruned as new ones arrive.';
revoke all on table private.two_step_wrong_codes from public, anon, authenticated, service_role;

create index two_step_wrong_codes_factor_idx on private.two_step_wrong_codes (factor_id, typed_at);
create index two_step_wrong_codes_visitor_idx on private.two_step_wrong_codes (factor_id, visitor, typed_at);

create table private.email_code_requests (
  -- The address a sign-in link, reset or inbox code was asked for, in lower case: known to the auth server or not.
  email text not null,
  asked_at timestamptz not null default now()
);

create index email_code_requests_email_asked_at_idx on private.email_code_requests (email, asked_at);
create index email_code_requests_asked_at_idx on private.email_code_requests (asked_at);
alter table private.email_code_requests enable row level security;
comment on table private.email_code_requests is 'E-mailed codes asked for through the site''s forms, by address (at most a few an hour each): written only by ask_for_email_code, rows over an hour old deleted by it.';
revoke all on table private.email_code_requests from public, anon, authenticated, service_role;

create table private.email_code_tries (
  email text primary key,
  -- When the code now outstanding was asked for through the site (or, for a code asked elsewhere, the first try at it).
  code_asked_at timestamptz not null default now(),
  tries smallint not null default 0
);

create index email_code_tries_code_asked_at_idx on private.email_code_tries (code_asked_at);
alter table private.email_code_tries enable row level security;
comment on table private.email_code_tries is 'Codes typed into the site''s forms for the code outstanding for an address, counted before the auth server checks them (a right one clears the row): after five the code is void until a new one is asked for. Written only by ask_for_email_code, email_code_sent, take_email_code_try and clear_email_code_tries.';
revoke all on table private.email_code_tries from public, anon, authenticated, service_role;

create table private.email_requests (
  -- The visitor's key as the site's server forwards it to the auth server (their address).
  visitor text not null,
  -- Mail to accounts (sign-in links, resets) or to new addresses (sign-ups): each kind has its own thresholds.
  kind text not null constraint email_requests_kind_check check (kind in ('account', 'signup')),
  asked_at timestamptz not null default now()
);

create index email_requests_kind_asked_at_idx on private.email_requests (kind, asked_at);
create index email_requests_visitor_kind_asked_at_idx on private.email_requests (visitor, kind, asked_at);
alter table private.email_requests enable row level security;
comment on table private.email_requests is 'The site''s e-mail forms'' requests in the last hour, by visitor and kind, counted before any address is looked up: past a few per visitor, or many for the whole site, a request needs a CAPTCHA. Written only by take_email_request, rows over an hour old deleted by it.';
revoke all on table private.email_requests from public, anon, authenticated, service_role;

-- Recovery codes: an admin's own way back after losing every authenticator.
-- Ten one-time codes, made here and shown once at enrolment; only a salted SHA-256 of each is kept. A code is
-- accepted only in a session that began with the password (the auth server's own record of how it began,
-- auth.mfa_amr_claims), so a link or code from the inbox plus a recovery code opens nothing. Hosted GoTrue cannot
-- raise a session to aal2 from outside, so a code never stands in for the second factor in the guards: it opens,
-- for fifteen minutes and that session only, the removal of the user's own lost factors, which the server then
-- does through the auth admin API; the admin sets up a new authenticator the usual way (inbox code, then aal2),
-- and makes a fresh set of codes.
create table private.recovery_codes (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  salt bytea not null,
  code_hash bytea not null,
  created_at timestamptz not null default now(),
  used_at timestamptz,
  used_in_session uuid,
  constraint recovery_codes_salt_check check (octet_length(salt) = 16),
  constraint recovery_codes_code_hash_check check (octet_length(code_hash) = 32),
  constraint recovery_codes_use_names_session_check check ((used_at is null) = (used_in_session is null))
);
alter table private.recovery_codes enable row level security;
comment on table private.recovery_codes is 'One-time recovery codes of admins: sha256(salt || code) only, never the code; used_at and the session that used it once spent. Written only by create_recovery_codes and use_recovery_code.';
revoke all on table private.recovery_codes from public, anon, authenticated, service_role;
create index recovery_codes_user_id_idx on private.recovery_codes (user_id);

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function public.admin_record_two_step_reset(p_user_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := private.require_super_admin();
  voided integer;
begin
  if p_user_id = me then
    raise exception 'You cannot reset your own two-step verification. Ask another super admin.'
      using errcode = 'P0001', hint = 'invalid_input';
  end if;
  if not exists (select 1 from public.user_account_data a where a.id = p_user_id) then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  -- Unused recovery codes belong to the authenticators being removed: whoever holds them (the admin, or whoever
  -- took their phone and password) must not be able to use one after the reset. The new authenticator comes with
  -- a fresh set.
  delete from private.recovery_codes r where r.user_id = p_user_id and r.used_at is null;
  get diagnostics voided = row_count;
  perform private.log_activity('user.two_step_reset', p_user_id, jsonb_build_object('recovery_codes_voided', voided));
end;
$$;
comment on function public.admin_record_two_step_reset(uuid) is 'Super admins at aal2: allows and audits (user.two_step_reset, with the number of recovery codes voided) removing another user''s second factors, which the server then does through the auth admin API, and voids that user''s unused recovery codes.';
revoke all on function public.admin_record_two_step_reset(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_record_two_step_reset(uuid) to authenticated;
grant execute on function public.admin_record_two_step_reset(uuid) to service_role;

create or replace function private.two_step_owed() returns boolean
language sql stable set search_path = '' as $$
  select not private.session_is_aal2()
     and exists (select 1 from auth.mfa_factors f where f.user_id = auth.uid() and f.status = 'verified')
$$;
comment on function private.two_step_owed() is 'True when the caller has a verified second factor and their session has not given it (aal is not aal2). Runs with its caller''s rights (the guards are security definer).';
revoke all on function private.two_step_owed() from public, anon, authenticated, service_role;

create or replace function private.factors_proven() returns boolean
language sql stable security definer set search_path = '' as $$
  select not exists (
    select 1 from auth.mfa_factors f
     where f.user_id = auth.uid() and f.status = 'verified'
       and not exists (select 1 from private.proven_factors p where p.factor_id = f.id))
$$;
comment on function private.factors_proven() is 'True unless the caller has a verified second factor that was never proven with a code from their inbox.';
revoke all on function private.factors_proven() from public, anon, authenticated, service_role;

create or replace function private.caller_session() returns uuid
language sql stable set search_path = '' as $$
  select nullif(auth.jwt() ->> 'session_id', '')::uuid
$$;
comment on function private.caller_session() is 'The session the caller''s token belongs to (its session_id claim), or null.';
revoke all on function private.caller_session() from public, anon, authenticated, service_role;

create or replace function private.fresh_reauthentication(p_user_id uuid) returns timestamptz
language sql stable security definer set search_path = '' as $$
  select r.nonce_sent_at from private.reauthentications r
   where r.user_id = p_user_id and r.spent_at is null and r.confirmed_at > now() - interval '15 minutes'
     and r.session_id = private.caller_session()
   order by r.confirmed_at desc limit 1
$$;
comment on function private.fresh_reauthentication(uuid) is 'The nonce of the user''s confirmation, made in the caller''s own session in the last fifteen minutes, that no enrolment has spent; or null.';
revoke all on function private.fresh_reauthentication(uuid) from public, anon, authenticated, service_role;

create or replace function public.confirm_reauthentication(p_code text) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  who record;
  attempt private.reauthentications;
begin
  if p_code is null or p_code !~ '^[0-9]{6,10}$' then
    raise exception 'Enter the code from the e-mail, its digits only' using errcode = '22023', hint = 'invalid_input';
  end if;
  select u.email, u.reauthentication_token, u.reauthentication_sent_at into who from auth.users u where u.id = uid;
  if who.reauthentication_sent_at is null or coalesce(who.reauthentication_token, '') = ''
     or who.reauthentication_sent_at < now() - private.email_code_life() then
    return false;
  end if;
  insert into private.reauthentications (user_id, nonce_sent_at) values (uid, who.reauthentication_sent_at)
  on conflict (user_id, nonce_sent_at) do nothing;
  select * into attempt from private.reauthentications
   where user_id = uid and nonce_sent_at = who.reauthentication_sent_at for update;
  if attempt.wrong_tries >= 5 and attempt.confirmed_at is null then
    raise exception 'Too many wrong codes: that code no longer works. Ask for a new code.'
      using errcode = 'P0001', hint = 'email_code_void';
  end if;
  if attempt.confirmed_at is not null or private.caller_session() is null
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
comment on function public.confirm_reauthentication(text) is 'The caller confirms, for their own session, the code the auth server e-mailed them (GET /auth/v1/reauthenticate): true when it is theirs, within the code''s life (email_code_life), not used before and within ten wrong tries a day; false otherwise (a wrong try is counted). After five wrong tries the code is void (email_code_void) until a new one is sent. Works before the second step, which it may be setting up.';
revoke all on function public.confirm_reauthentication(text) from public, anon, authenticated, service_role;
grant execute on function public.confirm_reauthentication(text) to authenticated;
grant execute on function public.confirm_reauthentication(text) to service_role;

create or replace function private.email_code_life() returns interval
language sql immutable set search_path = '' as $$
  select interval '10 minutes'
$$;
comment on function private.email_code_life() is 'How long an e-mailed code works: supabase/config.toml''s [auth.email] otp_expiry (a test holds them equal).';
revoke all on function private.email_code_life() from public, anon, authenticated, service_role;

create or replace function private.email_code_address(p_email text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  address text := lower(btrim(p_email));
begin
  if address is null or length(address) > 320 or address !~ '^[^@[:space:]]+@[^@[:space:]]+$' then
    raise exception 'Enter a valid e-mail address' using errcode = '22023', hint = 'invalid_input';
  end if;
  return address;
end;
$$;
comment on function private.email_code_address(text) is 'An address as the e-mailed code counts key it: trimmed and in lower case, as the auth server matches it.';
revoke all on function private.email_code_address(text) from public, anon, authenticated, service_role;

create or replace function public.ask_for_email_code(p_email text) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  address text;
  recent integer;
  oldest timestamptz;
begin
  perform private.require_server();
  address := private.email_code_address(p_email);
  delete from private.email_code_requests r where r.asked_at <= now() - interval '1 hour';
  -- One address at a time: two asks at once must not both take the last place.
  insert into private.email_code_tries (email) values (address) on conflict (email) do nothing;
  perform 1 from private.email_code_tries t where t.email = address for update;
  select count(*), min(r.asked_at) into recent, oldest from private.email_code_requests r where r.email = address;
  if recent >= 5 then
    return greatest(1, ceil(extract(epoch from oldest + interval '1 hour' - now())))::integer;
  end if;
  insert into private.email_code_requests (email) values (address);
  -- The count of tries is not reset here: the auth server may still refuse to send (its spacing, its allowance),
  -- and the code outstanding must keep what it has spent. email_code_sent resets it once a code has gone.
  return 0;
end;
$$;
comment on function public.ask_for_email_code(text) is 'Server only (secret key), before the site asks the auth server to e-mail a code (a sign-in link, a reset, an inbox code): 0 when one may go, counted; else the seconds until one may (five an hour per address). Counted by the address typed, before anything looks it up, so the answer is the same whether or not an account uses it. The tries of the code outstanding are untouched until email_code_sent.';
revoke all on function public.ask_for_email_code(text) from public, anon, authenticated, service_role;
grant execute on function public.ask_for_email_code(text) to service_role;

create or replace function public.email_code_sent(p_email text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  address text;
begin
  perform private.require_server();
  address := private.email_code_address(p_email);
  insert into private.email_code_tries (email, code_asked_at, tries) values (address, now(), 0)
  on conflict (email) do update set code_asked_at = excluded.code_asked_at, tries = 0;
end;
$$;
comment on function public.email_code_sent(text) is 'Server only (secret key), after the auth server accepted a request to e-mail a code to an address (it answered without error, or as it answers an address without an account, which the site answers the same way): the new code starts with five tries. Never before: a refused send leaves the code outstanding with the tries it has left.';
revoke all on function public.email_code_sent(text) from public, anon, authenticated, service_role;
grant execute on function public.email_code_sent(text) to service_role;

create or replace function public.take_email_code_try(p_email text) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  address text;
  attempt private.email_code_tries;
begin
  perform private.require_server();
  address := private.email_code_address(p_email);
  delete from private.email_code_tries t where t.code_asked_at <= now() - interval '1 hour';
  insert into private.email_code_tries (email) values (address) on conflict (email) do nothing;
  select * into attempt from private.email_code_tries t where t.email = address for update;
  if attempt.code_asked_at <= now() - private.email_code_life() then
    -- The code asked for through the site has expired: a code typed now was asked for elsewhere, and starts
    -- its own count.
    update private.email_code_tries set code_asked_at = now(), tries = 1 where email = address;
    return 5;
  end if;
  if attempt.tries >= 5 then
    return 0;
  end if;
  update private.email_code_tries set tries = tries + 1 where email = address;
  return 5 - attempt.tries;
end;
$$;
comment on function public.take_email_code_try(text) is 'Server only (secret key), before the site has the auth server check a code typed for an address: counts the try and answers how many the code had left with it (5 down to 1); 0 when five have been typed and it is void (nothing counted) until a new code is asked for (ask_for_email_code). A right code clears the count (clear_email_code_tries). By address, known to the auth server or not.';
revoke all on function public.take_email_code_try(text) from public, anon, authenticated, service_role;
grant execute on function public.take_email_code_try(text) to service_role;

create or replace function public.clear_email_code_tries(p_email text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  delete from private.email_code_tries t where t.email = private.email_code_address(p_email);
end;
$$;
comment on function public.clear_email_code_tries(text) is 'Server only (secret key): the code typed for an address was right (and is spent), so its count of tries ends.';
revoke all on function public.clear_email_code_tries(text) from public, anon, authenticated, service_role;
grant execute on function public.clear_email_code_tries(text) to service_role;

create or replace function public.take_email_request(
  p_visitor text, p_kind text, p_captcha_passed boolean, p_per_visitor integer, p_per_site integer
) returns void
language plpgsql security definer set search_path = '' as $$
declare
  by_visitor integer;
  by_site integer;
begin
  perform private.require_server();
  if p_visitor is null or length(p_visitor) > 100 or p_kind is null or p_kind not in ('account', 'signup')
     or coalesce(p_per_visitor, 0) < 1 or coalesce(p_per_site, 0) < 1 then
    raise exception 'A visitor, the kind of e-mail (account or signup) and both thresholds (1 or more) are required'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  delete from private.email_requests r where r.asked_at <= now() - interval '1 hour';
  select count(*) filter (where r.visitor = p_visitor), count(*) into by_visitor, by_site
    from private.email_requests r where r.kind = p_kind;
  if (by_visitor >= p_per_visitor or by_site >= p_per_site) and not coalesce(p_captcha_passed, false) then
    raise exception 'Please confirm you are a person, then send the form again.' using errcode = 'P0001', hint = 'captcha_required';
  end if;
  insert into private.email_requests (visitor, kind) values (p_visitor, p_kind);
end;
$$;
comment on function public.take_email_request(text, text, boolean, integer, integer) is 'Server only (secret key), before the site asks the auth server for an e-mail to an account (a sign-in link, a reset) or to a new address (a sign-up): counts the request, or refuses it with captcha_required once the visitor has made p_per_visitor of that kind in the last hour or the whole site p_per_site (the site''s settings), unless the visitor has just passed a CAPTCHA. Counted before anything looks the address up, so the answer says nothing about it.';
revoke all on function public.take_email_request(text, text, boolean, integer, integer) from public, anon, authenticated, service_role;
grant execute on function public.take_email_request(text, text, boolean, integer, integer) to service_role;

create or replace function public.record_factor_enrolment() returns void
language plpgsql security definer set search_path = '' as $$
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
revoke all on function public.record_factor_enrolment() from public, anon, authenticated, service_role;
grant execute on function public.record_factor_enrolment() to authenticated;
grant execute on function public.record_factor_enrolment() to service_role;

create type public.factor_proof as (factors_proven boolean, inbox_confirmed boolean);
comment on type public.factor_proof is 'For the two-step page: every verified factor proven, and an inbox code confirmed in the last fifteen minutes.';

create or replace function public.get_my_factor_proof() returns public.factor_proof
language sql stable security definer set search_path = '' as $$
  select private.factors_proven(), private.fresh_reauthentication(private.require_user_first_step()) is not null
$$;
comment on function public.get_my_factor_proof() is 'For the two-step page: whether every verified factor of the caller is proven, and whether they confirmed a code from their inbox in the last fifteen minutes (not yet spent).';
revoke all on function public.get_my_factor_proof() from public, anon, authenticated, service_role;
grant execute on function public.get_my_factor_proof() to authenticated;
grant execute on function public.get_my_factor_proof() to service_role;

-- A password thief typing wrong codes must not keep the owner out, and many addresses together must not
-- get enough guesses to hit a 6-digit code. So wrong codes cool down the visitor who typed them, never the
-- factor (ten, then 30 s doubling to 15 minutes, forgotten after an hour); over a day the factor takes at
-- most 50 wrong codes from everyone, and past that a network (a /48) with two wrong codes that day cannot pass
-- it until the day is over, while one that has not mistyped still can (the owner, from their own network).
-- Only a right code needs refusing: a wrong one fails anyway, and GoTrue signs the user out everywhere on a
-- rejection, which a thief's wrong codes must not be able to cause. That sign-out also meets an owner who
-- mistypes ten times in an hour and then gives the right code within the wait: ten rather than the password's
-- five, because the per-visitor wait only paces guessing (the day's 50 bound it, whatever the wait).

-- One visitor, one key, as the site and the embedded backend key them (visitorKey in
-- packages/embedded-supabase/src/visitor-key.ts; tests/db/visitor-key.test.ts holds the two equal). Hosted GoTrue
-- hands the hook the raw client address: keyed on its text, every address of one IPv6 /64 (and every spelling of
-- one address) would be a fresh visitor, and a value that is not an address would lump callers together.
create or replace function private.visitor_key(p_address text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  -- Node's isIP grammar (lib/internal/net.js), so exactly what visitorKey accepts is accepted here.
  v4 constant text := '(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
  g constant text := '(?:[0-9a-fA-F]{1,4})';
  v6 constant text := '(?:(?:' || g || ':){7}(?:' || g || '|:)|'
    || '(?:' || g || ':){6}(?:' || v4 || '|:' || g || '|:)|'
    || '(?:' || g || ':){5}(?::' || v4 || '|(?::' || g || '){1,2}|:)|'
    || '(?:' || g || ':){4}(?:(?::' || g || '){0,1}:' || v4 || '|(?::' || g || '){1,3}|:)|'
    || '(?:' || g || ':){3}(?:(?::' || g || '){0,2}:' || v4 || '|(?::' || g || '){1,4}|:)|'
    || '(?:' || g || ':){2}(?:(?::' || g || '){0,3}:' || v4 || '|(?::' || g || '){1,5}|:)|'
    || '(?:' || g || ':){1}(?:(?::' || g || '){0,4}:' || v4 || '|(?::' || g || '){1,6}|:)|'
    || '(?::(?:(?::' || g || '){0,5}:' || v4 || '|(?::' || g || '){1,7}|:)))';
  address text := btrim(p_address, E' \t\n\r\f\v');
  ip inet;
begin
  if address ~ ('^' || v4 || '$') then
    return address;
  end if;
  if address !~ ('^' || v6 || '(?:%[0-9a-zA-Z.:-]+)?$') then
    return null;
  end if;
  ip := split_part(address, '%', 1)::inet;
  if ip <<= '::ffff:0.0.0.0/96'::inet then
    return host('0.0.0.0'::inet + (ip - '::ffff:0.0.0.0'::inet));
  end if;
  return host(network(set_masklen(ip, 64)));
end;
$$;
comment on function private.visitor_key(text) is 'The visitor key of a client address, as the site and the embedded backend make it: IPv4 as is, IPv4-mapped IPv6 as its IPv4, other IPv6 as the first address of its /64 in canonical spelling; null for anything that is not an address.';
revoke all on function private.visitor_key(text) from public, anon, authenticated, service_role;

-- The wider network a visitor key belongs to: an IPv4 address itself, an IPv6 /64 as its /48. One subscriber,
-- tunnel broker or cloud customer is routinely given a whole /48 (65,536 /64s), so an allowance given to each
-- fresh visitor is given per /48 where it must not multiply.
create or replace function private.visitor_network(p_visitor text) returns text
language sql immutable set search_path = '' as $$
  select case when k like '%:%' then host(network(set_masklen(k::inet, 48))) else k end
    from private.visitor_key(p_visitor) k;
$$;
comment on function private.visitor_network(text) is 'The network of a visitor key: an IPv4 address itself, an IPv6 key as the first address of its /48; null for anything that is not an address.';
revoke all on function private.visitor_network(text) from public, anon, authenticated, service_role;

create or replace function private.two_step_wait(p_factor uuid, p_visitor text) returns integer
language plpgsql stable security definer set search_path = '' as $$
declare
  last_hour integer;
  last_wrong timestamptz;
  cool_until timestamptz;
  factor_day integer;
  visitor_day timestamptz[];
begin
  select count(*), max(w.typed_at) into last_hour, last_wrong
    from private.two_step_wrong_codes w
   where w.factor_id = p_factor and w.visitor = p_visitor and w.typed_at > now() - interval '1 hour';
  if last_hour >= 10 then
    cool_until := last_wrong + least(interval '15 minutes', interval '30 seconds' * power(2, least(last_hour - 10, 10)));
    if cool_until > now() then
      return ceil(extract(epoch from cool_until - now()))::integer;
    end if;
  end if;
  select count(*) into factor_day
    from private.two_step_wrong_codes w
   where w.factor_id = p_factor and w.typed_at > now() - interval '1 day';
  if factor_day < 50 then
    return 0;
  end if;
  -- Past the day's ceiling: barred until the second-newest of the wrong codes from the visitor's network is a
  -- day old. Per /48, not per /64: else one /48 would hold 65,536 fresh visitors of two guesses each.
  select array_agg(w.typed_at order by w.typed_at desc) into visitor_day
    from private.two_step_wrong_codes w
   where w.factor_id = p_factor and private.visitor_network(w.visitor) = private.visitor_network(p_visitor)
     and w.typed_at > now() - interval '1 day';
  if coalesce(array_length(visitor_day, 1), 0) < 2 then
    return 0;
  end if;
  return greatest(1, ceil(extract(epoch from visitor_day[2] + interval '1 day' - now())))::integer;
end;
$$;
comment on function private.two_step_wait(uuid, text) is 'Seconds before a code from this visitor (a visitor_key) may pass this factor: their own cool-down (10 wrong codes in an hour, then 30 s doubling to 15 minutes), or, once the factor has had 50 wrong codes in a day from everyone, until the second wrong code of the day from their network (visitor_network, a /48 for IPv6) is a day old. 0 when it may now.';
revoke all on function private.two_step_wait(uuid, text) from public, anon, authenticated, service_role;

create or replace function private.hook_mfa_verification_attempt(event jsonb) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_factor uuid := (event ->> 'factor_id')::uuid;
  v_owner uuid := (event ->> 'user_id')::uuid;
  -- Hosted GoTrue sends the raw client address; the embedded backend an already normalised one.
  v_visitor text := private.visitor_key(event #>> '{metadata,ip_address}');
  wait_seconds integer;
  burst integer;
begin
  -- No address, no visitor: lumping every such caller into one would let one of them bar the others.
  if v_visitor is null then
    return jsonb_build_object('decision', 'continue');
  end if;
  if (event ->> 'valid')::boolean then
    wait_seconds := private.two_step_wait(v_factor, v_visitor);
    if wait_seconds > 0 then
      return jsonb_build_object('decision', 'reject', 'message',
        'Too many wrong codes from this address. Try again in '
        || case when wait_seconds <= 60 then 'a minute'
                when wait_seconds <= 3600 then ceil(wait_seconds / 60.0) || ' minutes'
                else ceil(wait_seconds / 3600.0) || ' hours' end || '.');
    end if;
    -- The right code ends this visitor's run of wrong ones (the day's count for the factor keeps the rest).
    delete from private.two_step_wrong_codes w where w.factor_id = v_factor and w.visitor = v_visitor;
    return jsonb_build_object('decision', 'continue');
  end if;

  delete from private.two_step_wrong_codes w where w.factor_id = v_factor and w.typed_at <= now() - interval '1 day';
  insert into private.two_step_wrong_codes (factor_id, user_id, visitor) values (v_factor, v_owner, v_visitor);
  -- The owner hears of the first burst (five wrong codes within an hour, from anyone), once a day at most.
  select count(*) into burst from private.two_step_wrong_codes w
   where w.factor_id = v_factor and w.typed_at > now() - interval '1 hour';
  if burst >= 5 and not exists (select 1 from public.mail_outbox m
                                 where m.to_user = v_owner and m.kind = 'two_step_wrong_codes'
                                   and m.created_at > now() - interval '1 day') then
    perform private.queue_mail(v_owner, 'two_step_wrong_codes', 'Wrong two-step codes for your LabCash account',
      'Someone signed in to your LabCash account with your password and then typed wrong codes at the two-step '
      || 'verification step. Your account is safe while your authenticator app is: without its code they cannot '
      || 'use your account, and their wrong codes do not lock you out.' || chr(10) || chr(10)
      || 'If this was not you, your password is known to someone else. Sign in, give the code from your '
      || 'authenticator app, and change your password on your profile page now.' || chr(10) || chr(10)
      || 'If it was you, there is nothing to do.');
  end if;
  return jsonb_build_object('decision', 'continue');
end;
$$;
comment on function private.hook_mfa_verification_attempt(jsonb) is 'The auth server''s MFA verification attempt hook (supabase/config.toml [auth.hook.mfa_verification_attempt]): records each wrong code against the visitor who typed it (visitor_key of the client address; nothing without one), e-mails the owner at the first burst, and rejects a right code only from a visitor who must still wait (two_step_wait). Executable by supabase_auth_admin only.';
revoke all on function private.hook_mfa_verification_attempt(jsonb) from public, anon, authenticated, service_role;
grant execute on function private.hook_mfa_verification_attempt(jsonb) to supabase_auth_admin;

create type public.recovery_state as (codes_left integer, recovery_open boolean);

create or replace function private.new_recovery_code() returns text
language sql set search_path = '' as $$
  -- 12 Crockford base-32 characters (60 bits: 32 divides 256, so each is equally likely), in three groups.
  select string_agg(substr('0123456789abcdefghjkmnpqrstvwxyz', get_byte(r.b, i) % 32 + 1, 1)
                    || case when i in (3, 7) then '-' else '' end, '' order by i)
    from (select extensions.gen_random_bytes(12) as b) r, generate_series(0, 11) i
$$;
comment on function private.new_recovery_code() is 'A fresh recovery code: 12 Crockford base-32 characters from the CSPRNG (60 bits), as xxxx-xxxx-xxxx.';
revoke all on function private.new_recovery_code() from public, anon, authenticated, service_role;

create or replace function private.recovery_code_hash(p_salt bytea, p_code text) returns bytea
language sql immutable set search_path = '' as $$
  -- As typed: case, spaces and dashes do not matter, and the letters people read for digits count as them.
  select extensions.digest(
    p_salt || convert_to(translate(regexp_replace(lower(coalesce(p_code, '')), '[^0-9a-z]', '', 'g'), 'oil', '011'), 'UTF8'),
    'sha256')
$$;
comment on function private.recovery_code_hash(bytea, text) is 'The stored form of a recovery code: sha256(salt || the code without case, spaces or dashes, o read as 0 and i, l as 1).';
revoke all on function private.recovery_code_hash(bytea, text) from public, anon, authenticated, service_role;

create or replace function private.session_began_with_password() returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from auth.mfa_amr_claims c
     where c.session_id = private.caller_session() and c.authentication_method = 'password')
$$;
comment on function private.session_began_with_password() is 'True when the caller''s session was made by signing in with the password, as the auth server recorded it (auth.mfa_amr_claims, the source of the token''s amr): not a magic link, an e-mailed code or a reset link.';
revoke all on function private.session_began_with_password() from public, anon, authenticated, service_role;

create or replace function private.recovery_open(p_user_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from private.recovery_codes r
     where r.user_id = p_user_id and r.used_in_session = private.caller_session()
       and r.used_at > now() - interval '15 minutes')
$$;
comment on function private.recovery_open(uuid) is 'True when the caller''s own session used one of the user''s recovery codes in the last fifteen minutes.';
revoke all on function private.recovery_open(uuid) from public, anon, authenticated, service_role;

create or replace function public.create_recovery_codes() returns text[]
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_admin();
  codes text[];
  voided integer;
begin
  delete from private.recovery_codes r where r.user_id = uid and r.used_at is null;
  get diagnostics voided = row_count;
  select array_agg(private.new_recovery_code()) into codes from generate_series(1, 10);
  insert into private.recovery_codes (user_id, salt, code_hash)
  select uid, s.salt, private.recovery_code_hash(s.salt, s.code)
    from (select extensions.gen_random_bytes(16) as salt, c as code from unnest(codes) c) s;
  perform private.log_activity('user.recovery_codes_created', uid, jsonb_build_object('codes', 10, 'voided', voided));
  return codes;
end;
$$;
comment on function public.create_recovery_codes() is 'Admins at aal2: ten new recovery codes, returned this once (only their salted hashes are kept); every unused earlier code stops working. Audited as user.recovery_codes_created.';
revoke all on function public.create_recovery_codes() from public, anon, authenticated, service_role;
grant execute on function public.create_recovery_codes() to authenticated;

create or replace function public.get_my_recovery_state() returns public.recovery_state
language sql stable security definer set search_path = '' as $$
  select (select count(*)::integer from private.recovery_codes r where r.user_id = u.uid and r.used_at is null),
         private.recovery_open(u.uid)
    from (select private.require_user_first_step() as uid) u
$$;
comment on function public.get_my_recovery_state() is 'The caller''s unused recovery codes, and whether their session used one in the last fifteen minutes (so may remove their own factors). Works at aal1: the code step reads it.';
revoke all on function public.get_my_recovery_state() from public, anon, authenticated, service_role;
grant execute on function public.get_my_recovery_state() to authenticated;

create or replace function public.use_recovery_code(p_code text) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  code_id bigint;
begin
  if not private.session_began_with_password() then
    raise exception 'A recovery code works only after signing in with your password.'
      using errcode = '42501', hint = 'password_session_required';
  end if;
  -- Without an unused code there is nothing to try, and nothing is written: a half-signed-in player (players have
  -- no codes) changes nothing at all.
  if not exists (select 1 from private.recovery_codes r where r.user_id = uid and r.used_at is null) then
    raise exception 'You have no recovery codes left. A super admin can reset your two-step verification.'
      using errcode = '42501', hint = 'no_recovery_codes';
  end if;
  -- 60-bit codes cannot be guessed online; the bound keeps a thief holding the password from trying for long.
  if (select count(*) from public.activity_log l
       where l.subject_id = uid and l.action = 'user.recovery_code_refused'
         and l.created_at > now() - interval '1 hour') >= 10 then
    raise exception 'Too many wrong recovery codes. Please try again in an hour.'
      using errcode = 'P0001', hint = 'too_many_recovery_codes';
  end if;
  select r.id into code_id from private.recovery_codes r
   where r.user_id = uid and r.used_at is null and r.code_hash = private.recovery_code_hash(r.salt, p_code)
   limit 1 for update;
  if code_id is null then
    perform private.log_activity('user.recovery_code_refused', uid);
    return false;
  end if;
  update private.recovery_codes set used_at = now(), used_in_session = private.caller_session() where id = code_id;
  perform private.log_activity('user.recovery_code_used', uid, jsonb_build_object(
    'codes_left', (select count(*) from private.recovery_codes r where r.user_id = uid and r.used_at is null)));
  return true;
end;
$$;
comment on function public.use_recovery_code(text) is 'Spends one of the caller''s recovery codes in a session made with the password (else password_session_required): true and audited as user.recovery_code_used when it was an unused code of theirs, which lets this session remove its own factors for fifteen minutes; false, audited as user.recovery_code_refused, otherwise. Ten refusals in an hour: too_many_recovery_codes.';
revoke all on function public.use_recovery_code(text) from public, anon, authenticated, service_role;
grant execute on function public.use_recovery_code(text) to authenticated;

create or replace function public.record_factor_removal_with_recovery_code(p_factor_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  factor_name text;
begin
  if not private.recovery_open(uid) then
    raise exception 'Use a recovery code first.' using errcode = '42501', hint = 'recovery_code_needed';
  end if;
  select f.friendly_name into factor_name from auth.mfa_factors f where f.id = p_factor_id and f.user_id = uid;
  if not found then
    raise exception 'No such authenticator' using errcode = 'PT404', hint = 'factor_not_found';
  end if;
  -- The codes left are spent too: the new authenticator comes with a fresh set.
  delete from private.recovery_codes r where r.user_id = uid and r.used_at is null;
  perform private.log_activity('user.factor_removed_with_recovery_code', uid,
    jsonb_build_object('factor_id', p_factor_id, 'factor_name', factor_name));
end;
$$;
comment on function public.record_factor_removal_with_recovery_code(uuid) is 'After use_recovery_code in this session (fifteen minutes): allows and audits (user.factor_removed_with_recovery_code) removing one of the caller''s own factors, which the server then does through the auth admin API, and voids the caller''s unused codes (a new set comes with the new authenticator). Otherwise recovery_code_needed.';
revoke all on function public.record_factor_removal_with_recovery_code(uuid) from public, anon, authenticated, service_role;
grant execute on function public.record_factor_removal_with_recovery_code(uuid) to authenticated;
