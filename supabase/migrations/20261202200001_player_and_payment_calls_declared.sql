-- player_and_payment_calls_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.referral_json(public.referrals);

drop function public.admin_adjust_credit(uuid,numeric,text);

drop function public.admin_approve_users(uuid[]);

drop function public.admin_get_user_referrals(uuid);

drop function public.check_referral_code(text,text);

drop function public.get_my_notifications(integer,bigint);

drop function public.get_my_push_settings();

drop function public.get_my_referrals();

drop function public.get_top_up_options();

drop function public.get_top_up(uuid);

drop function public.quote_top_up(numeric);

drop function public.raise_player_flags();

drop function public.settle_referrals();

drop function public.unsubscribe_marketing(text);

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

create or replace function public.quote_top_up(p_amount numeric) returns public.top_up_quote
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  perform private.create_account_rows(uid);
  -- The quote stays jsonb because create_top_up reads it; its refusal object becomes the nested refusal (null stays null).
  return jsonb_populate_record(null::public.top_up_quote, private.top_up_quote(uid, p_amount));
end;
$$;
comment on function public.quote_top_up(numeric) is 'Signed-in users: what a top-up of p_amount gives ({amount, bonus, credit, balance_after, min, max, bonus_enabled, monthly_limit, monthly_remaining}) and refusal {code, message} or null. Never raises for a bad amount.';
revoke all on function public.quote_top_up(numeric) from public, anon, authenticated, service_role;
grant execute on function public.quote_top_up(numeric) to authenticated;
grant execute on function public.quote_top_up(numeric) to service_role;

create or replace function public.get_top_up_options() returns public.top_up_options
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  p public.player_protections;
  remaining numeric;
  block jsonb;
  blocked public.refusal;
begin
  perform private.create_account_rows(uid);
  p := private.protections_of(uid);
  remaining := case when p.monthly_limit is null then null
                    else greatest(p.monthly_limit - private.month_topped_up(uid), 0) end;
  block := private.play_block(uid);
  if block is not null then
    blocked := jsonb_populate_record(null::public.refusal, block);
  elsif remaining is not null and remaining < (private.setting('top_up_min'))::numeric then
    blocked := row('monthly_limit_reached',
      'You have reached your monthly limit: ' || private.format_gbp(remaining) || ' left this month')::public.refusal;
  end if;
  return row(
    (private.setting('top_up_min'))::numeric,
    (private.setting('top_up_max'))::numeric,
    '{10, 25, 50, 100, 200}'::integer[],
    coalesce((private.setting('bonus_enabled'))::boolean, false),
    coalesce((select array_agg(row((t ->> 'from')::numeric, (t ->> 'percent')::numeric)::public.bonus_tier
                               order by (t ->> 'from')::numeric)
                from jsonb_array_elements(private.setting('bonus_tiers')) t), '{}'),
    p.monthly_limit,
    remaining,
    p.pending_limit,
    p.pending_limit_from,
    p.limit_set_at is null and p.limit_prompt_seen_at is null
      and not exists (select 1 from public.top_ups t where t.user_id = uid and t.credited_at is not null),
    blocked)::public.top_up_options;
end;
$$;
comment on function public.get_top_up_options() is 'Signed-in users: what the top-up page needs: min, max, quick picks, bonus tiers, the monthly limit and what is left of it, a pending increase, whether to invite a limit (needs_limit_prompt), and blocked {code, message} when no top-up is possible now.';
revoke all on function public.get_top_up_options() from public, anon, authenticated, service_role;
grant execute on function public.get_top_up_options() to authenticated;
grant execute on function public.get_top_up_options() to service_role;

create or replace function public.get_top_up(p_id uuid) returns public.my_top_up
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  t public.top_ups%rowtype;
begin
  select * into t from public.top_ups where id = p_id and user_id = uid;
  if not found then
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
  end if;
  return row(
    t.id,
    t.status,
    t.amount,
    t.bonus,
    t.amount + t.bonus,
    t.funding,
    t.provider,
    coalesce((select a.credits from public.user_account_data a where a.id = uid), 0),
    t.created_at,
    t.credited_at,
    t.refusal_message,
    case when t.status = 'refused_card_cap' then 'card_cap_exceeded' end,
    t.purpose,
    (select row(e.id, private.entry_ticket_numbers(e.id), c.slug)::public.top_up_entry
       from public.entries e join public.competitions c on c.id = e.competition_id
      where e.id = t.entry_id),
    case when t.entry_error_code is not null
         then row(t.entry_error_code, t.entry_error_message)::public.refusal end)::public.my_top_up;
end;
$$;
comment on function public.get_top_up(uuid) is 'The owner''s top-up: status, amounts, funding, current balance, why it was refused, and the entry it made (or why that entry failed). Anyone else gets top_up_not_found.';
revoke all on function public.get_top_up(uuid) from public, anon, authenticated, service_role;
grant execute on function public.get_top_up(uuid) to authenticated;
grant execute on function public.get_top_up(uuid) to service_role;

