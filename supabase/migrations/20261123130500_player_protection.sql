-- ============================================================================
-- Player protection (issue 11 item 9; code of practice 1.6, 1.7): flags raised by
-- the database when play may be causing harm, a review queue for admins, and an
-- intervention record per player (note, contacted, restricted, lifted, closed).
-- A restriction is enforced in SQL: private.play_block refuses top-ups and entries
-- with the code `restricted`, and marketing mail stops.
--
-- Flags (one row per player, kind and period, so raising them again is a no-op):
--   limit_reached       credited top-ups or entries this calendar month (Europe/London)
--                       at or over the player's monthly limit (a limit above £0); once a month
--   limit_raises        the third request in 30 days to raise the monthly limit (a new limit
--                       above the one asked before, or removing it); once per crossing
--   large_top_ups       confirmed top-ups over £1,000 within 24 hours; once per crossing
--   top_up_after_break  a top-up of £100 or more confirmed within a day of a break or
--                       self-exclusion ending; once per break
-- private.raise_player_flags() scans for them set-based; the cron calls
-- raise_player_flags() (secret key) every run and the review queue calls it as it reads.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables
-- ----------------------------------------------------------------------------
create table public.player_flags (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in ('limit_reached', 'limit_raises', 'large_top_ups', 'top_up_after_break')),
  period text not null check (char_length(period) between 1 and 100),
  details jsonb not null default '{}'::jsonb,
  raised_at timestamptz not null default now(),
  status text not null default 'open' check (status in ('open', 'reviewed')),
  reviewed_by uuid references auth.users (id) on delete set null,
  reviewed_at timestamptz,
  review_note text check (review_note is null or char_length(review_note) between 3 and 2000),
  unique (user_id, kind, period),
  check (status = 'open' or (reviewed_at is not null and review_note is not null))
);
alter table public.player_flags enable row level security;
create index player_flags_status_idx on public.player_flags (status, raised_at desc);
create index player_flags_reviewed_by_idx on public.player_flags (reviewed_by);
comment on table public.player_flags is 'Signs of possible harm the database noticed (code of practice 1.6), one per player, kind and period; open until an admin reviews them with a note. Read and written through functions only.';
comment on column public.player_flags.period is 'What makes a flag one event: the month (limit_reached), the request that made three in 30 days (limit_raises), the top-up that crossed £1,000 in 24 hours (large_top_ups), the break that ended (top_up_after_break).';

create table public.player_interventions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind in ('note', 'contacted', 'restricted', 'lifted', 'closed')),
  note text not null check (char_length(note) between 3 and 2000),
  flag_id uuid references public.player_flags (id) on delete set null,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
alter table public.player_interventions enable row level security;
create index player_interventions_user_idx on public.player_interventions (user_id, created_at desc);
create index player_interventions_flag_idx on public.player_interventions (flag_id);
create index player_interventions_created_by_idx on public.player_interventions (created_by);
comment on table public.player_interventions is 'What an admin did about a player (code of practice 1.7): a note, contact, a restriction (play refused until lifted), lifting it, or closing the account. Each is also in the activity log.';

alter table public.player_protections add column restricted_at timestamptz;
comment on column public.player_protections.restricted_at is 'Set while an admin has restricted the player (an intervention): top-ups, entries and marketing mail are refused until it is lifted.';

revoke all on table public.player_flags, public.player_interventions from anon, authenticated;
grant all on table public.player_flags, public.player_interventions to service_role;

