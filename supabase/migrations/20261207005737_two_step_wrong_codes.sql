-- two_step_wrong_codes: written by `npm run db:migration` from supabase/schemas. Review it before committing.

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
  if last_hour >= 5 then
    cool_until := last_wrong + least(interval '15 minutes', interval '30 seconds' * power(2, least(last_hour - 5, 10)));
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
  -- Past the day's ceiling: barred until the second-newest of the visitor's wrong codes is a day old.
  select array_agg(w.typed_at order by w.typed_at desc) into visitor_day
    from private.two_step_wrong_codes w
   where w.factor_id = p_factor and w.visitor = p_visitor and w.typed_at > now() - interval '1 day';
  if coalesce(array_length(visitor_day, 1), 0) < 2 then
    return 0;
  end if;
  return greatest(1, ceil(extract(epoch from visitor_day[2] + interval '1 day' - now())))::integer;
end;
$$;
comment on function private.two_step_wait(uuid,text) is 'Seconds before a code from this visitor may pass this factor: their own cool-down (5 wrong codes in an hour, then 30 s doubling to 15 minutes), or, once the factor has had 50 wrong codes in a day from everyone, until their second wrong code of the day is a day old. 0 when it may now.';
revoke all on function private.two_step_wait(uuid,text) from public, anon, authenticated, service_role;

create or replace function private.hook_mfa_verification_attempt(event jsonb) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_factor uuid := (event ->> 'factor_id')::uuid;
  v_owner uuid := (event ->> 'user_id')::uuid;
  v_visitor text := coalesce(nullif(event #>> '{metadata,ip_address}', ''), 'unknown');
  wait_seconds integer;
  burst integer;
begin
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
comment on function private.hook_mfa_verification_attempt(jsonb) is 'The auth server''s MFA verification attempt hook (supabase/config.toml [auth.hook.mfa_verification_attempt]): records each wrong code against the visitor who typed it, e-mails the owner at the first burst, and rejects a right code only from a visitor who must still wait (two_step_wait). Executable by supabase_auth_admin only.';
revoke all on function private.hook_mfa_verification_attempt(jsonb) from public, anon, authenticated, service_role;
grant execute on function private.hook_mfa_verification_attempt(jsonb) to supabase_auth_admin;
