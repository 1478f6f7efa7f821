-- recovery_codes: admins' one-time recovery codes (supabase/schemas/22-sign-in-and-two-step.sql), written by hand
-- because it adds a table and a type.

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
