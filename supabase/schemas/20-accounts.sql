-- ============================================================================
-- Accounts: profiles, account data, roles and the callers' guards, sign-up, approval.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Functions the tables use
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
revoke all on function public.is_admin() from public, anon, authenticated, service_role;
grant execute on function public.is_admin() to anon;
grant execute on function public.is_admin() to authenticated;
grant execute on function public.is_admin() to service_role;

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create table public.profiles (
  id uuid not null,
  name text default 'User'::text not null,
  email text,
  email_notifications boolean default true not null,
  date_of_birth date,
  town text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  show_initials_only boolean default false not null,
  marketing_consent boolean default false not null,
  constraint profiles_pkey primary key (id),
  constraint profiles_name_check check (((char_length(name) >= 1) AND (char_length(name) <= 100))),
  constraint profiles_town_check check (((town IS NULL) OR ((char_length(town) >= 1) AND (char_length(town) <= 60)))),
  constraint profiles_id_fkey foreign key (id) references auth.users(id) on delete cascade
);
alter table public.profiles enable row level security;
comment on table public.profiles is 'A user''s public-facing profile (spec §3): name, notification preference, marketing consent, date of birth, and the town shown with their name if they win (optional).';
comment on column public.profiles.email_notifications is 'The player''s notification preference (spec §3, true for a new profile): whether news of their own entries that the site also shows (instant wins, private.optional_mail_kinds) is e-mailed too. Never marketing; mail that must reach them goes whatever it says.';
comment on column public.profiles.marketing_consent is 'The player''s current marketing consent ("E-mail me about new competitions and results"): false unless they gave it; every change is recorded in public.marketing_consents (private.record_marketing_consent).';
comment on column public.profiles.show_initials_only is 'The player asked to appear by initials only (no town) if they win and on entry lists.';
revoke all on table public.profiles from public, anon, authenticated, service_role;
grant select on table public.profiles to authenticated;
grant all on table public.profiles to service_role;

