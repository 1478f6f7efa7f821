-- notify_admins_of_sign_ups_and_digest: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function private.settings_keys() returns text[]
language sql immutable set search_path = '' as $$
  select private.settings_keys_before_referrals() || array['referral_credit', 'referral_monthly_cap', 'instant_win_max_live_percent',
                                                          'site_url', 'limit_increase_delay_hours', 'sign_up_digest']
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
  when 'site_url' then
    -- The origin links in the site's own e-mails lead to: https (http only for this machine), no path.
    if p_value is null or jsonb_typeof(p_value) <> 'string'
       or not ((p_value #>> '{}') ~ '^https://[a-z0-9.-]+(:[0-9]{1,5})?/?$'
               or (p_value #>> '{}') ~ '^http://(localhost|127[.]0[.]0[.]1)(:[0-9]{1,5})?/?$') then
      raise exception 'The site URL must be the site''s address alone, such as https://labcash.example'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(rtrim(p_value #>> '{}', '/'));
  when 'limit_increase_delay_hours' then
    -- A higher monthly limit always waits at least a day (a decrease applies at once).
    if p_value is null or jsonb_typeof(p_value) <> 'number' then
      raise exception 'The wait before a higher monthly limit must be a whole number of hours'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    n := (p_value #>> '{}')::numeric;
    if n <> trunc(n) or n < 24 or n > 168 then
      raise exception 'The wait before a higher monthly limit must be a whole number of hours from 24 to 168'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(n::integer);
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

create or replace function private.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  given text := new.raw_user_meta_data ->> 'date_of_birth';
  dob date;
begin
  -- An operator invited as super admin is staff, not a player: no date of birth is asked for (the role itself
  -- waits for the invitation to be accepted).
  -- An account made with no password for an address with a pending super-admin invitation is the one the
  -- auth server makes for that invitation (a sign-up always has a password): bound to it, asked no date of birth.
  if coalesce(new.encrypted_password, '') = '' then
    update private.super_admin_invitations i set invited_user = new.id
     where i.email = lower(new.email) and i.accepted_at is null and i.invited_user is null;
  end if;
  if (given is null or btrim(given) = '')
     and exists (select 1 from private.super_admin_invitations i where i.invited_user = new.id) then
    perform private.create_account_rows(new.id);
    perform private.record_marketing_consent(new.id, false, 'not_asked', 'Not asked: invited as super admin');
    perform private.log_activity('user.signed_up', new.id, jsonb_build_object('email', new.email));
    return new;
  end if;
  if given is null or btrim(given) = '' then
    raise exception 'A date of birth is required to join LabCash' using errcode = '22023', hint = 'date_of_birth_required';
  end if;
  begin
    dob := case when given ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then given::date end;
  exception when data_exception then
    dob := null; -- 1990-02-31, year 0000
  end;
  if dob is null or dob < (current_date - interval '120 years')::date then
    raise exception 'Date of birth is not a valid date' using errcode = '22007', hint = 'invalid_input';
  end if;
  if dob > (current_date - interval '18 years')::date then
    raise exception 'You must be 18 or over to join LabCash' using errcode = '22023', hint = 'under_18';
  end if;
  perform private.create_account_rows(new.id);
  -- Consent only from the sign-up form's box, ticked (JSON true); anything else is no consent. A user
  -- made without the form (admin API, seed, script) was not asked, and is recorded so.
  if new.raw_user_meta_data ? 'marketing_consent' then
    perform private.record_marketing_consent(new.id, new.raw_user_meta_data -> 'marketing_consent' = 'true'::jsonb, 'sign_up');
  else
    perform private.record_marketing_consent(new.id, false, 'not_asked',
      'Not asked: the account was made without the sign-up form');
  end if;
  perform private.log_activity('user.signed_up', new.id, jsonb_build_object('email', new.email));
  perform private.notify_admins_of_sign_up(new.id);
  return new;
end;
$$;
comment on function private.handle_new_user() is 'Trigger: a new auth user gets a profile and account data and their marketing consent from the sign-up form (false unless its box was ticked, recorded); a user without a date of birth (YYYY-MM-DD, at most 120 years ago) is refused (date_of_birth_required, invalid_input), as is one under 18 (under_18), whoever creates them, except the password-less account made for a pending super-admin invitation, which it binds to the invitation and which needs none; an account left waiting for approval is announced to every admin.';
revoke all on function private.handle_new_user() from public, anon, authenticated, service_role;

-- draw_lost is the one kind that is not a service message: "you did not win" invites another go, so it
-- is never pushed to a player on a break, self-excluded or closed (code of practice 1.5, 1.11). The
-- rest concern money, a prize, the account or a complaint the player is owed word of; sign_up goes to
-- admins only: someone new is waiting for their approval.
create or replace function private.notification_kinds() returns text[]
language sql immutable set search_path = '' as $$
  select array['draw_won', 'draw_lost', 'credit', 'approval', 'complaint', 'prize', 'sign_up']
$$;
comment on function private.notification_kinds() is 'Every notification kind, in the order the preferences list them.';
revoke all on function private.notification_kinds() from public, anon, authenticated, service_role;

-- Decided here, in the sign-up's own transaction, because sign-ups also come straight to the public auth
-- server: every admin hears at once, whichever way the account was made. Only an account that waits for a
-- person (approval_mode manual) is news; the player's name is in the message, their e-mail is not (it may
-- be pushed to a lock screen).
create or replace function private.notify_admins_of_sign_up(p_user uuid) returns void
language sql security definer set search_path = '' as $$
  insert into public.notifications (user_id, kind, ref, title, body, link, push_pending)
  select admin.id, 'sign_up', 'sign_up:' || p_user,
         'New sign-up: ' || p.name,
         p.name || ' signed up and is waiting for approval.',
         '/admin/approvals',
         private.push_wanted(admin.id, 'sign_up')
    from public.profiles p
    join public.user_account_data waiting on waiting.id = p.id
         and not waiting.approved and waiting.rejected_at is null
    cross join public.user_account_data admin
   where p.id = p_user and admin.role in ('admin', 'super_admin') and admin.id <> p_user
  on conflict (user_id, kind, ref) do nothing
$$;
comment on function private.notify_admins_of_sign_up(uuid) is 'A new account waiting for approval: a sign_up notification (and push, if chosen) to every admin and super admin, linking the approvals queue.';
revoke all on function private.notify_admins_of_sign_up(uuid) from public, anon, authenticated, service_role;

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
  perform private.require_server();
  return private.queue_sign_up_digests_at(now());
end;
$$;
comment on function public.queue_sign_up_digests() is 'Server (the scheduled job, each run): the sign-up digest to every admin when it is due now (private.queue_sign_up_digests_at). Returns how many were queued.';
revoke all on function public.queue_sign_up_digests() from public, anon, authenticated, service_role;
grant execute on function public.queue_sign_up_digests() to service_role;

-- The sign-up digest is off until an admin turns it on (settings screen).
insert into public.app_settings (key, value) values ('sign_up_digest', 'false'::jsonb) on conflict (key) do nothing;
