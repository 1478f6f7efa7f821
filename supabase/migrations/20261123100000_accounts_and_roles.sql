-- ============================================================================
-- Accounts and roles: the private schema for internal helpers, profiles and
-- account data, roles and the guards, the rows every new user gets, the
-- caller's own account, and approval by admins.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Privileges every migration relies on
-- ----------------------------------------------------------------------------
-- Postgres lets PUBLIC execute every new function and Supabase grants the API roles
-- everything new in public, so nothing is callable unless a migration grants it.
alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke execute on functions from anon, authenticated;
-- The API roles never insert rows themselves, so they need no sequence.
alter default privileges in schema public revoke all on sequences from anon, authenticated;

-- Internal helpers (ledger posting, mail queueing, the audit log, the guards, the draw
-- internals) live in private. No API role has USAGE on it, so PostgREST cannot expose
-- them and no grant made by mistake can reach them; the public functions, owned by the
-- migration role, call them.
create schema private;
revoke all on schema private from public, anon, authenticated, service_role;
comment on schema private is 'Internal helpers called by the public functions; no API role may use this schema.';

-- ----------------------------------------------------------------------------
-- Profiles and account data
-- ----------------------------------------------------------------------------
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  name text not null default 'User' check (char_length(name) between 1 and 100),
  email text,
  email_notifications boolean not null default true,
  date_of_birth date,
  town text check (town is null or char_length(town) between 1 and 60),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.profiles enable row level security;
comment on table public.profiles is 'A user''s public-facing profile (spec §3): name, notification choice, date of birth, and the town shown with their name if they win (optional).';

create table public.user_account_data (
  id uuid primary key references auth.users (id) on delete cascade,
  credits numeric(12, 2) not null default 0 check (credits >= 0),
  role text not null default 'user' check (role in ('user', 'admin', 'super_admin')),
  approved boolean not null default false,
  approved_at timestamptz,
  approved_by uuid references auth.users (id) on delete set null,
  rejected_at timestamptz,
  rejection_reason text,
  total_spent numeric(12, 2) not null default 0 check (total_spent >= 0),
  total_entries integer not null default 0 check (total_entries >= 0),
  kyc_status text not null default 'none' check (kyc_status in ('none', 'pending', 'verified', 'rejected')),
  is_verified boolean not null default false,
  verified_at timestamptz,
  age_verified boolean not null default false,
  metadata jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.user_account_data enable row level security;
create index user_account_data_pending_idx on public.user_account_data (created_at) where not approved and rejected_at is null;
create index user_account_data_approved_by_idx on public.user_account_data (approved_by);
comment on table public.user_account_data is 'Money, role and approval state of a user (spec §3). credits is a cache of the ledger sum, changed only by ledger functions.';

-- A user reads only their own rows and admins read all (policies below); nobody
-- writes these tables directly: every change goes through the functions in this file.
revoke all on table public.profiles, public.user_account_data from anon, authenticated;
grant select on table public.profiles, public.user_account_data to authenticated;
grant all on table public.profiles, public.user_account_data to service_role;

-- ----------------------------------------------------------------------------
-- Roles and permissions (spec §6)
-- ----------------------------------------------------------------------------
create function public.is_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select a.role in ('admin', 'super_admin') from public.user_account_data a where a.id = auth.uid()),
    false)
$$;
comment on function public.is_admin() is 'True when the caller''s role is admin or super_admin.';

create function public.is_super_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select a.role = 'super_admin' from public.user_account_data a where a.id = auth.uid()),
    false)
$$;
comment on function public.is_super_admin() is 'True when the caller''s role is super_admin.';

create function public.has_permission(permission text) returns boolean
language sql stable security definer set search_path = '' as $$
  select case
    when not exists (select 1 from public.user_account_data a where a.id = auth.uid()) then false
    when permission in ('read', 'write') then public.is_admin()
    when permission in ('delete', 'manage_users') then public.is_super_admin()
    else false
  end
$$;
comment on function public.has_permission(text) is 'Spec §6: read/write need admin; delete/manage_users need super admin; anything else, or no profile, is denied.';

-- Public because row-level policies call them as the querying role.
grant execute on function public.is_admin(), public.is_super_admin(), public.has_permission(text)
  to anon, authenticated, service_role;

create policy "profiles: own row or admin" on public.profiles
  for select to authenticated using (id = (select auth.uid()) or (select public.is_admin()));
create policy "account data: own row or admin" on public.user_account_data
  for select to authenticated using (id = (select auth.uid()) or (select public.is_admin()));

-- ----------------------------------------------------------------------------
-- Guards used by every function that needs a caller
-- ----------------------------------------------------------------------------
create function private.require_user() returns uuid
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
comment on function private.require_user() is 'The caller''s id, or ''User not authenticated''.';

create function private.require_admin() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if not public.is_admin() then
    raise exception 'Access denied: Admin privileges required' using errcode = '42501', hint = 'admin_required';
  end if;
  return uid;
end;
$$;
comment on function private.require_admin() is 'The caller''s id when admin, else the spec''s 403 message.';

create function private.require_super_admin() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if not public.is_super_admin() then
    raise exception 'Access denied: Super admin privileges required' using errcode = '42501', hint = 'super_admin_required';
  end if;
  return uid;