create or replace function public.raise_player_flags() returns public.flags_raised
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  return row(private.raise_player_flags())::public.flags_raised;
end;
$$;
comment on function public.raise_player_flags() is 'Server (the cron): raises any new player-protection flags; answers {raised}.';
revoke all on function public.raise_player_flags() from public, anon, authenticated, service_role;
grant execute on function public.raise_player_flags() to service_role;

create or replace function public.unsubscribe_marketing(p_token text) returns public.marketing_unsubscribed
language plpgsql security definer set search_path = '' as $$
declare
  t public.marketing_unsubscribe_tokens%rowtype;
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
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
  if coalesce((select p.email_notifications from public.profiles p where p.id = t.user_id), false) then
    perform private.record_marketing_consent(t.user_id, false, 'unsubscribe_link');
  end if;
  perform private.log_activity('marketing.unsubscribed', t.user_id, jsonb_build_object('mail_id', t.mail_id));
  return row(true)::public.marketing_unsubscribed;
end;
$$;
comment on function public.unsubscribe_marketing(text) is 'Server: withdraws the marketing consent a mail''s unsubscribe token names, once (unsubscribe_link_used after), recorded with source unsubscribe_link and audited; unsubscribe_link_invalid for a token that is malformed or unknown. The page /unsubscribe and the one-click POST /api/unsubscribe call it without a session.';
revoke all on function public.unsubscribe_marketing(text) from public, anon, authenticated, service_role;
grant execute on function public.unsubscribe_marketing(text) to service_role;

create or replace function public.get_my_notifications(p_limit integer default 20, p_before bigint default null) returns public.notification_page
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_limit is null or p_limit not between 1 and 100 then
    raise exception 'Ask for 1 to 100 notifications' using errcode = '22023', hint = 'invalid_input';
  end if;
  return row(
    coalesce((
      select array_agg(row(n.id, n.kind, n.title, n.body, n.link, n.created_at, n.read_at)::public.notification
                       order by n.id desc)
        from (select * from public.notifications n
               where n.user_id = uid and (p_before is null or n.id < p_before)
               order by n.id desc limit p_limit) n), '{}'),
    (select count(*) from public.notifications n where n.user_id = uid and n.read_at is null))::public.notification_page;
end;
$$;
comment on function public.get_my_notifications(integer,bigint) is 'The caller''s notifications, newest first (keyset: ids below p_before), and their unread count.';
revoke all on function public.get_my_notifications(integer,bigint) from public, anon, authenticated, service_role;
grant execute on function public.get_my_notifications(integer,bigint) to authenticated;
grant execute on function public.get_my_notifications(integer,bigint) to service_role;

create or replace function public.get_my_push_settings() returns public.push_settings
language sql stable security definer set search_path = '' as $$
  select row(
    coalesce((select p.kinds from public.push_preferences p where p.user_id = private.require_user()), '{}'),
    coalesce((select array_agg(s.endpoint order by s.id) from public.push_subscriptions s
               where s.user_id = private.require_user()), '{}'))::public.push_settings
$$;
comment on function public.get_my_push_settings() is 'The kinds the caller opted in to for push and the endpoints of their subscribed browsers.';
revoke all on function public.get_my_push_settings() from public, anon, authenticated, service_role;
grant execute on function public.get_my_push_settings() to authenticated;
grant execute on function public.get_my_push_settings() to service_role;

create or replace function public.check_referral_code(p_code text, p_email text) returns public.referral_code_check
language plpgsql stable security definer set search_path = '' as $$
declare
  checked jsonb;
begin
  perform private.require_server();
  checked := private.referral_check(p_code, p_email);
  case checked #>> '{refusal,code}'
    when 'referral_code_unknown' then
      raise exception '%', checked #>> '{refusal,message}' using errcode = 'P0001', hint = 'referral_code_unknown';
    when 'referral_self' then
      raise exception '%', checked #>> '{refusal,message}' using errcode = 'P0001', hint = 'referral_self';
    else
      null;
  end case;
  return row(checked ->> 'code')::public.referral_code_check;
end;
$$;
comment on function public.check_referral_code(text,text) is 'Server only (the sign-up form, before the account is made): {code} normalised, or refused as referral_code_unknown or referral_self.';
revoke all on function public.check_referral_code(text,text) from public, anon, authenticated, service_role;
grant execute on function public.check_referral_code(text,text) to service_role;

create or replace function private.referral_row(r public.referrals) returns public.referral
language sql stable security definer set search_path = '' as $$
  select row(r.id, r.status, r.reason, private.referral_reason_text(r.reason), r.amount, r.created_at,
             r.decided_at)::public.referral
