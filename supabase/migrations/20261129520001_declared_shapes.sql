-- declared_shapes: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.account_json(uuid);

drop function public.admin_approve_user(uuid);

drop function public.admin_delete_user(uuid);

drop function public.admin_record_intervention(uuid,text,text);

drop function public.admin_reject_user(uuid,text);

drop function public.admin_set_user_role(uuid,text);

drop function public.fail_top_up(uuid,text);

drop function public.get_my_account();

drop function public.get_my_factor_proof();

drop function public.set_initials_only(boolean);

drop function public.set_spinner_client_seed(text);

drop function public.update_my_profile(text,boolean,text);

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
         updated_at = now()
   where id = uid;
  -- A changed marketing choice is recorded like every other.
  if p_email_notifications is not null
     and p_email_notifications is distinct from (select p.email_notifications from public.profiles p where p.id = uid) then
    perform private.record_marketing_consent(uid, p_email_notifications, 'profile');
  end if;
  return private.account_row(uid);
end;
$$;
comment on function public.update_my_profile(text,boolean,text) is 'Updates the caller''s name, marketing choice (recorded when it changes) and town (an empty town clears it); returns the merged account.';
revoke all on function public.update_my_profile(text,boolean,text) from public, anon, authenticated, service_role;
grant execute on function public.update_my_profile(text,boolean,text) to authenticated;
grant execute on function public.update_my_profile(text,boolean,text) to service_role;

create or replace function public.admin_approve_user(p_user_id uuid) returns public.account
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
begin
  update public.user_account_data
     set approved = true, approved_at = now(), approved_by = admin_id,
         rejected_at = null, rejection_reason = null, updated_at = now()
   where id = p_user_id;
  if not found then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  perform private.log_activity('user.approved', p_user_id);
  perform private.queue_mail(p_user_id, 'account_approved', 'Your LabCash account is approved',
    'Good news: your LabCash account has been approved. You can now add credit and enter competitions.');
  return private.account_row(p_user_id);
end;
$$;
comment on function public.admin_approve_user(uuid) is 'Admins: approve an account, recording who and when, and e-mail the user.';
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

create or replace function public.get_my_factor_proof() returns public.factor_proof
language sql stable security definer set search_path = '' as $$
  select private.factors_proven(), private.fresh_reauthentication(private.require_user_first_step()) is not null
$$;
comment on function public.get_my_factor_proof() is 'For the two-step page: whether every verified factor of the caller is proven, and whether they confirmed a code from their inbox in the last fifteen minutes (not yet spent).';
revoke all on function public.get_my_factor_proof() from public, anon, authenticated, service_role;
grant execute on function public.get_my_factor_proof() to authenticated;
grant execute on function public.get_my_factor_proof() to service_role;

create or replace function public.set_initials_only(p_initials_only boolean) returns public.account
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_initials_only is null then
    raise exception 'Choose whether to appear by initials only' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  update public.profiles set show_initials_only = p_initials_only, updated_at = now() where id = uid;
  perform private.log_activity('profile.initials_only', uid, jsonb_build_object('initials_only', p_initials_only));
  return private.account_row(uid);
end;
$$;
comment on function public.set_initials_only(boolean) is 'Signed-in users: appear by initials only (no town) if they win and on entry lists, or by first name, surname initial and town (CAP 8.28.5). Applies to draws from now on.';
revoke all on function public.set_initials_only(boolean) from public, anon, authenticated, service_role;
grant execute on function public.set_initials_only(boolean) to authenticated;
grant execute on function public.set_initials_only(boolean) to service_role;

create or replace function public.fail_top_up(p_top_up_id uuid, p_status text)
 RETURNS public.top_up_outcome
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  t public.top_ups%rowtype;
begin
  perform private.require_server();
  if p_status is null or p_status not in ('failed', 'expired') then
    raise exception 'Status must be failed or expired' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into t from public.top_ups where id = p_top_up_id for update;
  if not found then
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
  end if;
  if t.status = 'pending' then
    update public.top_ups set status = p_status::public.top_up_status, updated_at = now() where id = t.id;
    perform private.log_activity('top_up.' || p_status, t.id, '{}'::jsonb);
    t.status := p_status;
  end if;
  return (t.status, t.id)::public.top_up_outcome;
