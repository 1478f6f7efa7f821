-- ============================================================================
-- Admin console, users and approvals (issue 11 items 3 and 4): the users list
-- (search, filters, keyset pages), one user's page (profile, balance, ledger,
-- entries, activity, limits and breaks), edits (name, approval, KYC status),
-- the role (super admins only), credit adjustments with a reason (a super admin
-- above the large_adjustment_threshold setting; never one's own), deletion as
-- anonymisation (super admins only), bulk approval and the approval mode.
-- Every function checks its caller first (private.require_admin or
-- private.require_super_admin) and every change is audited with old and new values.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Settings and columns
-- ----------------------------------------------------------------------------
-- large_adjustment_threshold: a credit adjustment of more than this many pounds (either way)
-- needs a super admin.
insert into public.app_settings (key, value) values ('large_adjustment_threshold', '100'::jsonb)
on conflict (key) do nothing;

alter table public.user_account_data add column deleted_at timestamptz;
comment on column public.user_account_data.deleted_at is 'When a super admin deleted (anonymised) the account: personal data cleared, sign-in impossible, ledger and tickets kept.';

-- The users list: newest first, keyset by (created_at, id).
create index user_account_data_created_id_idx on public.user_account_data (created_at desc, id desc);

-- ----------------------------------------------------------------------------
-- Helpers
-- ----------------------------------------------------------------------------
create function private.admin_user_target(p_user_id uuid, p_lock boolean default false) returns public.user_account_data
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data%rowtype;
begin
  if p_lock then
    select * into acct from public.user_account_data a where a.id = p_user_id for update;
  else
    select * into acct from public.user_account_data a where a.id = p_user_id;
  end if;
  if not found then
    raise exception 'No such user' using errcode = 'P0002', hint = 'user_not_found';
  end if;
  return acct;
end;
$$;
comment on function private.admin_user_target(uuid, boolean) is 'The account row an admin function works on (locked when asked), or ''No such user'' (user_not_found).';

create function private.refuse_deleted(acct public.user_account_data) returns void
language plpgsql immutable set search_path = '' as $$
begin
  if acct.deleted_at is not null then
    raise exception 'This account was deleted; it cannot be changed' using errcode = 'P0001', hint = 'user_deleted';
  end if;
end;
$$;
comment on function private.refuse_deleted(public.user_account_data) is 'Refuses changes to a deleted (anonymised) account (user_deleted).';

create function private.admin_user_row(p_user_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'id', a.id,
    'name', p.name,
    'email', p.email,
    'role', a.role,
    'approval', case when a.deleted_at is not null then 'deleted'
                     when a.approved then 'approved'
                     when a.rejected_at is not null then 'rejected'
                     else 'pending' end,
    'kyc_status', a.kyc_status,
    'credits', a.credits,
    'created_at', a.created_at,
    'deleted_at', a.deleted_at)
  from public.user_account_data a
  join public.profiles p on p.id = a.id
  where a.id = p_user_id
$$;
comment on function private.admin_user_row(uuid) is 'One user as the admin users list shows them: name, e-mail, role, approval (approved, pending, rejected or deleted), KYC status, balance, dates.';

-- ----------------------------------------------------------------------------
-- The users list
-- ----------------------------------------------------------------------------
create function public.admin_list_users(
  p_search text default null, p_role text default null, p_approval text default null, p_kyc text default null,
  p_cursor text default null, p_limit integer default 25, p_flagged boolean default null
) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 100);
  search text := nullif(trim(p_search), '');
  pattern text;
  search_id uuid;
  cursor_at timestamptz;
  cursor_id uuid;
  page_rows jsonb;
  fetched integer;
  next_cursor text;