$$;
comment on function private.referral_row(public.referrals) is 'One referral as the account pages show it (no names).';
revoke all on function private.referral_row(public.referrals) from public, anon, authenticated, service_role;

create or replace function private.admin_referral_row(r public.referrals, p_user uuid, p_name text) returns public.admin_referral
language sql stable security definer set search_path = '' as $$
  select row(r.id, r.status, r.reason, private.referral_reason_text(r.reason), r.amount, r.created_at,
             r.decided_at, p_user, p_name)::public.admin_referral
$$;
comment on function private.admin_referral_row(public.referrals,uuid,text) is 'One referral as the admin''s user page shows it, with the other player (p_user, p_name).';
revoke all on function private.admin_referral_row(public.referrals,uuid,text) from public, anon, authenticated, service_role;

create or replace function public.settle_referrals() returns public.referrals_settled
language plpgsql security definer set search_path = '' as $$
declare
  r record;
  settled integer := 0;
begin
  perform private.require_server();
  for r in select x.referred_id from public.referrals x
            where x.status = 'pending'
              and exists (select 1 from public.entries e where e.user_id = x.referred_id and e.kind = 'paid')
            order by x.created_at limit 500 loop
    perform private.settle_referral(r.referred_id);
    settled := settled + 1;
  end loop;
  return row(settled)::public.referrals_settled;
end;
$$;
comment on function public.settle_referrals() is 'Server only (the cron): settles pending referrals whose friend has a paid entry, those an entry could not settle because the inviter''s account was busy; {checked}.';
revoke all on function public.settle_referrals() from public, anon, authenticated, service_role;
grant execute on function public.settle_referrals() to service_role;

create or replace function public.get_my_referrals() returns public.my_referrals
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := private.require_user();
begin
  return row(
    private.referral_code_of(me),
    (private.setting('referral_credit') #>> '{}')::numeric,
    (select count(*) from public.referrals r where r.referrer_id = me),
    (select count(*) from public.referrals r where r.referrer_id = me and r.status = 'credited'),
    (select coalesce(sum(r.amount), 0) from public.referrals r where r.referrer_id = me and r.status = 'credited'),
    coalesce((select array_agg(private.referral_row(r) order by r.created_at desc)
                from (select * from public.referrals x where x.referrer_id = me order by x.created_at desc limit 50) r), '{}'),
    (select private.referral_row(r) from public.referrals r where r.referred_id = me))::public.my_referrals;
end;
$$;
comment on function public.get_my_referrals() is 'The caller''s invite code (made on first use), the referral credit, how many friends joined with it and how many were credited (and the total), the latest 50 without names, and their own invite''s state (invited) if they joined with one.';
revoke all on function public.get_my_referrals() from public, anon, authenticated, service_role;
grant execute on function public.get_my_referrals() to authenticated;
grant execute on function public.get_my_referrals() to service_role;

create or replace function public.admin_get_user_referrals(p_user uuid) returns public.user_referrals
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return row(
    (select c.code from public.referral_codes c where c.user_id = p_user),
    (select private.admin_referral_row(r, r.referrer_id, p.name)
       from public.referrals r join public.profiles p on p.id = r.referrer_id
      where r.referred_id = p_user),
    coalesce((select array_agg(private.admin_referral_row(r, r.referred_id, p.name) order by r.created_at desc)
                from public.referrals r join public.profiles p on p.id = r.referred_id
               where r.referrer_id = p_user), '{}'))::public.user_referrals;
end;
$$;
comment on function public.admin_get_user_referrals(uuid) is 'Admins: a player''s invite code, who invited them (referred_by) and whom they invited (referred), each with status, reason and amount.';
revoke all on function public.admin_get_user_referrals(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_get_user_referrals(uuid) to authenticated;
grant execute on function public.admin_get_user_referrals(uuid) to service_role;

-- From 20261123130200_admin_users. Before: NaN and a third decimal refused by their own tests, Infinity by the £100,000 bound.
create or replace function public.admin_adjust_credit(p_user_id uuid, p_amount numeric, p_reason text) returns public.credit_adjustment
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
  if p_amount is null or not private.is_pounds(p_amount) or p_amount = 0 or abs(p_amount) > 100000 then
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
  return row(ledger_id, p_amount, new_balance)::public.credit_adjustment;
end;
$$;
comment on function public.admin_adjust_credit(uuid,numeric,text) is 'Admins: adds (positive) or takes (negative) credit with a required reason, as an admin_adjustment ledger row the player sees; over the large_adjustment_threshold setting a super admin only; never one''s own account; never below zero; audited with the old and new balance (user.credit_adjusted).';
revoke all on function public.admin_adjust_credit(uuid,numeric,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_adjust_credit(uuid,numeric,text) to authenticated;
grant execute on function public.admin_adjust_credit(uuid,numeric,text) to service_role;