-- ----------------------------------------------------------------------------
-- The restriction, enforced where play is checked
-- ----------------------------------------------------------------------------
create or replace function private.raise_refusal(p_code text, p_message text) returns void
language plpgsql set search_path = '' as $$
begin
  case p_code
    when 'invalid_input' then raise exception '%', p_message using errcode = '22023', hint = 'invalid_input';
    when 'top_up_below_minimum' then raise exception '%', p_message using errcode = '22023', hint = 'top_up_below_minimum';
    when 'top_up_above_maximum' then raise exception '%', p_message using errcode = '22023', hint = 'top_up_above_maximum';
    when 'monthly_limit_reached' then raise exception '%', p_message using errcode = 'P0001', hint = 'monthly_limit_reached';
    when 'approval_pending' then raise exception '%', p_message using errcode = 'P0001', hint = 'approval_pending';
    when 'approval_rejected' then raise exception '%', p_message using errcode = 'P0001', hint = 'approval_rejected';
    when 'on_break' then raise exception '%', p_message using errcode = 'P0001', hint = 'on_break';
    when 'self_excluded' then raise exception '%', p_message using errcode = 'P0001', hint = 'self_excluded';
    when 'account_closed' then raise exception '%', p_message using errcode = 'P0001', hint = 'account_closed';
    when 'restricted' then raise exception '%', p_message using errcode = 'P0001', hint = 'restricted';
    else raise exception '%', p_message using errcode = 'P0001', hint = 'invalid_input';
  end case;
end;
$$;
comment on function private.raise_refusal(text, text) is 'Raises a refusal computed as {code, message} (quote_top_up''s refusals) with that code in the HINT.';

