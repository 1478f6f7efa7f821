-- notification_preference_functions: written by `npm run db:migration` from supabase/schemas. Review it before committing.

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

create or replace function private.may_receive_marketing(p_user uuid) returns boolean
language sql security definer set search_path = '' as $$
  select coalesce((select pr.marketing_consent from public.profiles pr where pr.id = p_user), false)
     and private.protection_state(private.protections_of(p_user)) = 'active'
     and not exists (select 1 from public.player_protections pp where pp.user_id = p_user and pp.restricted_at is not null)
$$;
comment on function private.may_receive_marketing(uuid) is 'True when marketing mail may go to the player: they consented (marketing_consent), are not on a break, excluded or closed, and no admin has restricted them.';
revoke all on function private.may_receive_marketing(uuid) from public, anon, authenticated, service_role;

create or replace function private.optional_mail_kinds() returns text[]
language sql immutable security definer set search_path = '' as $$
  -- News the site shows the player as it happens (the purchase reply, the notification centre). Receipts, a draw
  -- win, refunds, complaint answers, approval and security mail are not here: they go whatever the preference.
  select array['instant_win']
$$;
comment on function private.optional_mail_kinds() is 'The mail kinds a player''s notification preference (profiles.email_notifications) can turn off.';
revoke all on function private.optional_mail_kinds() from public, anon, authenticated, service_role;