end;
$$;
comment on function private.require_super_admin() is 'The caller''s id when super admin, else the spec''s 403 message.';

create function private.is_service_role() returns boolean
language sql stable set search_path = '' as $$
  select coalesce(auth.role() = 'service_role', false) or current_user = 'service_role'
$$;
comment on function private.is_service_role() is 'True when the server''s secret key made the call.';

-- ----------------------------------------------------------------------------
-- New users: profile and account rows (spec §3 defaults)
-- ----------------------------------------------------------------------------
create function private.create_account_rows(p_user uuid) returns void
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

create function private.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  dob date;
begin
  begin
    dob := nullif(new.raw_user_meta_data ->> 'date_of_birth', '')::date;
  exception when others then
    raise exception 'Date of birth is not a valid date' using errcode = '22007', hint = 'invalid_input';
  end;
  if dob is not null and dob > (current_date - interval '18 years')::date then
    raise exception 'You must be 18 or over to join LabCash' using errcode = '22023', hint = 'under_18';
  end if;
  perform private.create_account_rows(new.id);
  perform private.log_activity('user.signed_up', new.id, jsonb_build_object('email', new.email));
  return new;
end;
$$;
comment on function private.handle_new_user() is 'Trigger: a new auth user gets a profile and account data; under-18 dates of birth are refused.';

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_user();

create function private.sync_profile_email() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set email = new.email, updated_at = now() where id = new.id;
  return new;
end;
$$;
comment on function private.sync_profile_email() is 'Trigger: keeps profiles.email equal to the auth e-mail.';

create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function private.sync_profile_email();

-- ----------------------------------------------------------------------------
-- The caller's own account
-- ----------------------------------------------------------------------------
create function private.account_json(p_user uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'id', p.id,
    'name', p.name,
    'email', p.email,
    'email_notifications', p.email_notifications,
    'date_of_birth', p.date_of_birth,
    'town', p.town,
    'credits', a.credits,
    'role', a.role,
    'approved', a.approved,
    'approved_at', a.approved_at,
    'approved_by', a.approved_by,
    'rejected_at', a.rejected_at,
    'rejection_reason', a.rejection_reason,
    'total_spent', a.total_spent,
    'total_entries', a.total_entries,
    'kyc_status', a.kyc_status,
    'is_verified', a.is_verified,
    'verified_at', a.verified_at,
    'age_verified', a.age_verified,
    'metadata', a.metadata,
    'created_at', p.created_at)
  from public.profiles p
  join public.user_account_data a on a.id = p.id
  where p.id = p_user
$$;
comment on function private.account_json(uuid) is 'A user''s profile merged with account data, as JSON.';

create function public.get_my_account() returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  result jsonb := private.account_json(uid);
begin
  if result is null then
    -- Spec §4: a missing profile row is created and read again.
    perform private.create_account_rows(uid);
    result := private.account_json(uid);
  end if;
  return result;
end;
$$;
comment on function public.get_my_account() is 'The caller''s profile merged with account data; creates the rows if missing.';
grant execute on function public.get_my_account() to authenticated;

create function public.update_my_profile(
  p_name text default null, p_email_notifications boolean default null, p_town text default null
) returns jsonb
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
         email_notifications = coalesce(p_email_notifications, email_notifications),
         -- null leaves the town alone; an empty string clears it
         town = case when p_town is null then town else nullif(trim(p_town), '') end,
         updated_at = now()
   where id = uid;
  return private.account_json(uid);
end;
$$;
comment on function public.update_my_profile(text, boolean, text) is 'Updates the caller''s name, e-mail notification choice and town (an empty town clears it); returns the merged account.';
grant execute on function public.update_my_profile(text, boolean, text) to authenticated;

-- ----------------------------------------------------------------------------
-- Approval (admins)
-- ----------------------------------------------------------------------------
create function public.admin_list_pending_approvals()
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
grant execute on function public.admin_list_pending_approvals() to authenticated;

create function public.admin_approve_user(p_user_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
begin
  update public.user_account_data
     set approved = true, approved_at = now(), approved_by = admin_id,
         rejected_at = null, rejection_reason = null, updated_at = now()
   where id = p_user_id;
  if not found then
    raise exception 'No such user' using errcode = 'P0002', hint = 'user_not_found';
  end if;
  perform private.log_activity('user.approved', p_user_id);
  perform private.queue_mail(p_user_id, 'account_approved', 'Your LabCash account is approved',
    'Good news: your LabCash account has been approved. You can now add credit and enter competitions.');
  return private.account_json(p_user_id);
end;
$$;
comment on function public.admin_approve_user(uuid) is 'Admins: approve an account, recording who and when, and e-mail the user.';
grant execute on function public.admin_approve_user(uuid) to authenticated;

create function public.admin_reject_user(p_user_id uuid, p_reason text) returns jsonb
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
    raise exception 'No such user' using errcode = 'P0002', hint = 'user_not_found';
  end if;
  perform private.log_activity('user.rejected', p_user_id, jsonb_build_object('reason', trim(p_reason), 'by', admin_id));
  return private.account_json(p_user_id);
end;
$$;
comment on function public.admin_reject_user(uuid, text) is 'Admins: reject an account with a reason.';
grant execute on function public.admin_reject_user(uuid, text) to authenticated;