create index profiles_email_lower_idx on public.profiles (lower(email));
create policy "profiles: own row or admin" on public.profiles
  as permissive for select to authenticated
  using (((id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

-- A page on this site to send a player on to: a path of at most 500 characters starting with one slash (never "//"
-- or "/\", which browsers read as another host), without spaces, backslashes or control characters, so it can
-- only ever be joined to the site's own origin.
create or replace function private.is_return_path(p_path text) returns boolean
language sql immutable parallel safe set search_path = '' as $$
  select char_length(p_path) <= 500 and p_path ~ '^/([^/\\[:space:][:cntrl:]][^\\[:space:][:cntrl:]]*)?$'
$$;
comment on function private.is_return_path(text) is 'True for a path on this site to send a player on to: one leading slash (never // or /\), at most 500 characters, no spaces, backslashes or control characters.';
revoke all on function private.is_return_path(text) from public, anon, authenticated, service_role;

create type public.user_role as enum ('user', 'admin', 'super_admin');
comment on type public.user_role is 'An account''s role: a player, an admin, or a super admin (who also manages admins).';
create type public.kyc_status as enum ('none', 'pending', 'verified', 'rejected');
comment on type public.kyc_status is 'Where an account''s identity check stands.';
create table public.user_account_data (
  id uuid not null,
  credits numeric(12,2) default 0 not null,
  role public.user_role default 'user'::public.user_role not null,
  approved boolean default false not null,
  approved_at timestamp with time zone,
  approved_by uuid,
  rejected_at timestamp with time zone,
  rejection_reason text,
  total_spent numeric(12,2) default 0 not null,
  total_entries integer default 0 not null,
  kyc_status public.kyc_status default 'none'::public.kyc_status not null,
  is_verified boolean default false not null,
  verified_at timestamp with time zone,
  age_verified boolean default false not null,
  metadata jsonb,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  deleted_at timestamp with time zone,
  approval_welcomed_at timestamp with time zone,
  card_credit numeric(12,2) default 0 not null,
  return_path text,
  constraint user_account_data_pkey primary key (id),
  constraint user_account_data_card_credit_check check (card_credit >= 0 and card_credit <= credits),
  constraint user_account_data_credits_check check ((credits >= (0)::numeric)),
  constraint user_account_data_return_path_check check (private.is_return_path(return_path)),
  constraint user_account_data_total_entries_check check ((total_entries >= 0)),
  constraint user_account_data_total_spent_check check ((total_spent >= (0)::numeric)),
  constraint user_account_data_approved_by_fkey foreign key (approved_by) references auth.users(id) on delete set null,
  constraint user_account_data_id_fkey foreign key (id) references auth.users(id) on delete cascade
);
alter table public.user_account_data enable row level security;
comment on table public.user_account_data is 'Money, role and approval state of a user (spec §3). credits is a cache of the ledger sum, changed only by ledger functions.';
comment on column public.user_account_data.card_credit is 'The credit-card-funded part of credits, maintained by private.post_ledger: card top-ups and their bonus add to it, debits spend it last.';
comment on column public.user_account_data.deleted_at is 'When a super admin deleted (anonymised) the account: personal data cleared, sign-in impossible, ledger and tickets kept.';
comment on column public.user_account_data.return_path is 'The page a player waiting for approval came from (a path on this site, private.is_return_path), recorded by public.my_return_path: the approval notification and e-mail lead back to it. Null: the dashboard.';
comment on column public.user_account_data.approval_welcomed_at is 'When the player dismissed the one-time "You''re approved" welcome (null: not yet).';
revoke all on table public.user_account_data from public, anon, authenticated, service_role;
grant select on table public.user_account_data to authenticated;
grant all on table public.user_account_data to service_role;

create index user_account_data_pending_idx on public.user_account_data (created_at) where ((NOT approved) AND (rejected_at IS NULL));
create index user_account_data_approved_by_idx on public.user_account_data (approved_by);
create index user_account_data_created_idx on public.user_account_data (created_at);
create index user_account_data_created_id_idx on public.user_account_data (created_at DESC, id DESC);
create policy "account data: own row or admin" on public.user_account_data
  as permissive for select to authenticated
  using (((id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

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

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function public.is_super_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select a.role = 'super_admin' from public.user_account_data a where a.id = auth.uid()),
    false)
    and private.session_is_aal2()
    and private.factors_proven()
$$;
comment on function public.is_super_admin() is 'True when the caller''s role is super_admin, their session is aal2 (two-step verified) and their authenticator was proven with a code from their inbox.';
revoke all on function public.is_super_admin() from public, anon, authenticated, service_role;
grant execute on function public.is_super_admin() to anon;
grant execute on function public.is_super_admin() to authenticated;
grant execute on function public.is_super_admin() to service_role;

create or replace function public.has_permission(permission text) returns boolean
language sql stable security definer set search_path = '' as $$
  select case
    when not exists (select 1 from public.user_account_data a where a.id = auth.uid()) then false
    when permission in ('read', 'write') then public.is_admin()
    when permission in ('delete', 'manage_users') then public.is_super_admin()
    else false
  end
$$;
comment on function public.has_permission(text) is 'Spec §6: read/write need admin; delete/manage_users need super admin (both with an aal2, two-step verified, session); anything else, or no profile, is denied.';
revoke all on function public.has_permission(text) from public, anon, authenticated, service_role;
grant execute on function public.has_permission(text) to anon;
grant execute on function public.has_permission(text) to authenticated;
grant execute on function public.has_permission(text) to service_role;

create or replace function private.require_user() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
begin
  if private.two_step_owed() then
    raise exception 'Two-step verification required' using errcode = '42501', hint = 'aal2_required';
  end if;
  return uid;
end;
$$;
comment on function private.require_user() is 'The caller''s id; ''User not authenticated'' without one, and ''Two-step verification required'' (aal2_required) when they have a verified second factor and the session has not given it.';
revoke all on function private.require_user() from public, anon, authenticated, service_role;

create or replace function private.require_admin() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
begin
  if not public.is_admin() then
    -- The role is read again only to say why: an admin who has not done two-step yet.
    if exists (select 1 from public.user_account_data a where a.id = uid and a.role in ('admin', 'super_admin')) then
      raise exception 'Two-step verification required' using errcode = '42501', hint = 'aal2_required';
    end if;
    raise exception 'Access denied: Admin privileges required' using errcode = '42501', hint = 'admin_required';
  end if;
  return uid;
end;
$$;
comment on function private.require_admin() is 'The caller''s id when admin with an aal2 session; an admin at aal1 gets ''Two-step verification required'' (aal2_required); anyone else the spec''s 403 message.';
revoke all on function private.require_admin() from public, anon, authenticated, service_role;

create or replace function private.require_super_admin() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
begin
  if not public.is_super_admin() then
    -- Only a super admin is told to verify: a plain admin is refused whatever their session.
    if exists (select 1 from public.user_account_data a where a.id = uid and a.role = 'super_admin') then
      raise exception 'Two-step verification required' using errcode = '42501', hint = 'aal2_required';
    end if;
    raise exception 'Access denied: Super admin privileges required' using errcode = '42501', hint = 'super_admin_required';
  end if;
  return uid;
end;
$$;
comment on function private.require_super_admin() is 'The caller''s id when super admin with an aal2 session; a super admin at aal1 gets ''Two-step verification required'' (aal2_required); anyone else (a plain admin included) the spec''s 403 message.';
revoke all on function private.require_super_admin() from public, anon, authenticated, service_role;

create or replace function private.is_service_role() returns boolean
language sql stable set search_path = '' as $$
  select coalesce(auth.role() = 'service_role', false) or current_user = 'service_role'
$$;
comment on function private.is_service_role() is 'True when the server''s secret key made the call.';
revoke all on function private.is_service_role() from public, anon, authenticated, service_role;

create or replace function private.create_account_rows(p_user uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  u auth.users%rowtype;
  dob date;
  auto_approve boolean := coalesce(private.setting('approval_mode') = '"auto"'::jsonb, false);
begin
  select * into u from auth.users where id = p_user;
  if not found then
    return;
  end if;
  begin
    dob := nullif(u.raw_user_meta_data ->> 'date_of_birth', '')::date;
  exception when others then
    dob := null;
  end;
  insert into public.profiles (id, name, email, date_of_birth)
  values (
    u.id,
    left(coalesce(nullif(trim(u.raw_user_meta_data ->> 'name'), ''), nullif(u.email, ''), 'User'), 100),
    u.email,
    dob)
  on conflict (id) do nothing;
  -- A recreated account row takes its balance from the ledger, which outlives it.
  insert into public.user_account_data (id, credits, approved, approved_at, age_verified)
  values (
    u.id,
    (select coalesce(sum(l.amount), 0) from public.credit_ledger l where l.user_id = u.id),
    auto_approve,
    case when auto_approve then now() end,
    false)
  on conflict (id) do nothing;
end;
$$;
comment on function private.create_account_rows(uuid) is 'Creates the profile and account rows of a user if missing (spec §3 defaults; approval per the approval_mode setting).';
revoke all on function private.create_account_rows(uuid) from public, anon, authenticated, service_role;

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

create or replace function public.invite_super_admin(p_email text, p_another boolean default false) returns void
language plpgsql security definer set search_path = '' as $$
declare
  address text := lower(btrim(p_email));
  holder text;
begin
  perform private.require_server();
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

create or replace function private.sync_profile_email() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set email = new.email, updated_at = now() where id = new.id;
  return new;
end;
$$;
comment on function private.sync_profile_email() is 'Trigger: keeps profiles.email equal to the auth e-mail.';
revoke all on function private.sync_profile_email() from public, anon, authenticated, service_role;

create type public.account as (id uuid, name text, email text, email_notifications boolean, date_of_birth date, town text, show_initials_only boolean, credits numeric(12,2), role public.user_role, approved boolean, approved_at timestamp with time zone, approved_by uuid, rejected_at timestamp with time zone, rejection_reason text, total_spent numeric(12,2), total_entries integer, kyc_status public.kyc_status, is_verified boolean, verified_at timestamp with time zone, age_verified boolean, metadata jsonb, created_at timestamp with time zone);
comment on type public.account is 'A user''s profile merged with their account data (spec §3).';

create or replace function private.account_row(p_user uuid) returns public.account
language sql stable security definer set search_path = '' as $$
  select p.id, p.name, p.email, p.email_notifications, p.date_of_birth, p.town, p.show_initials_only,
         a.credits, a.role, a.approved, a.approved_at, a.approved_by, a.rejected_at, a.rejection_reason,
         a.total_spent, a.total_entries, a.kyc_status, a.is_verified, a.verified_at, a.age_verified, a.metadata,
         p.created_at
  from public.profiles p
  join public.user_account_data a on a.id = p.id
  where p.id = p_user
$$;
comment on function private.account_row(uuid) is 'A user''s profile merged with account data; no row (null) when the user has none.';
revoke all on function private.account_row(uuid) from public, anon, authenticated, service_role;

create type public.my_account as (id uuid, name text, email text, email_notifications boolean, date_of_birth date, town text, show_initials_only boolean, credits numeric(12,2), role public.user_role, approved boolean, approved_at timestamp with time zone, approved_by uuid, rejected_at timestamp with time zone, rejection_reason text, total_spent numeric(12,2), total_entries integer, kyc_status public.kyc_status, is_verified boolean, verified_at timestamp with time zone, age_verified boolean, metadata jsonb, created_at timestamp with time zone, two_step_owed boolean, welcome_due boolean);
comment on type public.my_account is 'The caller''s own account (public.account''s fields), whether the session owes its second step, and whether the "You''re approved" welcome is due.';

-- The latest body (20261127100000_player_two_step) with welcome_due added.
create or replace function public.get_my_account() returns public.my_account
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  result public.my_account;
begin
  if (private.account_row(uid)).id is null then
    -- Spec §4: a missing profile row is created and read again.
    perform private.create_account_rows(uid);
  end if;
  select acct.*, private.two_step_owed(),
         exists (select 1 from public.user_account_data a
                  where a.id = uid and a.approved and a.approval_welcomed_at is null)
    into result
    from private.account_row(uid) acct;
  return result;
end;
$$;
comment on function public.get_my_account() is 'The caller''s profile merged with account data, two_step_owed (a verified second factor the session has not given: everything else refuses until it is) and welcome_due (approved, the "You''re approved" welcome not dismissed yet); creates the rows if missing. Works at aal1.';
revoke all on function public.get_my_account() from public, anon, authenticated, service_role;
grant execute on function public.get_my_account() to authenticated;
grant execute on function public.get_my_account() to service_role;

-- Kept in the database, not only in the address, because the approval reaches the player by e-mail and
-- notification, away from the page they were waiting on.
create or replace function public.my_return_path(p_path text default null) returns text
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  recorded text;
begin
  if p_path is not null and not private.is_return_path(p_path) then
    raise exception 'That is not a page on this site' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- Only while the account waits: once approved or rejected, the approval has been sent with the page it had.
  if p_path is not null then
    update public.user_account_data a
       set return_path = p_path, updated_at = now()
     where a.id = uid and not a.approved and a.rejected_at is null and a.return_path is distinct from p_path;
  end if;
  select a.return_path into recorded from public.user_account_data a where a.id = uid;
  return recorded;
end;
$$;
comment on function public.my_return_path(text) is 'The page the caller came from before waiting for approval, where the approval notification and e-mail lead: p_path (a path on this site, else invalid_input) is recorded first while the account still waits; answers the recorded path, or null.';
revoke all on function public.my_return_path(text) from public, anon, authenticated, service_role;
grant execute on function public.my_return_path(text) to authenticated;

create or replace function public.update_my_profile(
  p_name text default null, p_email_notifications boolean default null, p_town text default null
) returns public.account
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_name is not null and char_length(trim(p_name)) not between 1 and 100 then
    raise exception 'Name must be between 1 and 100 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_town is not null and char_length(trim(p_town)) > 60 then
    raise exception 'Town must be at most 60 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  update public.profiles
     set name = coalesce(trim(p_name), name),
         -- null leaves the town alone; an empty string clears it
         town = case when p_town is null then town else nullif(trim(p_town), '') end,
         email_notifications = coalesce(p_email_notifications, email_notifications),
         updated_at = now()
   where id = uid;
  return private.account_row(uid);
end;
$$;
comment on function public.update_my_profile(text,boolean,text) is 'Updates the caller''s name, notification preference (email_notifications; marketing consent is set_my_marketing_consent) and town (an empty town clears it); null leaves a field alone; returns the merged account.';
revoke all on function public.update_my_profile(text,boolean,text) from public, anon, authenticated, service_role;
grant execute on function public.update_my_profile(text,boolean,text) to authenticated;
grant execute on function public.update_my_profile(text,boolean,text) to service_role;

create or replace function public.admin_list_pending_approvals()
returns table (id uuid, name text, email text, date_of_birth date, created_at timestamptz)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return query
    select p.id, p.name, p.email, p.date_of_birth, a.created_at
      from public.user_account_data a
      join public.profiles p on p.id = a.id
     where not a.approved and a.rejected_at is null
     order by a.created_at;
end;
$$;
comment on function public.admin_list_pending_approvals() is 'Admins: accounts waiting for approval, oldest first.';
revoke all on function public.admin_list_pending_approvals() from public, anon, authenticated, service_role;
grant execute on function public.admin_list_pending_approvals() to authenticated;
grant execute on function public.admin_list_pending_approvals() to service_role;

create or replace function public.admin_approve_user(p_user_id uuid) returns public.account
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  back_to text;
begin
  update public.user_account_data
     set approved = true, approved_at = now(), approved_by = admin_id,
         rejected_at = null, rejection_reason = null, updated_at = now()
   where id = p_user_id
  returning return_path into back_to;
  if not found then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  perform private.log_activity('user.approved', p_user_id);
  -- The mail leads back to the page the player was on when they were asked to wait (public.my_return_path).
  perform private.queue_mail(p_user_id, 'account_approved', 'Your LabCash account is approved',
    format(E'Good news: your LabCash account has been approved. You can now add credit and enter competitions.\n\nCarry on where you left off: %s%s',
           rtrim(coalesce(private.setting('site_url') #>> '{}', 'http://localhost:3000'), '/'), coalesce(back_to, '/account')));
  return private.account_row(p_user_id);
end;
$$;
comment on function public.admin_approve_user(uuid) is 'Admins: approve an account, recording who and when, and e-mail the user a link back to the page they came from (return_path, else the dashboard).';
revoke all on function public.admin_approve_user(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_approve_user(uuid) to authenticated;
grant execute on function public.admin_approve_user(uuid) to service_role;

create or replace function public.admin_reject_user(p_user_id uuid, p_reason text) returns public.account
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
begin
  if p_reason is null or char_length(trim(p_reason)) not between 3 and 500 then
    raise exception 'Give a reason between 3 and 500 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if exists (select 1 from public.user_account_data a where a.id = p_user_id and a.role <> 'user') then
    raise exception 'Admins cannot be rejected: a super admin must change their role first' using errcode = 'P0001', hint = 'admin_not_rejectable';
  end if;
  update public.user_account_data
     set approved = false, approved_at = null, approved_by = null,
         rejected_at = now(), rejection_reason = trim(p_reason), updated_at = now()
   where id = p_user_id;
  if not found then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  perform private.log_activity('user.rejected', p_user_id, jsonb_build_object('reason', trim(p_reason), 'by', admin_id));
  return private.account_row(p_user_id);
end;
$$;
comment on function public.admin_reject_user(uuid,text) is 'Admins: reject an account with a reason.';
revoke all on function public.admin_reject_user(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_reject_user(uuid,text) to authenticated;
grant execute on function public.admin_reject_user(uuid,text) to service_role;

create type public.protection_state as enum ('active', 'break', 'self_exclusion', 'closed');
comment on type public.protection_state is 'What a player may do now: play (active), or not during a break or self-exclusion, or ever again (closed).';

create type public.protections as (monthly_limit numeric, pending_limit numeric, pending_limit_from timestamp with time zone, month_topped_up numeric, month_credited numeric, month_held numeric, month_spent numeric, top_up_remaining numeric, state public.protection_state, break_until timestamp with time zone, closed_at timestamp with time zone, limit_increase_delay_hours numeric, spend_remaining numeric);
comment on type public.protections is 'A player''s protections: the monthly limit (and a pending increase), this month''s figures, what is left of it to top up (top_up_remaining) and to spend on entries (spend_remaining), each null without a limit, and their state.';

create or replace function public.close_account() returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  perform private.create_account_rows(uid);
  perform 1 from public.user_account_data a where a.id = uid for update;
  insert into public.player_protections (user_id) values (uid) on conflict (user_id) do nothing;
  update public.player_protections
     set break_kind = 'closed', closed_at = coalesce(closed_at, now()), updated_at = now()
   where user_id = uid;
  perform private.log_activity('protections.closed', uid, '{}'::jsonb);
  return private.protections_row(uid);
end;
$$;
comment on function public.close_account() is 'Signed-in users: closes the account for good (sign-in and history stay; top-ups, entries and marketing stop). Cannot be undone.';
revoke all on function public.close_account() from public, anon, authenticated, service_role;
grant execute on function public.close_account() to authenticated;
grant execute on function public.close_account() to service_role;

create type public.person_ref as (id uuid, name text);
comment on type public.person_ref is 'A person referred to by their id and name.';

create type public.users_approved as (approved public.person_ref[], skipped integer);
comment on type public.users_approved is 'The accounts a bulk approval approved (id and name) and how many it skipped.';

create or replace function public.admin_approve_users(p_user_ids uuid[]) returns public.users_approved
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  done public.person_ref[] := '{}';
  r record;
begin
  if p_user_ids is null or cardinality(p_user_ids) = 0 then
    raise exception 'Choose at least one account to approve' using errcode = '22023', hint = 'invalid_input';
  end if;
  if cardinality(p_user_ids) > 200 then
    raise exception 'Approve at most 200 accounts at once' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- Only accounts still waiting: one approved or rejected meanwhile is left as it is.
  for r in
    select a.id, p.name
      from public.user_account_data a join public.profiles p on p.id = a.id
     where a.id = any (p_user_ids) and not a.approved and a.rejected_at is null and a.deleted_at is null
     order by a.created_at
       for update of a
  loop
    update public.user_account_data
       set approved = true, approved_at = now(), approved_by = admin_id, updated_at = now()
     where id = r.id;
    perform private.log_activity('user.approved', r.id, jsonb_build_object('bulk', true));
    perform private.queue_mail(r.id, 'account_approved', 'Your LabCash account is approved',
      'Good news: your LabCash account has been approved. You can now add credit and enter competitions.');
    done := done || row(r.id, r.name)::public.person_ref;
  end loop;
  return row(done, cardinality(array(select distinct unnest(p_user_ids))) - cardinality(done))::public.users_approved;
end;
$$;
comment on function public.admin_approve_users(uuid[]) is 'Admins: approves every listed account still waiting (at most 200), e-mails each, audits each (user.approved, bulk); answers who was approved and how many were skipped (approved or rejected meanwhile, or unknown).';
revoke all on function public.admin_approve_users(uuid[]) from public, anon, authenticated, service_role;
grant execute on function public.admin_approve_users(uuid[]) to authenticated;
grant execute on function public.admin_approve_users(uuid[]) to service_role;

create type public.approval_mode as enum ('manual', 'auto');
comment on type public.approval_mode is 'How new accounts are approved: manual (an admin approves each) or auto (approved as they sign up); the approval_mode setting holds one.';

create type public.approval_mode_setting as (approval_mode public.approval_mode);
comment on type public.approval_mode_setting is 'The approval mode, as the approvals screen reads and sets it.';

create or replace function public.admin_get_approval_mode() returns public.approval_mode_setting
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return row(coalesce(private.setting('approval_mode') #>> '{}', 'manual')::public.approval_mode)::public.approval_mode_setting;
end;
$$;
comment on function public.admin_get_approval_mode() is 'Admins: the approval mode, manual (an admin approves each sign-up) or auto (new sign-ups are approved at once).';
revoke all on function public.admin_get_approval_mode() from public, anon, authenticated, service_role;
grant execute on function public.admin_get_approval_mode() to authenticated;
grant execute on function public.admin_get_approval_mode() to service_role;

create or replace function public.admin_set_approval_mode(p_mode text) returns public.approval_mode_setting
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  old_mode text := coalesce(private.setting('approval_mode') #>> '{}', 'manual');
begin
  if p_mode is null or p_mode not in ('manual', 'auto') then
    raise exception 'Approval mode must be manual or auto' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_mode <> old_mode then
    insert into public.app_settings (key, value, updated_at, updated_by)
    values ('approval_mode', to_jsonb(p_mode), now(), admin_id)
    on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by;
    perform private.log_activity('settings.approval_mode', null,
      jsonb_build_object('approval_mode', jsonb_build_object('old', old_mode, 'new', p_mode)));
  end if;
  return row(p_mode::public.approval_mode)::public.approval_mode_setting;
end;
$$;
comment on function public.admin_set_approval_mode(text) is 'Admins: sets the approval mode (manual or auto; auto approves new sign-ups from then on, not those already waiting); audited with old and new (settings.approval_mode).';
revoke all on function public.admin_set_approval_mode(text) from public, anon, authenticated, service_role;
grant execute on function public.admin_set_approval_mode(text) to authenticated;
grant execute on function public.admin_set_approval_mode(text) to service_role;

create or replace function private.session_is_aal2() returns boolean
language sql stable set search_path = '' as $$
  select coalesce(auth.jwt() ->> 'aal' = 'aal2', false)
$$;
comment on function private.session_is_aal2() is 'True when the caller''s token says the session passed two-step verification (aal = aal2).';
revoke all on function private.session_is_aal2() from public, anon, authenticated, service_role;

create or replace function private.require_user_first_step() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := auth.uid();
begin
  if uid is null then
    raise exception 'User not authenticated' using errcode = '42501', hint = 'not_authenticated';
  end if;
  return uid;
end;
$$;
comment on function private.require_user_first_step() is 'The caller''s id, or ''User not authenticated'', even before a verified second factor has been given (aal1): only for the reads the code step and the account shell need, and the admin guards.';
revoke all on function private.require_user_first_step() from public, anon, authenticated, service_role;

create or replace function public.dismiss_approval_welcome() returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  update public.user_account_data set approval_welcomed_at = now()
   where id = uid and approved and approval_welcomed_at is null;
  return found;
end;
$$;
comment on function public.dismiss_approval_welcome() is 'The caller dismisses their own "You''re approved" welcome for good; answers whether it was still showing.';
revoke all on function public.dismiss_approval_welcome() from public, anon, authenticated, service_role;
grant execute on function public.dismiss_approval_welcome() to authenticated;
grant execute on function public.dismiss_approval_welcome() to service_role;

create or replace function private.require_server() returns void
language plpgsql stable set search_path = '' as $$
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
end;
$$;
comment on function private.require_server() is 'Refuses every caller but the server''s secret key.';
revoke all on function private.require_server() from public, anon, authenticated, service_role;

-- One approval rule for every way to spend (enter, hold numbers, spend credit, top up): a rejected account is
-- told so, with what it may not do; any other account not approved, or none, is awaiting approval.
create or replace function private.approval_refusal(p_account public.user_account_data, p_action text) returns jsonb
language sql immutable set search_path = '' as $$
  select case
    when p_account.approved then null
    when p_account.rejected_at is not null then
      jsonb_build_object('code', 'approval_rejected', 'message', 'Your account was not approved, so you cannot ' || p_action)
    else jsonb_build_object('code', 'approval_pending', 'message', 'Your account is awaiting approval')
  end
$$;
comment on function private.approval_refusal(public.user_account_data,text) is 'Why this account may not p_action ({code, message}: approval_rejected or approval_pending), or null when it is approved.';
revoke all on function private.approval_refusal(public.user_account_data,text) from public, anon, authenticated, service_role;

-- The caller passes the account row it has already read (usually locked for update), so the guard reads nothing.
create or replace function private.require_approved(p_account public.user_account_data, p_action text) returns void
language plpgsql stable set search_path = '' as $$
declare
  refusal jsonb := private.approval_refusal(p_account, p_action);
begin
  if refusal is not null then
    perform private.raise_refusal(refusal ->> 'code', refusal ->> 'message');
  end if;
end;
$$;
comment on function private.require_approved(public.user_account_data,text) is 'Refuses an account that is not approved (P0001, approval_rejected or approval_pending); p_action ends the rejected account''s message ("…so you cannot enter competitions").';
revoke all on function private.require_approved(public.user_account_data,text) from public, anon, authenticated, service_role;

-- ----------------------------------------------------------------------------
-- Triggers and policies on tables made elsewhere
-- ----------------------------------------------------------------------------

CREATE TRIGGER on_auth_user_email_changed AFTER UPDATE OF email ON auth.users FOR EACH ROW WHEN ((old.email IS DISTINCT FROM new.email)) EXECUTE FUNCTION private.sync_profile_email();
CREATE TRIGGER on_auth_user_created AFTER INSERT ON auth.users FOR EACH ROW EXECUTE FUNCTION private.handle_new_user();
CREATE TRIGGER on_auth_user_confirmed_invitation AFTER UPDATE OF email_confirmed_at ON auth.users FOR EACH ROW WHEN (((old.email_confirmed_at IS NULL) AND (new.email_confirmed_at IS NOT NULL) AND (new.invited_at IS NOT NULL))) EXECUTE FUNCTION private.grant_invited_super_admin();
