-- ============================================================================
-- Foundation: profiles, account data, the credit ledger, roles, approval,
-- settings, the activity log and the mail outbox.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- Functions are not executable by everyone unless a migration says so.
alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke execute on functions from anon, authenticated;

-- ----------------------------------------------------------------------------
-- Settings (key/value, read by functions; written by admins through RPCs)
-- ----------------------------------------------------------------------------
create table public.app_settings (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);
alter table public.app_settings enable row level security;
revoke all on table public.app_settings from anon, authenticated;
comment on table public.app_settings is 'Operator settings such as the approval mode; read and written only through functions.';

-- site_url: the public origin, for links in e-mails (set it to the production domain).
insert into public.app_settings (key, value) values
  ('approval_mode', '"manual"'::jsonb),
  ('site_url', '"http://localhost:3000"'::jsonb);

create function public.setting(p_key text) returns jsonb
language sql stable security definer set search_path = '' as $$
  select value from public.app_settings where key = p_key
$$;
comment on function public.setting(text) is 'Internal: the value of one app setting (null when unset).';
revoke execute on function public.setting(text) from public, anon, authenticated, service_role;

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
comment on table public.user_account_data is 'Money, role and approval state of a user (spec §3). credits is a cache of the ledger sum, changed only by ledger functions.';

create index user_account_data_pending_idx on public.user_account_data (created_at) where not approved and rejected_at is null;

-- ----------------------------------------------------------------------------
-- Credit ledger (append-only)
-- ----------------------------------------------------------------------------
create table public.credit_ledger (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in ('top_up', 'bonus', 'entry', 'refund', 'admin_adjustment', 'spinner_prize', 'debit')),
  amount numeric(12, 2) not null check (amount <> 0),
  balance_after numeric(12, 2) not null check (balance_after >= 0),
  transaction_amount numeric(12, 2),
  reason text,
  reference text,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
alter table public.credit_ledger enable row level security;
create index credit_ledger_user_idx on public.credit_ledger (user_id, id desc);
comment on table public.credit_ledger is 'Every movement of credit, append-only. A user''s balance equals the sum of their rows.';

create function public.forbid_ledger_change() returns trigger
language plpgsql set search_path = '' as $$
begin
  raise exception 'The credit ledger is append-only' using errcode = '42501', hint = 'ledger_append_only';
end;
$$;
comment on function public.forbid_ledger_change() is 'Trigger: refuses updates, deletes and truncation of the append-only ledger.';
revoke execute on function public.forbid_ledger_change() from public, anon, authenticated, service_role;

create trigger credit_ledger_append_only
  before update or delete on public.credit_ledger
  for each row execute function public.forbid_ledger_change();

-- Row triggers do not fire on TRUNCATE, which service_role's grant includes.
create trigger credit_ledger_no_truncate
  before truncate on public.credit_ledger
  for each statement execute function public.forbid_ledger_change();

