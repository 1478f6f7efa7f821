-- email_code_functions: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function public.confirm_reauthentication(p_code text) returns boolean
language plpgsql volatile security definer set search_path = '' as $$
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
language plpgsql volatile security definer set search_path = '' as $$
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
  update private.email_code_tries set code_asked_at = now(), tries = 0 where email = address;
  return 0;
end;
$$;
comment on function public.ask_for_email_code(text) is 'Server only (secret key), before the site asks the auth server to e-mail a code (a sign-in link, a reset, an inbox code): 0 when one may go, counted, and the address''s next code starts with five tries; else the seconds until one may (five an hour per address). Counted by the address typed, before anything looks it up, so the answer is the same whether or not an account uses it.';
revoke all on function public.ask_for_email_code(text) from public, anon, authenticated, service_role;
grant execute on function public.ask_for_email_code(text) to service_role;

create or replace function public.take_email_code_try(p_email text) returns integer
language plpgsql volatile security definer set search_path = '' as $$
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
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform private.require_server();
  delete from private.email_code_tries t where t.email = private.email_code_address(p_email);
end;
$$;
comment on function public.clear_email_code_tries(text) is 'Server only (secret key): the code typed for an address was right (and is spent), so its count of tries ends.';
revoke all on function public.clear_email_code_tries(text) from public, anon, authenticated, service_role;
grant execute on function public.clear_email_code_tries(text) to service_role;