end;
$function$;
comment on function public.fail_top_up(uuid,text) is 'Server: marks a pending top-up failed or expired (no-op in any other status); returns its status.';
revoke all on function public.fail_top_up(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.fail_top_up(uuid,text) to service_role;

create or replace function private.player_intervention_of(p_id uuid) returns public.player_intervention
language sql stable security definer set search_path = '' as $$
  select i.id, i.user_id, i.kind, i.note, i.flag_id, i.created_at, cb.name
  from public.player_interventions i
  left join public.profiles cb on cb.id = i.created_by
  where i.id = p_id
$$;
comment on function private.player_intervention_of(uuid) is 'One intervention as the admin screens show it, with who recorded it.';
revoke all on function private.player_intervention_of(uuid) from public, anon, authenticated, service_role;

-- A player's protection page nests its interventions in its jsonb.
create or replace function private.player_intervention_json(p_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select to_jsonb(private.player_intervention_of(p_id))
$$;
comment on function private.player_intervention_json(uuid) is 'private.player_intervention_of as jsonb, for results that nest it.';
revoke all on function private.player_intervention_json(uuid) from public, anon, authenticated, service_role;

create or replace function public.admin_record_intervention(p_user_id uuid, p_kind text, p_note text) returns public.player_intervention
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  new_id uuid;
begin
  -- Two statements: the stable reader must see the row the first one wrote.
  new_id := private.record_intervention(admin_id, p_user_id, p_kind, p_note, null);
  return private.player_intervention_of(new_id);
end;
$$;
comment on function public.admin_record_intervention(uuid,text,text) is 'Admins: records an intervention on a player (note, contacted, restricted, lifted, closed) with a required note (3 to 2000 characters) and applies it; never on one''s own account; audited.';
revoke all on function public.admin_record_intervention(uuid,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_record_intervention(uuid,text,text) to authenticated;
grant execute on function public.admin_record_intervention(uuid,text,text) to service_role;

create or replace function private.seed_row(s public.spinner_seeds) returns public.spinner_seed
language sql stable security definer set search_path = '' as $$
  select s.id, s.server_seed_hash, s.client_seed, s.next_nonce, s.created_at, s.revealed_at,
         -- The server seed only once the pair is rotated out: before that it would let the player predict spins.
         case when s.revealed_at is not null then encode(s.server_seed, 'hex') end
$$;
comment on function private.seed_row(public.spinner_seeds) is 'A seed pair as its player sees it; the server seed only once revealed.';
revoke all on function private.seed_row(public.spinner_seeds) from public, anon, authenticated, service_role;

-- The spinner page, rotation and reveal results nest seed pairs in their jsonb.
create or replace function private.seed_json(s public.spinner_seeds) returns jsonb
language sql stable security definer set search_path = '' as $$
  select to_jsonb(private.seed_row(s))
$$;
comment on function private.seed_json(public.spinner_seeds) is 'private.seed_row as jsonb, for results that nest it.';
revoke all on function private.seed_json(public.spinner_seeds) from public, anon, authenticated, service_role;

create or replace function public.set_spinner_client_seed(p_client_seed text) returns public.spinner_seed
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  seed public.spinner_seeds%rowtype;
begin
  perform private.check_client_seed(p_client_seed);
  perform 1 from public.user_account_data a where a.id = uid for update;
  seed := private.active_spinner_seed(uid);
  update public.spinner_seeds set client_seed = p_client_seed where id = seed.id returning * into seed;
  return private.seed_row(seed);
end;
$$;
comment on function public.set_spinner_client_seed(text) is 'Sets the client seed of the caller''s active pair (used from the next spin; the nonce carries on).';
revoke all on function public.set_spinner_client_seed(text) from public, anon, authenticated, service_role;
grant execute on function public.set_spinner_client_seed(text) to authenticated;
grant execute on function public.set_spinner_client_seed(text) to service_role;

create or replace function private.admin_user_of(p_user_id uuid) returns public.admin_user
language sql stable security definer set search_path = '' as $$
  select a.id, p.name, p.email, a.role,
         case when a.deleted_at is not null then 'deleted'
              when a.approved then 'approved'
              when a.rejected_at is not null then 'rejected'
              else 'pending' end,
         a.kyc_status, a.credits, a.created_at, a.deleted_at,
         (select count(*) from public.player_flags f where f.user_id = a.id and f.status = 'open')
  from public.user_account_data a
  join public.profiles p on p.id = a.id
  where a.id = p_user_id
$$;
comment on function private.admin_user_of(uuid) is 'One user as the admin users list shows them: name, e-mail, role, approval (approved, pending, rejected or deleted), KYC status, balance, dates, and how many flags await review.';
revoke all on function private.admin_user_of(uuid) from public, anon, authenticated, service_role;

-- The users list, a user's page and admin_update_user nest or extend it in their jsonb.
create or replace function private.admin_user_row(p_user_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select to_jsonb(private.admin_user_of(p_user_id))
$$;
comment on function private.admin_user_row(uuid) is 'private.admin_user_of as jsonb (null when there is no such user), for results that nest it.';
revoke all on function private.admin_user_row(uuid) from public, anon, authenticated, service_role;

create or replace function public.admin_set_user_role(p_user_id uuid, p_role text)
 RETURNS public.admin_user
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
  if p_role <> acct.role::text then
    -- An admin is always approved: the approval redirect would otherwise shut them out of /admin.
    update public.user_account_data
       set role = p_role::public.user_role,
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
  return private.admin_user_of(p_user_id);
end;
$function$;
comment on function public.admin_set_user_role(uuid,text) is 'Super admins: sets another user''s role (user, admin, super_admin; an admin is approved too); never one''s own; audited with old and new (user.role_changed).';
revoke all on function public.admin_set_user_role(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_set_user_role(uuid,text) to authenticated;
grant execute on function public.admin_set_user_role(uuid,text) to service_role;

create or replace function public.admin_delete_user(p_user_id uuid) returns public.admin_user
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
  return private.admin_user_of(p_user_id);
end;
$$;
comment on function public.admin_delete_user(uuid) is 'Super admins: deletes a player by anonymising them: name ''Deleted user'', e-mail, date of birth and town cleared, the auth e-mail replaced and sign-in removed, addresses in the mail outbox replaced and queued mail not sent; ledger, entries and tickets kept under the id; admins must lose their role first; never oneself; audited without personal data (user.deleted).';
revoke all on function public.admin_delete_user(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_delete_user(uuid) to authenticated;
grant execute on function public.admin_delete_user(uuid) to service_role;
