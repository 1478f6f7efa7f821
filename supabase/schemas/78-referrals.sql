-- ============================================================================
-- Referrals: invite codes, referrals and the credit both players get once.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create table public.referral_codes (
  user_id uuid primary key references auth.users (id) on delete cascade,
  code text not null unique check (code ~ '^[0-9A-HJKMNP-TV-Z]{10}$'),
  created_at timestamptz not null default now()
);
alter table public.referral_codes enable row level security;
comment on table public.referral_codes is 'Each player''s invite code (Crockford base 32, 10 characters from the CSPRNG): not their id or e-mail, and not guessable.';
revoke all on table public.referral_codes from public, anon, authenticated, service_role;
grant select on table public.referral_codes to authenticated;
grant all on table public.referral_codes to service_role;

create policy "referral codes: own or admin" on public.referral_codes
  as permissive for select to authenticated
  using (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

create table public.referrals (
  id uuid primary key default gen_random_uuid(),
  referrer_id uuid not null references auth.users (id) on delete cascade,
  referred_id uuid not null unique references auth.users (id) on delete cascade,
  code text not null,
  status text not null default 'pending' check (status in ('pending', 'credited', 'refused')),
  reason text check (reason ~ '^[a-z_]+$'),
  amount numeric(12, 2) check (amount > 0),
  created_at timestamptz not null default now(),
  decided_at timestamptz,
  constraint referrals_refused_with_reason_check check ((status = 'refused') = (reason is not null)),
  constraint referrals_credited_with_amount_check check ((status = 'credited') = (amount is not null)),
  constraint referrals_decided_unless_pending_check check ((status = 'pending') = (decided_at is null)),
  constraint referrals_not_self_check check (referrer_id <> referred_id)
);
alter table public.referrals enable row level security;
comment on table public.referrals is 'One row per player who signed up with an invite code (referred_id is unique, so a friend is credited at most once): pending until the friend is approved and has a paid entry, then credited (amount to each) or refused (reason).';
revoke all on table public.referrals from public, anon, authenticated, service_role;
grant select on table public.referrals to authenticated;
grant all on table public.referrals to service_role;

create index referrals_referrer_idx on public.referrals (referrer_id, decided_at);
create policy "referrals: own or admin" on public.referrals
  as permissive for select to authenticated
  using (((referrer_id = ( SELECT auth.uid() AS uid)) OR (referred_id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.new_referral_code() returns text
language sql set search_path = '' as $$
  -- 32 divides 256, so every character is equally likely.
  select string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', get_byte(r.b, i) % 32 + 1, 1), '' order by i)
    from (select extensions.gen_random_bytes(10) as b) r, generate_series(0, 9) i
$$;
comment on function private.new_referral_code() is 'A fresh invite code: 10 Crockford base-32 characters from the CSPRNG (50 bits).';
revoke all on function private.new_referral_code() from public, anon, authenticated, service_role;

create or replace function private.referral_code_of(p_user uuid) returns text
language plpgsql security definer set search_path = '' as $$
declare
  found_code text;
begin
  select c.code into found_code from public.referral_codes c where c.user_id = p_user;
  while found_code is null loop
    -- A clash with another player's code (about one in 10^15) simply draws again.
    insert into public.referral_codes (user_id, code) values (p_user, private.new_referral_code())
    on conflict do nothing;
    select c.code into found_code from public.referral_codes c where c.user_id = p_user;
  end loop;
  return found_code;
end;
$$;
comment on function private.referral_code_of(uuid) is 'The player''s invite code, made on first use.';
revoke all on function private.referral_code_of(uuid) from public, anon, authenticated, service_role;

create or replace function private.email_identity(p_email text) returns text
language sql immutable set search_path = '' as $$
  -- Plus-addressing (name+tag@) reaches the same inbox at most providers; Gmail also ignores dots and
  -- answers to googlemail.com. Other aliases (Outlook's, custom domains' catch-alls) cannot be told apart.
  select case
           when e.local = '' or e.domain = '' then null
           when e.domain in ('gmail.com', 'googlemail.com') then replace(split_part(e.local, '+', 1), '.', '') || '@gmail.com'
           else split_part(e.local, '+', 1) || '@' || e.domain
         end
    from (select split_part(lower(btrim(coalesce(p_email, ''))), '@', 1) as local,
                 split_part(lower(btrim(coalesce(p_email, ''))), '@', 2) as domain) e
$$;
comment on function private.email_identity(text) is 'The inbox an e-mail address reaches, as far as can be told: lower case, +tag dropped, and for Gmail dots dropped and googlemail.com folded in.';
revoke all on function private.email_identity(text) from public, anon, authenticated, service_role;

create or replace function private.referral_check(p_code text, p_email text) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  given text := upper(regexp_replace(coalesce(p_code, ''), '[\s-]', '', 'g'));
  referrer uuid;
  referrer_email text;
begin
  select c.user_id, u.email into referrer, referrer_email
    from public.referral_codes c
    join auth.users u on u.id = c.user_id
    join public.user_account_data a on a.id = c.user_id and a.deleted_at is null
   where c.code = given;
  if referrer is null then
    return jsonb_build_object('code', given, 'refusal',
      jsonb_build_object('code', 'referral_code_unknown', 'message', 'That invite code is not one of ours: check it, or leave it empty'));
  end if;
  if private.email_identity(referrer_email) = private.email_identity(p_email) then
    return jsonb_build_object('code', given, 'referrer_id', referrer, 'refusal',
      jsonb_build_object('code', 'referral_self', 'message', 'That is your own invite code: it is for friends you invite'));
  end if;
  return jsonb_build_object('code', given, 'referrer_id', referrer);
end;
$$;
comment on function private.referral_check(text,text) is 'Whose invite code this is, for a sign-up with this e-mail: {code, referrer_id, refusal: {code, message}} with refusal referral_code_unknown (no such code, or its player was deleted) or referral_self (the same inbox as the inviter''s, private.email_identity).';
revoke all on function private.referral_check(text,text) from public, anon, authenticated, service_role;

create type public.referral_code_check as (code text);
comment on type public.referral_code_check is 'An invite code that may be used, as stored (upper case, no spaces or dashes).';

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

create type public.referral_invitation as (first_name text, credit numeric);
comment on type public.referral_invitation is 'What a friend''s invite link says: the inviter''s first name (null when it may not be shown) and the referral credit each gets.';

create or replace function public.get_referral_invitation(p_code text) returns setof public.referral_invitation
language sql stable security definer set search_path = '' as $$
  -- Only a code that would be accepted at sign-up gets a row (as private.referral_check reads it). The name is shown
  -- only for an approved inviter who has not asked to appear by initials, and only when its first word reads as a
  -- name (letters, an apostrophe or a hyphen): the page and its preview card are public, so a name cannot become a
  -- message or an address.
  select case
           when a.approved and not p.show_initials_only and n.first ~ '^[[:alpha:]][[:alpha:]''’-]{0,29}$' then n.first
         end,
         (private.setting('referral_credit') #>> '{}')::numeric
    from public.referral_codes c
    join public.user_account_data a on a.id = c.user_id and a.deleted_at is null
    join public.profiles p on p.id = c.user_id
    cross join lateral (select (regexp_split_to_array(btrim(p.name), '\s+'))[1] as first) n
   where c.code = upper(regexp_replace(coalesce(p_code, ''), '[\s-]', '', 'g'))
$$;
comment on function public.get_referral_invitation(text) is 'Anyone (the invite link''s page and its preview card): for an invite code sign-up would accept, one row with the inviter''s first name (approved inviters who show their name, when it reads as a name; else null) and the referral credit; no row for any other code. Reveals nothing else about the inviter; codes are 50 random bits, so they cannot be listed by trying.';
revoke all on function public.get_referral_invitation(text) from public, anon, authenticated, service_role;
grant execute on function public.get_referral_invitation(text) to anon;
grant execute on function public.get_referral_invitation(text) to authenticated;
grant execute on function public.get_referral_invitation(text) to service_role;

create or replace function private.record_referral() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  given text := left(btrim(new.raw_user_meta_data ->> 'referral_code'), 40);
  checked jsonb;
  referral_id uuid;
begin
  if given is null or given = '' then
    return new;
  end if;
  -- Never raises: a sign-up is never lost over its invite code (hosted GoTrue would answer a 500).
  checked := private.referral_check(given, new.email);
  if checked #>> '{refusal,code}' = 'referral_code_unknown' then
    perform private.log_activity('referral.refused', new.id, jsonb_build_object('reason', 'referral_code_unknown', 'code', given));
    return new;
  end if;
  insert into public.referrals (referrer_id, referred_id, code, status, reason, decided_at)
  values ((checked ->> 'referrer_id')::uuid, new.id, checked ->> 'code',
          case when checked ? 'refusal' then 'refused' else 'pending' end,
          case when checked ? 'refusal' then 'self_referral' end,
          case when checked ? 'refusal' then now() end)
  returning id into referral_id;
  perform private.log_activity(case when checked ? 'refusal' then 'referral.refused' else 'referral.recorded' end, new.id,
    jsonb_build_object('referral_id', referral_id, 'referrer_id', checked ->> 'referrer_id', 'code', checked ->> 'code')
    || case when checked ? 'refusal' then jsonb_build_object('reason', 'self_referral') else '{}'::jsonb end);
  return new;
end;
$$;
comment on function private.record_referral() is 'Trigger: a sign-up carrying referral_code in its metadata is recorded as a pending referral, or refused (self_referral) or only audited (referral_code_unknown); never refuses the sign-up.';
revoke all on function private.record_referral() from public, anon, authenticated, service_role;

create or replace function private.referral_reason_text(p_reason text) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_reason is null then null
    when p_reason = 'self_referral' then 'Self-referral: the invite was used by the inviter themself'
    when p_reason = 'over_cap' then 'The inviter had already been credited for the most friends allowed this month'
    else case when p_reason like 'referrer_%' then 'The inviter ' else 'The friend ' end
      || case regexp_replace(p_reason, '^(referrer|referred)_', '')
           when 'on_break' then 'was taking a break'
           when 'self_excluded' then 'had excluded themselves'
           when 'restricted' then 'was restricted'
           when 'account_closed' then 'had closed their account'
           when 'deleted' then 'was deleted'
           else 'was not approved'
         end
  end
$$;
comment on function private.referral_reason_text(text) is 'Why a referral was refused, as players and admins read it.';
revoke all on function private.referral_reason_text(text) from public, anon, authenticated, service_role;

create type public.referral as (id uuid, status text, reason text, reason_text text, amount numeric, created_at timestamp with time zone, decided_at timestamp with time zone);
comment on type public.referral is 'One referral without names: its state, why it was refused (code and words), the credit and when.';

create or replace function private.referral_row(r public.referrals) returns public.referral
language sql stable security definer set search_path = '' as $$
  select row(r.id, r.status, r.reason, private.referral_reason_text(r.reason), r.amount, r.created_at,
             r.decided_at)::public.referral
$$;
comment on function private.referral_row(public.referrals) is 'One referral as the account pages show it (no names).';
revoke all on function private.referral_row(public.referrals) from public, anon, authenticated, service_role;

create type public.admin_referral as (id uuid, status text, reason text, reason_text text, amount numeric, created_at timestamp with time zone, decided_at timestamp with time zone, user_id uuid, name text);
comment on type public.admin_referral is 'One referral as an admin sees it: public.referral''s fields and the other player (id and name).';

create or replace function private.admin_referral_row(r public.referrals, p_user uuid, p_name text) returns public.admin_referral
language sql stable security definer set search_path = '' as $$
  select row(r.id, r.status, r.reason, private.referral_reason_text(r.reason), r.amount, r.created_at,
             r.decided_at, p_user, p_name)::public.admin_referral
$$;
comment on function private.admin_referral_row(public.referrals,uuid,text) is 'One referral as the admin''s user page shows it, with the other player (p_user, p_name).';
revoke all on function private.admin_referral_row(public.referrals,uuid,text) from public, anon, authenticated, service_role;

create or replace function private.settle_referral(p_referred uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  r public.referrals%rowtype;
  referrer public.user_account_data%rowtype;
  referred public.user_account_data%rowtype;
  block jsonb;
  refusal text;
  credit numeric(12, 2);
  month_start timestamptz := date_trunc('month', now() at time zone 'Europe/London') at time zone 'Europe/London';
begin
  select * into r from public.referrals where referred_id = p_referred and status = 'pending';
  if not found then
    return;
  end if;
  select * into referred from public.user_account_data where id = p_referred;
  if not coalesce(referred.approved, false)
     or not exists (select 1 from public.entries e where e.user_id = p_referred and e.kind = 'paid') then
    return;
  end if;
  -- The inviter's account row serialises their credits (the monthly cap). Taken without waiting: an entry's
  -- transaction holds its competition row, and the inviter may be buying in the same competition, holding their
  -- account and waiting for that row. Left pending then; the cron's settle_referrals finishes it.
  begin
    select * into referrer from public.user_account_data where id = r.referrer_id for update nowait;
  exception when lock_not_available then
    return;
  end;
  -- Two first entries at once: the second finds it settled.
  select * into r from public.referrals where id = r.id and status = 'pending' for update;
  if not found then
    return;
  end if;

  if referrer.deleted_at is not null then
    refusal := 'referrer_deleted';
  elsif referred.deleted_at is not null then
    refusal := 'referred_deleted';
  else
    block := private.play_block(r.referrer_id);
    if block is not null then
      refusal := 'referrer_' || (block ->> 'code');
    else
      block := private.play_block(p_referred);
      if block is not null then
        refusal := 'referred_' || (block ->> 'code');
      elsif (select count(*) from public.referrals x
              where x.referrer_id = r.referrer_id and x.status = 'credited' and x.decided_at >= month_start)
            >= coalesce((private.setting('referral_monthly_cap') #>> '{}')::integer, 0) then
        refusal := 'over_cap';
      end if;
    end if;
  end if;

  if refusal is not null then
    update public.referrals set status = 'refused', reason = refusal, decided_at = now() where id = r.id;
    perform private.log_activity('referral.refused', p_referred,
      jsonb_build_object('referral_id', r.id, 'referrer_id', r.referrer_id, 'reason', refusal));
    return;
  end if;

  credit := (private.setting('referral_credit') #>> '{}')::numeric;
  perform private.post_ledger(r.referrer_id, 'bonus', credit, 'Referral credit: a friend you invited joined and entered',
                              'referral:' || r.id);
  perform private.post_ledger(p_referred, 'bonus', credit, 'Referral credit: welcome, you joined with an invite',
                              'referral:' || r.id);
  update public.referrals set status = 'credited', amount = credit, decided_at = now() where id = r.id;
  perform private.log_activity('referral.credited', p_referred,
    jsonb_build_object('referral_id', r.id, 'referrer_id', r.referrer_id, 'amount', credit));
end;
$$;
comment on function private.settle_referral(uuid) is 'Credits a pending referral once its friend is approved and has a paid entry: referral_credit to both as bonus rows (referral:<id>), or refuses it with the reason (either side on a break, excluded, restricted, closed or deleted, the inviter unapproved, or over referral_monthly_cap this London month). Leaves it pending when the inviter''s account is locked (the cron retries).';
revoke all on function private.settle_referral(uuid) from public, anon, authenticated, service_role;

create or replace function private.settle_referral_after_entry() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.settle_referral(new.user_id);
  return new;
end;
$$;
comment on function private.settle_referral_after_entry() is 'Trigger: a paid entry may complete its player''s referral.';
revoke all on function private.settle_referral_after_entry() from public, anon, authenticated, service_role;

create or replace function private.settle_referral_after_approval() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.settle_referral(new.id);
  return new;
end;
$$;
comment on function private.settle_referral_after_approval() is 'Trigger: an approval may complete the player''s referral (when their paid entry came first).';
revoke all on function private.settle_referral_after_approval() from public, anon, authenticated, service_role;

create type public.referrals_settled as (checked integer);
comment on type public.referrals_settled is 'How many pending referrals the cron looked at.';

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

create type public.my_referrals as (code text, credit numeric, joined bigint, credited bigint, credited_total numeric, friends public.referral[], invited public.referral);
comment on type public.my_referrals is 'The caller''s invite code, the referral credit, how many friends joined and were credited (and the total), the latest 50 referrals, and their own invite (or null).';

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

create type public.user_referrals as (code text, referred_by public.admin_referral, referred public.admin_referral[]);
comment on type public.user_referrals is 'A player''s invite code, who invited them (or null) and whom they invited, newest first.';

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

-- ----------------------------------------------------------------------------
-- Triggers and policies on tables made elsewhere
-- ----------------------------------------------------------------------------

CREATE TRIGGER on_auth_user_referred AFTER INSERT ON auth.users FOR EACH ROW WHEN ((new.raw_user_meta_data ? 'referral_code'::text)) EXECUTE FUNCTION private.record_referral();
CREATE TRIGGER user_account_settle_referral AFTER UPDATE OF approved ON public.user_account_data FOR EACH ROW WHEN ((new.approved AND (NOT old.approved))) EXECUTE FUNCTION private.settle_referral_after_approval();
CREATE TRIGGER entries_settle_referral AFTER INSERT ON public.entries FOR EACH ROW WHEN (((new.kind = 'paid'::public.entry_kind) AND (new.user_id IS NOT NULL))) EXECUTE FUNCTION private.settle_referral_after_entry();
