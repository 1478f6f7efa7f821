-- The first super admin without SQL: `npm run setup:admin` records a pending invitation (invite_super_admin,
-- secret key) and has the auth server invite the address; the account made for that invitation is bound to it
-- and gets the role in SQL when it confirms its address, so no other account for the address can. The invited
-- operator is asked no date of birth.
create table private.super_admin_invitations (
  -- The invited address, in lower case.
  email text primary key constraint super_admin_invitations_email_check check (email = lower(email)),
  invited_at timestamptz not null default now(),
  -- The account the auth server made for the invitation (made with no password: a sign-up always has one).
  invited_user uuid,
  -- When that account accepted it; null while it is pending.
  accepted_at timestamptz,
  constraint super_admin_invitations_invited_user_fkey foreign key (invited_user) references auth.users (id) on delete set null
);
alter table private.super_admin_invitations enable row level security;
comment on table private.super_admin_invitations is 'Super admins invited by `npm run setup:admin` (public.invite_super_admin, secret key): handle_new_user binds the password-less account the auth server makes for the invitation, and grant_invited_super_admin gives that account, and no other, the role when it confirms its address.';
revoke all on table private.super_admin_invitations from public, anon, authenticated, service_role;

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
  return new;
end;
$$;
comment on function private.handle_new_user() is 'Trigger: a new auth user gets a profile and account data and their marketing consent from the sign-up form (false unless its box was ticked, recorded); a user without a date of birth (YYYY-MM-DD, at most 120 years ago) is refused (date_of_birth_required, invalid_input), as is one under 18 (under_18), whoever creates them, except the password-less account made for a pending super-admin invitation, which it binds to the invitation and which needs none.';
revoke all on function private.handle_new_user() from public, anon, authenticated, service_role;

create or replace function public.invite_super_admin(p_email text, p_another boolean default false) returns void
language plpgsql security definer set search_path = '' as $$
declare
  address text := lower(btrim(p_email));
  holder text;
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
  if address is null or address !~ '^[^@[:space:]]+@[^@[:space:]]+[.][^@[:space:]]+$' then
    raise exception 'Give the e-mail address to invite' using errcode = '22023', hint = 'invalid_input';
  end if;
  if not coalesce(p_another, false) then
    select u.email into holder
      from public.user_account_data a join auth.users u on u.id = a.id
     where a.role = 'super_admin' and a.deleted_at is null
     order by a.created_at limit 1;
    if holder is null then
      select i.email into holder from private.super_admin_invitations i
       where i.accepted_at is null and i.email <> address order by i.invited_at limit 1;
    end if;
    if holder is not null then
      raise exception 'A super admin already exists or is invited (%): add another with --another', holder
        using errcode = '23505', hint = 'super_admin_exists';
    end if;
  end if;
  -- Only an address without an account, or whose account this invitation made and has not accepted (the
  -- invitation sent again): someone else's account for the address never becomes the one the role waits for.
  if exists (select 1 from auth.users u
              where lower(u.email) = address
                and not exists (select 1 from private.super_admin_invitations i
                                 where i.invited_user = u.id and i.accepted_at is null)) then
    raise exception 'That address already has an account: a super admin gives it a role on /admin/users'
      using errcode = '23505', hint = 'account_exists';
  end if;
  insert into private.super_admin_invitations as i (email) values (address)
  on conflict (email) do update set invited_at = now(), invited_user = null, accepted_at = null
   where i.accepted_at is not null;
  perform private.log_activity('user.super_admin_invited', null,
    jsonb_build_object('email', address, 'another', coalesce(p_another, false)));
end;
$$;
comment on function public.invite_super_admin(text,boolean) is 'Secret key only (npm run setup:admin): records a pending super-admin invitation for the address before the auth server invites it; refused while a super admin exists or another address is invited (super_admin_exists) unless p_another, and for an address that already has an account of its own (account_exists); audited as user.super_admin_invited.';
revoke all on function public.invite_super_admin(text,boolean) from public, anon, authenticated, service_role;
grant execute on function public.invite_super_admin(text,boolean) to service_role;

create or replace function private.grant_invited_super_admin() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  invitation private.super_admin_invitations;
begin
  -- Only the account made for the invitation (bound by handle_new_user), confirming its address now: through the
  -- invitation's link or code, or any e-mailed code, which only its mailbox has. It has no password of its own.
  select * into invitation from private.super_admin_invitations i
   where i.invited_user = new.id and i.accepted_at is null
   for update;
  if not found then
    return new;
  end if;
  update private.super_admin_invitations set accepted_at = now() where email = invitation.email;
  update public.user_account_data
     set role = 'super_admin', approved = true, approved_at = coalesce(approved_at, now()),
         rejected_at = null, rejection_reason = null, updated_at = now()
   where id = new.id;
  perform private.log_activity('user.super_admin_accepted', new.id,
    jsonb_build_object('email', invitation.email, 'invited_at', invitation.invited_at));
  return new;
end;
$$;
comment on function private.grant_invited_super_admin() is 'Trigger: the account made for a pending super-admin invitation (public.invite_super_admin; bound by handle_new_user) gets the role, approved, when it confirms its address; audited as user.super_admin_accepted.';
revoke all on function private.grant_invited_super_admin() from public, anon, authenticated, service_role;

CREATE TRIGGER on_auth_user_confirmed_invitation AFTER UPDATE OF email_confirmed_at ON auth.users FOR EACH ROW WHEN (((old.email_confirmed_at IS NULL) AND (new.email_confirmed_at IS NOT NULL) AND (new.invited_at IS NOT NULL))) EXECUTE FUNCTION private.grant_invited_super_admin();