begin
  perform private.require_admin();
  if char_length(search) > 200 then
    raise exception 'Search for at most 200 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_role is not null and p_role not in ('user', 'admin', 'super_admin') then
    raise exception 'Unknown role: %', p_role using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_approval is not null and p_approval not in ('approved', 'pending', 'rejected', 'deleted') then
    raise exception 'Unknown approval state: %', p_approval using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_kyc is not null and p_kyc not in ('none', 'pending', 'verified', 'rejected') then
    raise exception 'Unknown KYC status: %', p_kyc using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The cursor is what next_cursor said: the last row's created_at (seconds since the epoch, a dot,
  -- six digits of microseconds: exact, no floating point) and its id.
  if p_cursor is not null then
    if p_cursor !~ '^[0-9]{1,12}\.[0-9]{6}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'That page link is not valid' using errcode = '22023', hint = 'invalid_input';
    end if;
    cursor_at := to_timestamp(split_part(split_part(p_cursor, ':', 1), '.', 1)::bigint)
                 + split_part(split_part(p_cursor, ':', 1), '.', 2)::integer * interval '1 microsecond';
    cursor_id := split_part(p_cursor, ':', 2)::uuid;
  end if;
  if search ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    search_id := search::uuid;
  elsif search is not null then
    pattern := '%' || replace(replace(replace(search, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;

  select coalesce(jsonb_agg(private.admin_user_row(r.id) order by r.created_at desc, r.id desc)
                    filter (where r.n <= page_size), '[]'::jsonb),
         count(*)
    into page_rows, fetched
    from (select a.id, a.created_at, row_number() over (order by a.created_at desc, a.id desc) as n
            from public.user_account_data a
            join public.profiles p on p.id = a.id
           where (search is null or a.id = search_id or p.name ilike pattern or p.email ilike pattern)
             and (p_role is null or a.role = p_role)
             and (p_kyc is null or a.kyc_status = p_kyc)
             -- Flagged: with a player-protection flag awaiting review (player_flags, *_player_protection.sql).
             and (p_flagged is null
                  or p_flagged = exists (select 1 from public.player_flags f where f.user_id = a.id and f.status = 'open'))
             and (p_approval is null
                  or (p_approval = 'deleted' and a.deleted_at is not null)
                  or (p_approval = 'approved' and a.deleted_at is null and a.approved)
                  or (p_approval = 'rejected' and a.deleted_at is null and not a.approved and a.rejected_at is not null)
                  or (p_approval = 'pending' and a.deleted_at is null and not a.approved and a.rejected_at is null))
             and (cursor_at is null or (a.created_at, a.id) < (cursor_at, cursor_id))
           order by a.created_at desc, a.id desc
           limit page_size + 1) r;

  if fetched > page_size then
    select (extract(epoch from date_trunc('second', a.created_at)))::bigint || '.'
           || lpad((extract(microseconds from a.created_at)::bigint % 1000000)::text, 6, '0') || ':' || a.id
      into next_cursor
      from public.user_account_data a
     where a.id = ((page_rows -> (page_size - 1)) ->> 'id')::uuid;
  end if;
  return jsonb_build_object('rows', page_rows, 'next_cursor', next_cursor);
end;
$$;
comment on function public.admin_list_users(text, text, text, text, text, integer, boolean) is 'Admins: one page of users, newest first (keyset: pass next_cursor as p_cursor), searched by name or e-mail (a substring, case ignored) or id, filtered by role, approval (approved, pending, rejected, deleted), KYC status and flagged (true: with a player-protection flag awaiting review; false: without).';
grant execute on function public.admin_list_users(text, text, text, text, text, integer, boolean) to authenticated;

-- ----------------------------------------------------------------------------
-- One user
-- ----------------------------------------------------------------------------
create function public.admin_get_user(p_user_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data;
begin
  perform private.require_admin();
  acct := private.admin_user_target(p_user_id);
  return jsonb_build_object(
    'user', private.admin_user_row(p_user_id) || jsonb_build_object(
      'date_of_birth', (select p.date_of_birth from public.profiles p where p.id = p_user_id),
      'town', (select p.town from public.profiles p where p.id = p_user_id),
      'email_notifications', (select p.email_notifications from public.profiles p where p.id = p_user_id),
      'approved_at', acct.approved_at,
      'approved_by_name', (select p.name from public.profiles p where p.id = acct.approved_by),
      'rejected_at', acct.rejected_at,
      'rejection_reason', acct.rejection_reason,
      'total_spent', acct.total_spent,
      'total_entries', acct.total_entries,
      'verified_at', acct.verified_at),
    -- Limits and breaks; a deleted account shows what it had.
    'protections', private.protections_json(p_user_id),
    'entries', (select coalesce(jsonb_agg(jsonb_build_object(
                  'id', e.id, 'competition_id', e.competition_id, 'competition_title', c.title,
                  'kind', e.kind, 'quantity', e.quantity, 'amount', e.amount, 'status', e.status,
                  'first_ticket', e.first_ticket, 'last_ticket', e.first_ticket + e.quantity - 1,
                  'created_at', e.created_at) order by e.created_at desc), '[]'::jsonb)
                  from (select * from public.entries x where x.user_id = p_user_id
                         order by x.created_at desc limit 50) e
                  join public.competitions c on c.id = e.competition_id),
    'activity', (select coalesce(jsonb_agg(jsonb_build_object(
                   'id', l.id, 'action', l.action, 'created_at', l.created_at, 'details', l.details,
                   'actor_id', l.actor_id, 'actor_name', ap.name,
                   'role', case when l.subject_id = p_user_id then 'subject' else 'actor' end)
                   order by l.id desc), '[]'::jsonb)
                   from (select * from public.activity_log x
                          where x.subject_id = p_user_id or x.actor_id = p_user_id
                          order by x.id desc limit 20) l
                   left join public.profiles ap on ap.id = l.actor_id),
    'large_adjustment_threshold', (private.setting('large_adjustment_threshold'))::numeric);
end;
$$;
comment on function public.admin_get_user(uuid) is 'Admins: one user''s page: profile and account (user), limits and breaks (protections, as the player sees them), the 50 latest entries, the 20 latest activity rows about or by them, and the large-adjustment threshold. The ledger is paged by admin_user_ledger.';
grant execute on function public.admin_get_user(uuid) to authenticated;

create function public.admin_user_ledger(p_user_id uuid, p_before bigint default null, p_limit integer default 25)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 200);
  page_rows jsonb;
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.admin_user_target(p_user_id);
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', r.id, 'kind', r.kind, 'amount', r.amount, 'balance_after', r.balance_after, 'reason', r.reason,
           'reference', r.reference, 'created_at', r.created_at, 'created_by_name', cb.name)
           order by r.id desc) filter (where r.n <= page_size), '[]'::jsonb),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select l.*, row_number() over (order by l.id desc) as n
            from public.credit_ledger l
           where l.user_id = p_user_id and (p_before is null or l.id < p_before)
           order by l.id desc
           limit page_size + 1) r
    left join public.profiles cb on cb.id = r.created_by;
  return jsonb_build_object('rows', page_rows, 'next_before', case when fetched > page_size then last_id end);
