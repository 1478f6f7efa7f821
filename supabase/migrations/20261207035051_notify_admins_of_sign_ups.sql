-- notify_admins_of_sign_ups: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function private.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  given text := new.raw_user_meta_data ->> 'date_of_birth';
  dob date;
begin
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
comment on function private.handle_new_user() is 'Trigger: a new auth user gets a profile and account data and their marketing consent from the sign-up form (false unless its box was ticked, recorded); a user without a date of birth (YYYY-MM-DD, at most 120 years ago) is refused (date_of_birth_required, invalid_input), as is one under 18 (under_18), whoever creates them; an account left waiting for approval is announced to every admin.';
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
