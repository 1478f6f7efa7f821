-- two_step_visitor_keys: written by `npm run db:migration` from supabase/schemas. Review it before committing.

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
comment on function private.two_step_wait(uuid,text) is 'Seconds before a code from this visitor (a visitor_key) may pass this factor: their own cool-down (10 wrong codes in an hour, then 30 s doubling to 15 minutes), or, once the factor has had 50 wrong codes in a day from everyone, until the second wrong code of the day from their network (visitor_network, a /48 for IPv6) is a day old. 0 when it may now.';
revoke all on function private.two_step_wait(uuid,text) from public, anon, authenticated, service_role;

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
