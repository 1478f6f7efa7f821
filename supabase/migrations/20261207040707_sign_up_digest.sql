-- sign_up_digest: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function private.settings_keys() returns text[]
language sql immutable set search_path = '' as $$
  select private.settings_keys_before_referrals() || array['referral_credit', 'referral_monthly_cap', 'instant_win_max_live_percent',
                                                          'sign_up_digest']
$$;
comment on function private.settings_keys() is 'The settings the admin settings screen reads and writes (admin_get_settings, admin_update_settings), in screen order.';
revoke all on function private.settings_keys() from public, anon, authenticated, service_role;

create or replace function private.setting_checked(p_key text, p_value jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  n numeric;
begin
  case p_key
  when 'sign_up_digest' then
    return private.setting_boolean(p_key, p_value, 'The sign-up digest');
  when 'referral_credit' then
    return private.setting_pounds(p_key, p_value, 'The referral credit', 0.01, 100);
  when 'referral_monthly_cap' then
    if p_value is null or jsonb_typeof(p_value) <> 'number' then
      raise exception 'The referral cap must be a whole number of friends a month' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    n := (p_value #>> '{}')::numeric;
    if n <> trunc(n) or n < 0 or n > 1000 then
      raise exception 'The referral cap must be a whole number of friends a month from 0 to 1000 (0: no referral credit)'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(n::integer);
  when 'instant_win_max_live_percent' then
    -- Code of practice 1.10: instant-win competitions are never the majority of live ones, so at most 50.
    if p_value is null or jsonb_typeof(p_value) <> 'number' then
      raise exception 'The instant-win share must be a whole percent' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    n := (p_value #>> '{}')::numeric;
    if n <> trunc(n) or n < 0 or n > 50 then
      raise exception 'The instant-win share must be a whole percent from 0 to 50 (0: no instant-win competitions go live)'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(n::integer);
  else
    return private.setting_checked_before_referrals(p_key, p_value);
  end case;
end;
$$;
comment on function private.setting_checked(text,jsonb) is 'One setting''s new value checked for its key (type, range, shape) and normalised; invalid_input with a message naming the setting otherwise (the key in DETAIL).';
revoke all on function private.setting_checked(text,jsonb) from public, anon, authenticated, service_role;

-- The optional e-mail to admins (setting sign_up_digest, off unless chosen): the accounts waiting for approval,
-- oldest first, once a UK day, queued by the scheduled job at its first run from 08:00 UK time and only when
-- someone is waiting. Each sign-up is in the notification centre at once; this is for the admin who reads mail.
create or replace function private.queue_sign_up_digests_at(p_now timestamptz) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  uk_now timestamp := p_now at time zone 'Europe/London';
  waiting integer;
  listing text;
  body text;
  queued integer;
begin
  if private.setting('sign_up_digest') is distinct from 'true'::jsonb or uk_now::time < time '08:00' then
    return 0;
  end if;
  -- Two runs of the job at once must not both find today's digest unsent.
  perform pg_advisory_xact_lock(hashtext('sign_up_digest'));
  select count(*),
         string_agg(format('- %s, signed up %s', w.name, to_char(w.created_at at time zone 'Europe/London', 'DD Mon YYYY HH24:MI')),
                    E'\n' order by w.created_at) filter (where w.place <= 50)
    into waiting, listing
    from (select p.name, a.created_at, row_number() over (order by a.created_at) as place
            from public.user_account_data a join public.profiles p on p.id = a.id
           where not a.approved and a.rejected_at is null) w;
  if waiting = 0 then
    return 0;
  end if;
  body := format(E'Accounts waiting for approval, oldest first (UK time):\n\n%s%s\n\nApprove or reject them at %s\n\nYou get this e-mail because the sign-up digest is on in the settings.',
                 listing,
                 case when waiting > 50 then format(E'\n- and %s more', waiting - 50) else '' end,
                 coalesce(private.setting('site_url') #>> '{}', 'http://localhost:3000') || '/admin/approvals');
  insert into public.mail_outbox (to_email, to_user, kind, subject, body_text)
  select u.email, u.id, 'sign_up_digest',
         case when waiting = 1 then '1 account is waiting for approval' else waiting || ' accounts are waiting for approval' end,
         body
    from public.user_account_data admin
    join auth.users u on u.id = admin.id
   where admin.role in ('admin', 'super_admin') and u.email is not null
     and not exists (select 1 from public.mail_outbox m
                      where m.to_user = admin.id and m.kind = 'sign_up_digest'
                        and (m.created_at at time zone 'Europe/London')::date = uk_now::date);
  get diagnostics queued = row_count;
  return queued;
end;
$$;
comment on function private.queue_sign_up_digests_at(timestamp with time zone) is 'When the sign_up_digest setting is on, from 08:00 UK time at p_now, once a UK day, queues to every admin an e-mail listing the accounts waiting for approval (none when nobody waits). Returns how many were queued.';
revoke all on function private.queue_sign_up_digests_at(timestamp with time zone) from public, anon, authenticated, service_role;

create or replace function public.queue_sign_up_digests() returns integer
language plpgsql security definer set search_path = '' as $$
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
  return private.queue_sign_up_digests_at(now());
end;
$$;
comment on function public.queue_sign_up_digests() is 'Server (the scheduled job, each run): the sign-up digest to every admin when it is due now (private.queue_sign_up_digests_at). Returns how many were queued.';
revoke all on function public.queue_sign_up_digests() from public, anon, authenticated, service_role;
grant execute on function public.queue_sign_up_digests() to service_role;

-- The sign-up digest is off until an admin turns it on (settings screen).
insert into public.app_settings (key, value) values ('sign_up_digest', 'false'::jsonb) on conflict (key) do nothing;