create or replace function private.queue_mail(p_user uuid, p_kind text, p_subject text, p_body text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.mail_outbox (to_email, to_user, kind, subject, body_text)
  select u.email, u.id, p_kind, p_subject, p_body from auth.users u
   where u.id = p_user and u.email is not null
     and (p_kind <> all (private.optional_mail_kinds())
          or coalesce((select p.email_notifications from public.profiles p where p.id = p_user), true));
end;
$$;
comment on function private.queue_mail(uuid,text,text,text) is 'Queues one e-mail to a user, unless it is of an optional kind (private.optional_mail_kinds) and they turned e-mail notifications off.';
revoke all on function private.queue_mail(uuid,text,text,text) from public, anon, authenticated, service_role;

create or replace function private.mail_segment_members(p_segment text, p_competition_id uuid)
returns table (user_id uuid, name text, email text, consented boolean)
language sql stable security definer set search_path = '' as $$
  select a.id, p.name, u.email::text, p.marketing_consent
    from public.user_account_data a
    join public.profiles p on p.id = a.id
    join auth.users u on u.id = a.id
   -- Players only, approved by an admin, not deleted, with an address, and of verified age
   -- (a date of birth on file, 18 or over): never an unapproved account or an unknown age.
   where a.role = 'user'
     and a.approved
     and a.deleted_at is null
     and nullif(btrim(u.email), '') is not null
     and p.date_of_birth is not null
     and p.date_of_birth <= (current_date - interval '18 years')::date
     and case p_segment
           when 'all_players' then true
           -- Anyone who entered it, refunded or withdrawn entries included: a cancelled
           -- competition's entrants still need to hear about it.
           when 'competition_entrants' then exists (select 1 from public.entries e
                                                      where e.competition_id = p_competition_id and e.user_id = a.id)
           when 'no_recent_entry' then not exists (select 1 from public.entries e
                                                    where e.user_id = a.id and e.created_at > now() - interval '30 days')
           else false
         end
$$;
comment on function private.mail_segment_members(text,uuid) is 'The players a segment names now (all_players; competition_entrants of p_competition_id; no_recent_entry: no entry in the last 30 days), each approved, not deleted, with an e-mail and a date of birth 18 or more years ago; consented is their marketing choice.';
revoke all on function private.mail_segment_members(text,uuid) from public, anon, authenticated, service_role;

create or replace function private.record_marketing_consent(p_user uuid, p_given boolean, p_source text,
  p_wording text default null) returns void
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set marketing_consent = p_given, updated_at = now() where id = p_user;
  insert into public.marketing_consents (user_id, given, wording, source)
  values (p_user, p_given, coalesce(p_wording, private.marketing_consent_wording()), p_source::public.consent_source);
end;
$$;
comment on function private.record_marketing_consent(uuid,boolean,text,text) is 'Sets a player''s marketing consent and records the choice (time, wording, source) in public.marketing_consents.';
revoke all on function private.record_marketing_consent(uuid,boolean,text,text) from public, anon, authenticated, service_role;

create or replace function public.set_my_marketing_consent(p_given boolean) returns public.marketing_consent
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_given is null then
    raise exception 'Choose whether we may e-mail you about new competitions and results' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  if p_given is distinct from (select p.marketing_consent from public.profiles p where p.id = uid) then
    perform private.record_marketing_consent(uid, p_given, 'profile');
  end if;
  return private.marketing_consent_row(uid);
end;
$$;
comment on function public.set_my_marketing_consent(boolean) is 'The caller gives (true) or withdraws (false) marketing consent in one call, recorded with time, wording and source profile; returns the consent now.';
revoke all on function public.set_my_marketing_consent(boolean) from public, anon, authenticated, service_role;
grant execute on function public.set_my_marketing_consent(boolean) to authenticated;
grant execute on function public.set_my_marketing_consent(boolean) to service_role;

create or replace function public.unsubscribe_marketing(p_token text) returns public.marketing_unsubscribed
language plpgsql security definer set search_path = '' as $$
declare
  t public.marketing_unsubscribe_tokens%rowtype;
begin
  perform private.require_server();
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    raise exception 'This unsubscribe link is not valid' using errcode = '22023', hint = 'unsubscribe_link_invalid';
  end if;
  select * into t from public.marketing_unsubscribe_tokens k
   where k.token_hash = extensions.digest(p_token, 'sha256')
   for update;
  if not found then
    raise exception 'This unsubscribe link is not valid' using errcode = '22023', hint = 'unsubscribe_link_invalid';
  end if;
  if t.used_at is not null then
    raise exception 'This unsubscribe link has already been used' using errcode = 'P0001', hint = 'unsubscribe_link_used';
  end if;
  update public.marketing_unsubscribe_tokens k set used_at = now() where k.token_hash = t.token_hash;
  if coalesce((select p.marketing_consent from public.profiles p where p.id = t.user_id), false) then
    perform private.record_marketing_consent(t.user_id, false, 'unsubscribe_link');
  end if;
  perform private.log_activity('marketing.unsubscribed', t.user_id, jsonb_build_object('mail_id', t.mail_id));
  return row(true)::public.marketing_unsubscribed;
end;
$$;
comment on function public.unsubscribe_marketing(text) is 'Server: withdraws the marketing consent a mail''s unsubscribe token names, once (unsubscribe_link_used after), recorded with source unsubscribe_link and audited; unsubscribe_link_invalid for a token that is malformed or unknown. The page /unsubscribe and the one-click POST /api/unsubscribe call it without a session.';
revoke all on function public.unsubscribe_marketing(text) from public, anon, authenticated, service_role;
grant execute on function public.unsubscribe_marketing(text) to service_role;

create or replace function private.marketing_consent_row(p_user uuid) returns public.marketing_consent
language sql stable security definer set search_path = '' as $$
  select coalesce(p.marketing_consent, false), c.created_at, c.wording, c.source
  from public.profiles p
  left join lateral (select mc.created_at, mc.wording, mc.source from public.marketing_consents mc
                      where mc.user_id = p.id order by mc.id desc limit 1) c on true
  where p.id = p_user
$$;
comment on function private.marketing_consent_row(uuid) is 'A player''s marketing consent now: given, and when, on what wording and where the last choice was made (null when none is recorded).';
revoke all on function private.marketing_consent_row(uuid) from public, anon, authenticated, service_role;

create or replace function public.admin_get_user(p_user_id uuid) returns public.admin_user_detail
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data;
begin
  perform private.require_admin();
  acct := private.admin_user_target(p_user_id);
  return row(
    (select row(u.id, u.name, u.email, u.role, u.approval, u.kyc_status, u.credits, u.created_at, u.deleted_at,
                u.open_flags, p.date_of_birth, p.town, p.email_notifications, acct.approved_at,
                (select ap.name from public.profiles ap where ap.id = acct.approved_by),
                acct.rejected_at, acct.rejection_reason, acct.total_spent, acct.total_entries,
                acct.verified_at, p.marketing_consent)::public.admin_user_profile
       from private.admin_user_of(p_user_id) u
       left join public.profiles p on p.id = p_user_id
      -- admin_user_of is null without a profile row: then so is the user, as before.
      where u.id is not null),
    -- Limits and breaks; a deleted account shows what it had.
    private.protections_row(p_user_id),
    (select coalesce(array_agg(row(e.id, e.competition_id, c.title, e.kind, e.quantity, e.amount, e.status,
                                   e.first_ticket, (select max(t.number) from public.tickets t where t.entry_id = e.id),
                                   e.created_at)::public.admin_user_entry order by e.created_at desc), '{}')
       from (select * from public.entries x where x.user_id = p_user_id
              order by x.created_at desc limit 50) e
       join public.competitions c on c.id = e.competition_id),
    (select coalesce(array_agg(row(l.id, l.action, l.created_at, l.details, l.actor_id, ap.name,
                                   case when l.subject_id = p_user_id then 'subject' else 'actor' end
                                  )::public.admin_user_activity order by l.id desc), '{}')
       from (select * from public.activity_log x
              where x.subject_id = p_user_id or x.actor_id = p_user_id
              order by x.id desc limit 20) l
       left join public.profiles ap on ap.id = l.actor_id),
    (private.setting('large_adjustment_threshold'))::numeric)::public.admin_user_detail;
end;
$$;
comment on function public.admin_get_user(uuid) is 'Admins: one user''s page: profile and account (user), limits and breaks (protections, as the player sees them), the 50 latest entries, the 20 latest activity rows about or by them, and the large-adjustment threshold. The ledger is paged by admin_user_ledger.';
revoke all on function public.admin_get_user(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_get_user(uuid) to authenticated;
grant execute on function public.admin_get_user(uuid) to service_role;

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
     set name = 'Deleted user', email = null, date_of_birth = null, town = null, email_notifications = false, marketing_consent = false,
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