-- ----------------------------------------------------------------------------
-- Activity log and mail outbox
-- ----------------------------------------------------------------------------
create table public.activity_log (
  id bigint generated always as identity primary key,
  actor_id uuid references auth.users (id) on delete set null,
  action text not null,
  subject_id uuid,
  details jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
alter table public.activity_log enable row level security;
create index activity_log_created_idx on public.activity_log (created_at desc);
comment on table public.activity_log is 'Audit log of admin actions and key user events.';

create table public.mail_outbox (
  id bigint generated always as identity primary key,
  to_email text not null,
  to_user uuid references auth.users (id) on delete set null,
  kind text not null,
  subject text not null,
  body_text text not null,
  status text not null default 'queued' check (status in ('queued', 'sent', 'failed')),
  error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
alter table public.mail_outbox enable row level security;
create index mail_outbox_queued_idx on public.mail_outbox (id) where status = 'queued';
comment on table public.mail_outbox is 'Mail the app sends; delivered by the mail adapter (SMTP when configured), kept here either way.';

create function public.log_activity(p_action text, p_subject uuid, p_details jsonb default '{}'::jsonb) returns void
language sql security definer set search_path = '' as $$
  insert into public.activity_log (actor_id, action, subject_id, details)
  values (auth.uid(), p_action, p_subject, coalesce(p_details, '{}'::jsonb))
$$;
comment on function public.log_activity(text, uuid, jsonb) is 'Internal: append one audit row for the current caller.';
revoke execute on function public.log_activity(text, uuid, jsonb) from public, anon, authenticated, service_role;

create function public.queue_mail(p_user uuid, p_kind text, p_subject text, p_body text) returns void
language sql security definer set search_path = '' as $$
  insert into public.mail_outbox (to_email, to_user, kind, subject, body_text)
  select u.email, u.id, p_kind, p_subject, p_body from auth.users u where u.id = p_user and u.email is not null
$$;
comment on function public.queue_mail(uuid, text, text, text) is 'Internal: queue one e-mail to a user.';
revoke execute on function public.queue_mail(uuid, text, text, text) from public, anon, authenticated, service_role;

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

grant execute on function public.is_admin(), public.is_super_admin(), public.has_permission(text)
  to anon, authenticated, service_role;

-- Guards used by every function that needs a caller.
create function public.require_user() returns uuid
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
comment on function public.require_user() is 'Internal: the caller''s id, or ''User not authenticated''.';

create function public.require_admin() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := public.require_user();
begin
  if not public.is_admin() then
    raise exception 'Access denied: Admin privileges required' using errcode = '42501', hint = 'admin_required';
  end if;
  return uid;
end;
$$;
comment on function public.require_admin() is 'Internal: the caller''s id when admin, else the spec''s 403 message.';

create function public.require_super_admin() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := public.require_user();
begin
  if not public.is_super_admin() then
    raise exception 'Access denied: Super admin privileges required' using errcode = '42501', hint = 'super_admin_required';
  end if;
  return uid;
end;
$$;
comment on function public.require_super_admin() is 'Internal: the caller''s id when super admin, else the spec''s 403 message.';

create function public.is_service_role() returns boolean
language sql stable set search_path = '' as $$
  select coalesce(auth.role() = 'service_role', false) or current_user = 'service_role'
$$;
comment on function public.is_service_role() is 'Internal: true when the server''s secret key made the call.';

revoke execute on function public.require_user(), public.require_admin(), public.require_super_admin(),
  public.is_service_role() from public, anon, authenticated;
grant execute on function public.require_user(), public.require_admin(), public.require_super_admin(),
  public.is_service_role() to authenticated, service_role;

-- ----------------------------------------------------------------------------
-- New users: profile and account rows (spec §3 defaults)
-- ----------------------------------------------------------------------------
create function public.create_account_rows(p_user uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  u auth.users%rowtype;
  dob date;
  auto_approve boolean := coalesce(public.setting('approval_mode') = '"auto"'::jsonb, false);
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
comment on function public.create_account_rows(uuid) is 'Internal: creates the profile and account rows of a user if missing (spec §3 defaults; approval per the approval_mode setting).';
revoke execute on function public.create_account_rows(uuid) from public, anon, authenticated, service_role;

create function public.handle_new_user() returns trigger
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
  perform public.create_account_rows(new.id);
  perform public.log_activity('user.signed_up', new.id, jsonb_build_object('email', new.email));
  return new;
end;
$$;
comment on function public.handle_new_user() is 'Trigger: a new auth user gets a profile and account data; under-18 dates of birth are refused.';
revoke execute on function public.handle_new_user() from public, anon, authenticated, service_role;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

create function public.sync_profile_email() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set email = new.email, updated_at = now() where id = new.id;
  return new;
end;
$$;
comment on function public.sync_profile_email() is 'Trigger: keeps profiles.email equal to the auth e-mail.';
revoke execute on function public.sync_profile_email() from public, anon, authenticated, service_role;

create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function public.sync_profile_email();

-- ----------------------------------------------------------------------------
-- The caller's own account
-- ----------------------------------------------------------------------------
create function public.account_json(p_user uuid) returns jsonb
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
comment on function public.account_json(uuid) is 'Internal: a user''s profile merged with account data, as JSON.';
revoke execute on function public.account_json(uuid) from public, anon, authenticated, service_role;

create function public.get_my_account() returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := public.require_user();
  result jsonb := public.account_json(uid);
begin
  if result is null then
    -- Spec §4: a missing profile row is created and read again.
    perform public.create_account_rows(uid);
    result := public.account_json(uid);
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
  uid uuid := public.require_user();
begin
  if p_name is not null and char_length(trim(p_name)) not between 1 and 100 then
    raise exception 'Name must be between 1 and 100 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_town is not null and char_length(trim(p_town)) > 60 then
    raise exception 'Town must be at most 60 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform public.create_account_rows(uid);
  update public.profiles
     set name = coalesce(trim(p_name), name),
         email_notifications = coalesce(p_email_notifications, email_notifications),
         -- null leaves the town alone; an empty string clears it
         town = case when p_town is null then town else nullif(trim(p_town), '') end,
         updated_at = now()
   where id = uid;
  return public.account_json(uid);
end;
$$;
comment on function public.update_my_profile(text, boolean, text) is 'Updates the caller''s name, e-mail notification choice and town (an empty town clears it); returns the merged account.';
grant execute on function public.update_my_profile(text, boolean, text) to authenticated;

-- ----------------------------------------------------------------------------
-- Credits (spec §7): the only functions that move money write a ledger row.
-- ----------------------------------------------------------------------------
create function public.post_ledger(
  p_user uuid, p_kind text, p_amount numeric, p_reason text, p_reference text,
  p_transaction_amount numeric default null
) returns numeric
language plpgsql security definer set search_path = '' as $$
declare
  new_balance numeric(12, 2);
begin
  if p_amount is null or p_amount = 0 or p_amount <> round(p_amount, 2) then
    raise exception 'Amount must be a non-zero number of pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.user_account_data
     set credits = credits + p_amount, updated_at = now()
   where id = p_user
  returning credits into new_balance;
  if not found then
    raise exception 'No such user' using errcode = 'P0002', hint = 'user_not_found';
  end if;
  insert into public.credit_ledger (user_id, kind, amount, balance_after, reason, reference, transaction_amount, created_by)
  values (p_user, p_kind, p_amount, new_balance, p_reason, p_reference, p_transaction_amount, auth.uid());
  return new_balance;
end;
$$;
comment on function public.post_ledger(uuid, text, numeric, text, text, numeric) is 'Internal: moves credit and appends the ledger row in one statement pair; the balance check constraint refuses overdrafts.';
revoke execute on function public.post_ledger(uuid, text, numeric, text, text, numeric) from public, anon, authenticated, service_role;

create function public.get_credit_balance(user_id uuid) returns numeric
language plpgsql stable security definer set search_path = '' as $$
declare
  balance numeric(12, 2);
begin
  if not public.is_service_role() then
    perform public.require_user();
    if get_credit_balance.user_id is distinct from auth.uid() and not public.is_admin() then
      raise exception 'Access denied: Admin privileges required' using errcode = '42501', hint = 'admin_required';
    end if;
  end if;
  select a.credits into balance from public.user_account_data a where a.id = get_credit_balance.user_id;
  return coalesce(balance, 0);
end;
$$;
comment on function public.get_credit_balance(uuid) is 'A user''s credit balance; the user themself, an admin or the server may ask.';
grant execute on function public.get_credit_balance(uuid) to authenticated, service_role;

create function public.add_credits(user_id uuid, amount numeric, transaction_amount numeric default null)
returns numeric
language plpgsql security definer set search_path = '' as $$
begin
  if not public.is_service_role() then
    perform public.require_admin();
  end if;
  if add_credits.amount is null or add_credits.amount <= 0 then
    raise exception 'Amount must be more than zero' using errcode = '22023', hint = 'invalid_input';
  end if;
  if add_credits.amount > 100000 then
    raise exception 'Amount is over the limit of 100000 credits' using errcode = '22023', hint = 'invalid_input';
  end if;
  if add_credits.transaction_amount < 0 or add_credits.transaction_amount <> round(add_credits.transaction_amount, 2) then
    raise exception 'The amount paid must be zero or more, in pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform public.create_account_rows(add_credits.user_id);
  return public.post_ledger(
    add_credits.user_id,
    case when add_credits.transaction_amount is not null and add_credits.transaction_amount > 0 then 'top_up' else 'admin_adjustment' end,
    add_credits.amount,
    case when add_credits.transaction_amount is not null then 'Credit purchase' else 'Credit added' end,
    null,
    add_credits.transaction_amount);
end;
$$;
comment on function public.add_credits(uuid, numeric, numeric) is 'Adds credit to a user (a top-up when transaction_amount is the money paid). Server (secret key) and admins only. Returns the new balance.';
grant execute on function public.add_credits(uuid, numeric, numeric) to authenticated, service_role;

create function public.deduct_credits(user_id uuid, amount numeric) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data%rowtype;
begin
  if not public.is_service_role() then
    perform public.require_user();
    if deduct_credits.user_id is distinct from auth.uid() and not public.is_admin() then
      raise exception 'Access denied: Admin privileges required' using errcode = '42501', hint = 'admin_required';
    end if;
  end if;
  if deduct_credits.amount is null or deduct_credits.amount <= 0 or deduct_credits.amount <> round(deduct_credits.amount, 2) then
    raise exception 'Amount must be more than zero, in pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- Lock the account row so concurrent deductions queue instead of overdrawing.
  select * into acct from public.user_account_data a where a.id = deduct_credits.user_id for update;
  if not found then
    return false;
  end if;
  if not acct.approved and not public.is_service_role() then
    raise exception 'Your account is awaiting approval' using errcode = 'P0001', hint = 'approval_pending';
  end if;
  if acct.credits < deduct_credits.amount then
    return false;
  end if;
  perform public.post_ledger(deduct_credits.user_id, 'debit', -deduct_credits.amount, 'Credit spent', null);
  return true;
end;
$$;
comment on function public.deduct_credits(uuid, numeric) is 'Takes credit from a user if the balance covers it (true) or changes nothing (false). Never overdraws.';
grant execute on function public.deduct_credits(uuid, numeric) to authenticated, service_role;

create function public.get_my_ledger(p_limit integer default 50, p_before bigint default null)
returns table (id bigint, kind text, amount numeric, balance_after numeric, reason text, reference text, created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select l.id, l.kind, l.amount, l.balance_after, l.reason, l.reference, l.created_at
    from public.credit_ledger l
   where l.user_id = public.require_user()
     and (p_before is null or l.id < p_before)
   order by l.id desc
   limit least(greatest(coalesce(p_limit, 50), 1), 200)
$$;
comment on function public.get_my_ledger(integer, bigint) is 'The caller''s ledger, newest first, paged by id.';
grant execute on function public.get_my_ledger(integer, bigint) to authenticated;

-- ----------------------------------------------------------------------------
-- Approval (admins)
-- ----------------------------------------------------------------------------
create function public.admin_list_pending_approvals()
returns table (id uuid, name text, email text, date_of_birth date, created_at timestamptz)
language plpgsql stable security definer set search_path = '' as $$
begin
  perform public.require_admin();
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
  admin_id uuid := public.require_admin();
begin
  update public.user_account_data
     set approved = true, approved_at = now(), approved_by = admin_id,
         rejected_at = null, rejection_reason = null, updated_at = now()
   where id = p_user_id;
  if not found then
    raise exception 'No such user' using errcode = 'P0002', hint = 'user_not_found';
  end if;
  perform public.log_activity('user.approved', p_user_id);
  perform public.queue_mail(p_user_id, 'account_approved', 'Your LabCash account is approved',
    'Good news: your LabCash account has been approved. You can now add credit and enter competitions.');
  return public.account_json(p_user_id);
end;
$$;
comment on function public.admin_approve_user(uuid) is 'Admins: approve an account, recording who and when, and e-mail the user.';
grant execute on function public.admin_approve_user(uuid) to authenticated;

create function public.admin_reject_user(p_user_id uuid, p_reason text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := public.require_admin();
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
  perform public.log_activity('user.rejected', p_user_id, jsonb_build_object('reason', trim(p_reason), 'by', admin_id));
  return public.account_json(p_user_id);
end;
$$;
comment on function public.admin_reject_user(uuid, text) is 'Admins: reject an account with a reason.';
grant execute on function public.admin_reject_user(uuid, text) to authenticated;

-- ----------------------------------------------------------------------------
-- Row-level security: a user reads only their own rows; admins read all.
-- Nobody writes tables directly: every change goes through the functions above.
-- ----------------------------------------------------------------------------
revoke all on table public.profiles, public.user_account_data, public.credit_ledger,
  public.activity_log, public.mail_outbox from anon, authenticated;
grant select on table public.profiles, public.user_account_data, public.credit_ledger to authenticated;
grant select on table public.activity_log, public.mail_outbox to authenticated;
grant all on table public.profiles, public.user_account_data, public.credit_ledger,
  public.activity_log, public.mail_outbox, public.app_settings to service_role;

create policy "profiles: own row or admin" on public.profiles
  for select to authenticated using (id = (select auth.uid()) or (select public.is_admin()));
create policy "account data: own row or admin" on public.user_account_data
  for select to authenticated using (id = (select auth.uid()) or (select public.is_admin()));
create policy "ledger: own rows or admin" on public.credit_ledger
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "activity: admins" on public.activity_log
  for select to authenticated using ((select public.is_admin()));
create policy "mail outbox: admins" on public.mail_outbox
  for select to authenticated using ((select public.is_admin()));