end;
$$;
comment on function public.admin_user_ledger(uuid, bigint, integer) is 'Admins: one page of a user''s credit ledger, newest first (keyset: pass next_before), with who posted each row.';
grant execute on function public.admin_user_ledger(uuid, bigint, integer) to authenticated;

-- ----------------------------------------------------------------------------
-- Edits
-- ----------------------------------------------------------------------------
create function public.admin_update_user(p_user_id uuid, p_name text, p_approval text, p_kyc_status text)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  acct public.user_account_data;
  old_name text;
  new_name text := trim(p_name);
  old_approval text;
  changes jsonb := '{}'::jsonb;
begin
  if new_name is null or char_length(new_name) not between 1 and 100 then
    raise exception 'Name must be between 1 and 100 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_approval is null or p_approval not in ('approved', 'pending') then
    raise exception 'Approval must be approved or pending (reject with a reason on the approvals screen)'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_kyc_status is null or p_kyc_status not in ('none', 'pending', 'verified', 'rejected') then
    raise exception 'KYC status must be none, pending, verified or rejected' using errcode = '22023', hint = 'invalid_input';
  end if;
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  select p.name into old_name from public.profiles p where p.id = p_user_id;
  old_approval := case when acct.approved then 'approved' when acct.rejected_at is not null then 'rejected' else 'pending' end;

  if p_approval = 'pending' and old_approval = 'approved' and acct.role <> 'user' then
    raise exception 'Admins cannot be unapproved: a super admin must change their role first'
      using errcode = 'P0001', hint = 'admin_not_rejectable';
  end if;

  if new_name <> old_name then
    update public.profiles set name = new_name, updated_at = now() where id = p_user_id;
    changes := changes || jsonb_build_object('name', jsonb_build_object('old', old_name, 'new', new_name));
  end if;
  -- A rejected account left at "pending" stays rejected; only a change of state is written.
  if p_approval = 'approved' and old_approval <> 'approved' then
    update public.user_account_data
       set approved = true, approved_at = now(), approved_by = admin_id, rejected_at = null, rejection_reason = null,
           updated_at = now()
     where id = p_user_id;
    changes := changes || jsonb_build_object('approval', jsonb_build_object('old', old_approval, 'new', 'approved'));
    perform private.queue_mail(p_user_id, 'account_approved', 'Your LabCash account is approved',
      'Good news: your LabCash account has been approved. You can now add credit and enter competitions.');
  elsif p_approval = 'pending' and old_approval = 'approved' then
    update public.user_account_data
       set approved = false, approved_at = null, approved_by = null, updated_at = now()
     where id = p_user_id;
    changes := changes || jsonb_build_object('approval', jsonb_build_object('old', old_approval, 'new', 'pending'));
  end if;
  if p_kyc_status <> acct.kyc_status then
    update public.user_account_data
       set kyc_status = p_kyc_status,
           is_verified = p_kyc_status = 'verified',
           verified_at = case when p_kyc_status = 'verified' then now() end,
           updated_at = now()
     where id = p_user_id;
    changes := changes || jsonb_build_object('kyc_status', jsonb_build_object('old', acct.kyc_status, 'new', p_kyc_status));
  end if;
  if changes <> '{}'::jsonb then
    perform private.log_activity('user.updated', p_user_id, changes);
  end if;
  return private.admin_user_row(p_user_id) || jsonb_build_object('changes', changes);