create or replace function private.play_block(p_user uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections := private.protections_of(p_user);
  acct public.user_account_data%rowtype;
  until_text text := to_char(p.break_until at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI');
begin
  case private.protection_state(p)
    when 'closed' then
      return jsonb_build_object('code', 'account_closed', 'message', 'Your account is closed');
    when 'self_exclusion' then
      return jsonb_build_object('code', 'self_excluded', 'message', 'You have excluded yourself until ' || until_text);
    when 'break' then
      return jsonb_build_object('code', 'on_break', 'message', 'You are taking a break until ' || until_text);
    else
      null;
  end case;
  -- An admin's restriction (an intervention, code of practice 1.7) holds until an admin lifts it.
  if p.restricted_at is not null then
    return jsonb_build_object('code', 'restricted', 'message', 'Your account is restricted: please contact us');
  end if;
  select * into acct from public.user_account_data a where a.id = p_user;
  if acct.rejected_at is not null and not acct.approved then
    return jsonb_build_object('code', 'approval_rejected', 'message', 'Your account was not approved, so you cannot add credit');
  end if;
  if not coalesce(acct.approved, false) then
    return jsonb_build_object('code', 'approval_pending', 'message', 'Your account is awaiting approval');
  end if;
  return null;
end;
$$;
comment on function private.play_block(uuid) is 'Why a player may not top up or enter now ({code, message}: closure, self-exclusion, break, an admin''s restriction, approval), or null.';

create or replace function private.may_receive_marketing(p_user uuid) returns boolean
language sql security definer set search_path = '' as $$
  select coalesce((select pr.email_notifications from public.profiles pr where pr.id = p_user), false)
     and private.protection_state(private.protections_of(p_user)) = 'active'
     and not exists (select 1 from public.player_protections pp where pp.user_id = p_user and pp.restricted_at is not null)
$$;
comment on function private.may_receive_marketing(uuid) is 'True when marketing mail may go to the player: they consented (email_notifications), are not on a break, excluded or closed, and no admin has restricted them.';

-- ----------------------------------------------------------------------------
-- Raising flags
-- ----------------------------------------------------------------------------
create function private.raise_player_flags() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  month_from timestamptz := private.month_start();
  month_key text := to_char(now() at time zone 'Europe/London', 'YYYY-MM');
  n integer;
  total integer := 0;
begin
  -- Each statement inserts what is new (on conflict do nothing: raising twice is a no-op) and
  -- writes one audit row per new flag. The actor is nobody: the database raised it.

  -- 1. The monthly limit reached: credited top-ups (less refunds) or entries this month at or
  --    over the limit in force (a due increase counts as applied).
  with lim as (
    select pp.user_id,
           case when pp.pending_limit_from is not null and pp.pending_limit_from <= now() then pp.pending_limit
                else pp.monthly_limit end as monthly_limit
      from public.player_protections pp
     where pp.monthly_limit is not null or pp.pending_limit is not null
  ), sums as (
    select l.user_id, l.monthly_limit,
           coalesce((select sum(t.amount - t.refunded_amount) from public.top_ups t
                      where t.user_id = l.user_id and t.created_at >= month_from and t.credited_at is not null
                        and t.status in ('credited', 'partially_refunded', 'refunded')), 0) as topped_up,
           coalesce((select sum(e.amount) from public.entries e
                      where e.user_id = l.user_id and e.kind = 'paid' and e.status = 'active'
                        and e.created_at >= month_from), 0) as spent
      from lim l
     where l.monthly_limit > 0
  ), new_flags as (
    insert into public.player_flags (user_id, kind, period, details)
    select s.user_id, 'limit_reached', month_key,
           jsonb_build_object('month', month_key, 'limit', s.monthly_limit, 'topped_up', s.topped_up, 'spent', s.spent)
      from sums s
     where greatest(s.topped_up, s.spent) >= s.monthly_limit
    on conflict (user_id, kind, period) do nothing
    returning id, user_id, kind
  )
  insert into public.activity_log (actor_id, action, subject_id, details)
  select null, 'protection.flag_raised', f.user_id, jsonb_build_object('flag_id', f.id, 'kind', f.kind) from new_flags f;
  get diagnostics n = row_count;
  total := total + n;

  -- 2. Three requests in 30 days to raise the limit. A request is a 'protections.limit' row; it
  --    raises when it asks for more than the request before it, or for no limit after one.
  --    Flagged on the request that makes three in the 30 days up to it.
  with requests as (
    select l.id, l.subject_id as user_id, l.created_at,
           (l.details ->> 'limit')::numeric as new_limit,
           lag(l.id) over w as prev_id,
           lag((l.details ->> 'limit')::numeric) over w as prev_limit
      from public.activity_log l
     where l.action = 'protections.limit'
       and l.subject_id in (select r.subject_id from public.activity_log r
                             where r.action = 'protections.limit' and r.created_at > now() - interval '30 days')
    window w as (partition by l.subject_id order by l.id)
  ), raises as (
    select q.*,
           count(*) over w as in_window,
           min(q.created_at) over w as first_at
      from requests q
     where q.prev_id is not null and q.prev_limit is not null and (q.new_limit is null or q.new_limit > q.prev_limit)
    window w as (partition by q.user_id order by q.created_at range between interval '30 days' preceding and current row)
  ), new_flags as (
    insert into public.player_flags (user_id, kind, period, details)
    select r.user_id, 'limit_raises', 'request:' || r.id,
           jsonb_build_object('requests', r.in_window, 'from', r.first_at, 'to', r.created_at, 'limit', r.new_limit)
      from raises r
     where r.in_window = 3 and r.created_at > now() - interval '30 days'
    on conflict (user_id, kind, period) do nothing
    returning id, user_id, kind
  )
  insert into public.activity_log (actor_id, action, subject_id, details)
  select null, 'protection.flag_raised', f.user_id, jsonb_build_object('flag_id', f.id, 'kind', f.kind) from new_flags f;
  get diagnostics n = row_count;
  total := total + n;

  -- 3. Confirmed top-ups over £1,000 within 24 hours: flagged on the top-up that takes the
  --    24 hours up to it over £1,000 (looking back a month).
  with confirmed as (
    select t.id, t.user_id, t.amount, t.credited_at,
           sum(t.amount) over w as in_window,
           count(*) over w as top_ups,
           min(t.credited_at) over w as first_at
      from public.top_ups t
     where t.credited_at > now() - interval '32 days'
       and t.status in ('credited', 'partially_refunded', 'refunded')
    window w as (partition by t.user_id order by t.credited_at range between interval '24 hours' preceding and current row)
  ), new_flags as (
    insert into public.player_flags (user_id, kind, period, details)
    select c.user_id, 'large_top_ups', 'top_up:' || c.id,
           jsonb_build_object('total', c.in_window, 'top_ups', c.top_ups, 'from', c.first_at, 'to', c.credited_at)
      from confirmed c
     where c.in_window > 1000 and c.in_window - c.amount <= 1000 and c.credited_at > now() - interval '31 days'
    on conflict (user_id, kind, period) do nothing
    returning id, user_id, kind
  )
  insert into public.activity_log (actor_id, action, subject_id, details)
  select null, 'protection.flag_raised', f.user_id, jsonb_build_object('flag_id', f.id, 'kind', f.kind) from new_flags f;
  get diagnostics n = row_count;
  total := total + n;

  -- 4. A break or self-exclusion ended (its 'until', in the last month) and a top-up of £100
  --    or more was confirmed within a day of the end. An extended break's earlier end cannot be
  --    followed by a top-up (play was still blocked), so each row's 'until' is safe to use.
  with ended as (
    select l.id, l.subject_id as user_id, l.action, (l.details ->> 'until')::timestamptz as ended_at
      from public.activity_log l
     where l.action in ('protections.break', 'protections.self_exclusion')
  ), new_flags as (
    insert into public.player_flags (user_id, kind, period, details)
    select distinct on (e.id) e.user_id, 'top_up_after_break', 'break:' || e.id,
           jsonb_build_object('break_kind', case e.action when 'protections.break' then 'break' else 'self_exclusion' end,
                              'ended_at', e.ended_at, 'top_up_id', t.id, 'amount', t.amount,
                              'topped_up_at', t.created_at)
      from ended e
      join public.top_ups t
        on t.user_id = e.user_id and t.credited_at is not null
       and t.status in ('credited', 'partially_refunded', 'refunded')
       and t.amount >= 100 and t.created_at >= e.ended_at and t.created_at < e.ended_at + interval '1 day'
     where e.ended_at between now() - interval '31 days' and now()
     order by e.id, t.created_at
    on conflict (user_id, kind, period) do nothing
    returning id, user_id, kind
  )
  insert into public.activity_log (actor_id, action, subject_id, details)
  select null, 'protection.flag_raised', f.user_id, jsonb_build_object('flag_id', f.id, 'kind', f.kind) from new_flags f;
  get diagnostics n = row_count;
  total := total + n;

  return total;
end;
$$;
comment on function private.raise_player_flags() is 'Scans for signs of possible harm (monthly limit reached, three limit-raise requests in 30 days, confirmed top-ups over £1,000 in 24 hours, a £100+ top-up within a day of a break ending) and inserts the new flags, each audited (protection.flag_raised); answers how many were new. Idempotent.';

create function public.raise_player_flags() returns jsonb
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  return jsonb_build_object('raised', private.raise_player_flags());
end;
$$;
comment on function public.raise_player_flags() is 'Server (the cron): raises any new player-protection flags; answers {raised}.';
revoke all on function public.raise_player_flags() from public, anon, authenticated;
grant execute on function public.raise_player_flags() to service_role;

-- ----------------------------------------------------------------------------
-- Reading flags and interventions
-- ----------------------------------------------------------------------------
create function private.player_flag_json(p_flag_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'id', f.id,
    'user', jsonb_build_object('id', f.user_id, 'name', coalesce(p.name, 'Deleted user'), 'email', p.email),
    'kind', f.kind,
    'details', f.details,
    'raised_at', f.raised_at,
    'status', f.status,
    'reviewed_at', f.reviewed_at,
    'reviewed_by_name', rb.name,
    'review_note', f.review_note,
    'intervention_kind', (select i.kind from public.player_interventions i where i.flag_id = f.id
                           order by i.created_at desc limit 1))
  from public.player_flags f
  left join public.profiles p on p.id = f.user_id
  left join public.profiles rb on rb.id = f.reviewed_by
  where f.id = p_flag_id
$$;
comment on function private.player_flag_json(uuid) is 'One flag as the admin screens show it: the player, kind, details, when raised, and its review (who, when, the note, the intervention recorded with it).';

create function private.player_intervention_json(p_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'id', i.id, 'user_id', i.user_id, 'kind', i.kind, 'note', i.note, 'flag_id', i.flag_id,
    'created_at', i.created_at, 'created_by_name', cb.name)
  from public.player_interventions i
  left join public.profiles cb on cb.id = i.created_by
  where i.id = p_id
$$;
comment on function private.player_intervention_json(uuid) is 'One intervention as the admin screens show it, with who recorded it.';

create function public.admin_list_player_flags(p_status text default 'open', p_limit integer default 100) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_status text := coalesce(p_status, 'open');
  page_size integer := least(greatest(coalesce(p_limit, 100), 1), 500);
begin
  perform private.require_admin();
  if v_status not in ('open', 'reviewed') then
    raise exception 'Status must be open or reviewed' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The queue is always current: anything new since the cron's last run is raised first.
  perform private.raise_player_flags();
  return (select coalesce(jsonb_agg(private.player_flag_json(f.id)
                                    order by case when v_status = 'open' then f.raised_at end,
                                             f.reviewed_at desc), '[]'::jsonb)
            from (select x.id, x.raised_at, x.reviewed_at from public.player_flags x
                   where x.status = v_status
                   order by case when v_status = 'open' then x.raised_at end, x.reviewed_at desc
                   limit page_size) f);
end;
$$;
comment on function public.admin_list_player_flags(text, integer) is 'Admins: the review queue. open flags oldest first (raising any new ones first), or reviewed ones latest first, at most p_limit, each with the player and the review.';
grant execute on function public.admin_list_player_flags(text, integer) to authenticated;

create function public.admin_get_player_protection(p_user_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  perform private.admin_user_target(p_user_id);
  return jsonb_build_object(
    'restricted_at', (select pp.restricted_at from public.player_protections pp where pp.user_id = p_user_id),
    'flags', (select coalesce(jsonb_agg(private.player_flag_json(f.id) order by f.raised_at desc), '[]'::jsonb)
                from (select x.id, x.raised_at from public.player_flags x where x.user_id = p_user_id
                       order by x.raised_at desc limit 50) f),
    'interventions', (select coalesce(jsonb_agg(private.player_intervention_json(i.id) order by i.created_at desc), '[]'::jsonb)
                        from (select x.id, x.created_at from public.player_interventions x where x.user_id = p_user_id
                               order by x.created_at desc limit 50) i));
end;
$$;
comment on function public.admin_get_player_protection(uuid) is 'Admins: one player''s protection record: whether they are restricted (since when), their 50 latest flags and 50 latest interventions.';
grant execute on function public.admin_get_player_protection(uuid) to authenticated;

-- ----------------------------------------------------------------------------
-- Interventions and reviews
-- ----------------------------------------------------------------------------
create function private.record_intervention(p_admin uuid, p_user_id uuid, p_kind text, p_note text, p_flag_id uuid)
returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data;
  note text := btrim(replace(coalesce(p_note, ''), E'\r\n', E'\n'));
  p public.player_protections;
  new_id uuid;
begin
  if p_kind is null or p_kind not in ('note', 'contacted', 'restricted', 'lifted', 'closed') then
    raise exception 'The intervention must be a note, contacted, restricted, lifted or closed' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(note) not between 3 and 2000 then
    raise exception 'Write a note of 3 to 2000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_user_id = p_admin then
    raise exception 'You cannot record an intervention on your own account' using errcode = '42501', hint = 'self_change_refused';
  end if;
  -- The account lock, as top-ups, entries and the player's own protection changes take it.
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  insert into public.player_protections (user_id) values (p_user_id) on conflict (user_id) do nothing;
  select * into p from public.player_protections where user_id = p_user_id for update;
  case p_kind
    when 'restricted' then
      update public.player_protections set restricted_at = coalesce(restricted_at, now()), updated_at = now()
       where user_id = p_user_id;
    when 'lifted' then
      if p.restricted_at is null then
        raise exception 'This player is not restricted' using errcode = 'P0001', hint = 'not_restricted';
      end if;
      update public.player_protections set restricted_at = null, updated_at = now() where user_id = p_user_id;
    when 'closed' then
      -- As close_account does it: for good; sign-in and history stay.
      update public.player_protections
         set break_kind = 'closed', closed_at = coalesce(closed_at, now()), updated_at = now()
       where user_id = p_user_id;
    else
      null;
  end case;
  insert into public.player_interventions (user_id, kind, note, flag_id, created_by)
  values (p_user_id, p_kind, note, p_flag_id, p_admin)
  returning id into new_id;
  perform private.log_activity('protection.intervention', p_user_id,
    jsonb_build_object('intervention_id', new_id, 'kind', p_kind, 'note', note, 'flag_id', p_flag_id));
  return new_id;
end;
$$;
comment on function private.record_intervention(uuid, uuid, text, text, uuid) is 'Records an admin''s intervention on a player and applies it (restricted: play refused until lifted; lifted: the restriction ends, not_restricted if none; closed: the account closed as close_account does); audited (protection.intervention).';

create function public.admin_record_intervention(p_user_id uuid, p_kind text, p_note text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  new_id uuid;
begin
  -- Two statements: the stable reader must see the row the first one wrote.
  new_id := private.record_intervention(admin_id, p_user_id, p_kind, p_note, null);
  return private.player_intervention_json(new_id);
end;
$$;
comment on function public.admin_record_intervention(uuid, text, text) is 'Admins: records an intervention on a player (note, contacted, restricted, lifted, closed) with a required note (3 to 2000 characters) and applies it; never on one''s own account; audited.';
grant execute on function public.admin_record_intervention(uuid, text, text) to authenticated;

create function public.admin_review_player_flag(p_flag_id uuid, p_note text, p_intervention text default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  f public.player_flags%rowtype;
  note text := btrim(replace(coalesce(p_note, ''), E'\r\n', E'\n'));
  intervention uuid;
begin
  if char_length(note) not between 3 and 2000 then
    raise exception 'Write a note of 3 to 2000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_intervention is not null and p_intervention not in ('note', 'contacted', 'restricted', 'lifted', 'closed') then
    raise exception 'The intervention must be a note, contacted, restricted, lifted or closed' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into f from public.player_flags where id = p_flag_id for update;
  if not found then
    raise exception 'No such flag' using errcode = 'P0002', hint = 'flag_not_found';
  end if;
  if f.status = 'reviewed' then
    raise exception 'This flag was already reviewed' using errcode = 'P0001', hint = 'flag_already_reviewed';
  end if;
  if p_intervention is not null then
    intervention := private.record_intervention(admin_id, f.user_id, p_intervention, note, f.id);
  end if;
  update public.player_flags
     set status = 'reviewed', reviewed_by = admin_id, reviewed_at = now(), review_note = note
   where id = f.id;
  perform private.log_activity('protection.flag_reviewed', f.user_id,
    jsonb_build_object('flag_id', f.id, 'kind', f.kind, 'note', note, 'intervention', p_intervention));
  return private.player_flag_json(f.id);
end;
$$;
comment on function public.admin_review_player_flag(uuid, text, text) is 'Admins: marks an open flag reviewed with a note (3 to 2000 characters), optionally recording an intervention with the same note; flag_not_found, flag_already_reviewed; audited (protection.flag_reviewed).';
grant execute on function public.admin_review_player_flag(uuid, text, text) to authenticated;

-- ----------------------------------------------------------------------------
-- The users list shows open flags
-- ----------------------------------------------------------------------------
create or replace function private.admin_user_row(p_user_id uuid) returns jsonb
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
    'deleted_at', a.deleted_at,
    'open_flags', (select count(*) from public.player_flags f where f.user_id = a.id and f.status = 'open'))
  from public.user_account_data a
  join public.profiles p on p.id = a.id
  where a.id = p_user_id
$$;
comment on function private.admin_user_row(uuid) is 'One user as the admin users list shows them: name, e-mail, role, approval (approved, pending, rejected or deleted), KYC status, balance, dates, and how many flags await review.';