end;
$$;
comment on function public.admin_update_user(uuid, text, text, text) is 'Admins: sets a user''s name, approval (approved or pending; approving e-mails them) and KYC status; audits each change with old and new values (user.updated); answers the user and the changes.';
grant execute on function public.admin_update_user(uuid, text, text, text) to authenticated;

create function public.admin_set_user_role(p_user_id uuid, p_role text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_super_admin();
  acct public.user_account_data;
begin
  if p_role is null or p_role not in ('user', 'admin', 'super_admin') then
    raise exception 'Role must be user, admin or super_admin' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_user_id = admin_id then
    raise exception 'You cannot change your own role' using errcode = '42501', hint = 'self_change_refused';
  end if;
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  if p_role <> acct.role then
    -- An admin is always approved: the approval redirect would otherwise shut them out of /admin.
    update public.user_account_data
       set role = p_role,
           approved = approved or p_role <> 'user',
           approved_at = case when not approved and p_role <> 'user' then now() else approved_at end,
           approved_by = case when not approved and p_role <> 'user' then admin_id else approved_by end,
           rejected_at = case when p_role <> 'user' then null else rejected_at end,
           rejection_reason = case when p_role <> 'user' then null else rejection_reason end,
           updated_at = now()
     where id = p_user_id;
    perform private.log_activity('user.role_changed', p_user_id,
      jsonb_build_object('role', jsonb_build_object('old', acct.role, 'new', p_role)));
  end if;
  return private.admin_user_row(p_user_id);
end;
$$;
comment on function public.admin_set_user_role(uuid, text) is 'Super admins: sets another user''s role (user, admin, super_admin; an admin is approved too); never one''s own; audited with old and new (user.role_changed).';
grant execute on function public.admin_set_user_role(uuid, text) to authenticated;

create function public.admin_adjust_credit(p_user_id uuid, p_amount numeric, p_reason text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  threshold numeric := coalesce((private.setting('large_adjustment_threshold'))::numeric, 100);
  reason text := trim(p_reason);
  acct public.user_account_data;
  new_balance numeric;
  ledger_id bigint;
begin
  if p_user_id = admin_id then
    raise exception 'You cannot adjust your own credit' using errcode = '42501', hint = 'self_change_refused';
  end if;
  if reason is null or char_length(reason) not between 3 and 500 then
    raise exception 'Give a reason for the adjustment (3 to 500 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_amount is null or p_amount = 'NaN'::numeric or p_amount = 0 or p_amount <> round(p_amount, 2)
     or abs(p_amount) > 100000 then
    raise exception 'Enter an amount in pounds and pence, not zero, at most £100,000 either way'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  if abs(p_amount) > threshold and not public.is_super_admin() then
    raise exception 'Access denied: Super admin privileges required' using errcode = '42501', hint = 'super_admin_required',
      detail = 'Adjustments over ' || private.format_gbp(threshold) || ' need a super admin.';
  end if;
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  if acct.credits + p_amount < 0 then
    raise exception 'The balance is %: an adjustment can take at most that', private.format_gbp(acct.credits)
      using errcode = 'P0001', hint = 'insufficient_credit';
  end if;
  new_balance := private.post_ledger(p_user_id, 'admin_adjustment', p_amount, reason, 'admin adjustment');
  select max(l.id) into ledger_id from public.credit_ledger l where l.user_id = p_user_id;
  perform private.log_activity('user.credit_adjusted', p_user_id, jsonb_build_object(
    'amount', p_amount, 'reason', reason, 'ledger_id', ledger_id,
    'balance', jsonb_build_object('old', acct.credits, 'new', new_balance)));
  return jsonb_build_object('ledger_id', ledger_id, 'amount', p_amount, 'balance', new_balance);
end;
$$;
comment on function public.admin_adjust_credit(uuid, numeric, text) is 'Admins: adds (positive) or takes (negative) credit with a required reason, as an admin_adjustment ledger row the player sees; over the large_adjustment_threshold setting a super admin only; never one''s own account; never below zero; audited with the old and new balance (user.credit_adjusted).';
grant execute on function public.admin_adjust_credit(uuid, numeric, text) to authenticated;

-- ----------------------------------------------------------------------------
-- Deletion is anonymisation
-- ----------------------------------------------------------------------------
create function public.admin_delete_user(p_user_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_super_admin();
  acct public.user_account_data;
  placeholder text := 'deleted-' || p_user_id || '@deleted.labcash.invalid';
begin
  if p_user_id = admin_id then
    raise exception 'You cannot delete your own account here' using errcode = '42501', hint = 'self_change_refused';
  end if;
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  if acct.role <> 'user' then
    raise exception 'Admins cannot be deleted: change their role first' using errcode = 'P0001', hint = 'admin_not_deletable';
  end if;
  -- Sign-in becomes impossible: no e-mail to sign in with, no password, no identities, no sessions.
  -- (The e-mail trigger copies the placeholder to the profile; it is cleared just below.)
  update auth.users
     set email = placeholder, encrypted_password = null, phone = null, raw_user_meta_data = '{}'::jsonb,
         -- Empty strings, not nulls: hosted GoTrue reads these token columns as strings.
         email_change = '', confirmation_token = '', recovery_token = '',
         banned_until = '2999-12-31T00:00:00Z', deleted_at = now(), updated_at = now()
   where id = p_user_id;
  delete from auth.identities where user_id = p_user_id;
  delete from auth.refresh_tokens where user_id::text = p_user_id::text;
  delete from auth.sessions where user_id = p_user_id;
  -- Mail keeps no address either; anything still queued to them is not sent.
  update public.mail_outbox
     set to_email = placeholder,
         error = case when status = 'queued' then 'Account deleted' else error end,
         status = case when status = 'queued' then 'failed' else status end
   where to_user = p_user_id;
  update public.profiles
     set name = 'Deleted user', email = null, date_of_birth = null, town = null, email_notifications = false,
         updated_at = now()
   where id = p_user_id;
  update public.user_account_data
     set deleted_at = now(), approved = false, approved_at = null, approved_by = null,
         rejected_at = now(), rejection_reason = 'Account deleted', metadata = null, updated_at = now()
   where id = p_user_id;
  -- Letters they sent keep their tickets (the draw's record) but not their name and address. Complaints
  -- are kept whole (a record of how we handled them), and a published winner's "first name and initial"
  -- stays on its draw, which is a public record by design (CAP 8.28.5).
  update public.postal_entries set name = 'Deleted user', address = '(deleted)', postcode = null
   where user_id = p_user_id;
  -- The audit row names no personal data: the account is gone, the ledger and tickets stay under its id.
  perform private.log_activity('user.deleted', p_user_id, jsonb_build_object(
    'cleared', jsonb_build_array('name', 'email', 'date_of_birth', 'town', 'sign_in', 'mail_addresses', 'postal_entries'),
    'kept', jsonb_build_array('ledger', 'entries', 'tickets'),
    'balance', acct.credits));
  return private.admin_user_row(p_user_id);
end;
$$;
comment on function public.admin_delete_user(uuid) is 'Super admins: deletes a player by anonymising them: name ''Deleted user'', e-mail, date of birth and town cleared, the auth e-mail replaced and sign-in removed, addresses in the mail outbox replaced and queued mail not sent; ledger, entries and tickets kept under the id; admins must lose their role first; never oneself; audited without personal data (user.deleted).';
grant execute on function public.admin_delete_user(uuid) to authenticated;

-- ----------------------------------------------------------------------------
-- Approvals: in bulk, and the approval mode
-- ----------------------------------------------------------------------------
create function public.admin_approve_users(p_user_ids uuid[]) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  done jsonb := '[]'::jsonb;
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
    done := done || jsonb_build_object('id', r.id, 'name', r.name);
  end loop;
  return jsonb_build_object('approved', done,
                            'skipped', cardinality(array(select distinct unnest(p_user_ids))) - jsonb_array_length(done));
end;
$$;
comment on function public.admin_approve_users(uuid[]) is 'Admins: approves every listed account still waiting (at most 200), e-mails each, audits each (user.approved, bulk); answers who was approved and how many were skipped (approved or rejected meanwhile, or unknown).';
grant execute on function public.admin_approve_users(uuid[]) to authenticated;

create function public.admin_get_approval_mode() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return jsonb_build_object('approval_mode', coalesce(private.setting('approval_mode') #>> '{}', 'manual'));
end;
$$;
comment on function public.admin_get_approval_mode() is 'Admins: the approval mode, manual (an admin approves each sign-up) or auto (new sign-ups are approved at once).';
grant execute on function public.admin_get_approval_mode() to authenticated;

create function public.admin_set_approval_mode(p_mode text) returns jsonb
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
  return jsonb_build_object('approval_mode', p_mode);
end;
$$;
comment on function public.admin_set_approval_mode(text) is 'Admins: sets the approval mode (manual or auto; auto approves new sign-ups from then on, not those already waiting); audited with old and new (settings.approval_mode).';
grant execute on function public.admin_set_approval_mode(text) to authenticated;
