-- ============================================================================
-- Player protection: limits, breaks, self-exclusion, flags, complaints.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create type public.break_kind as enum ('break', 'self_exclusion', 'closed');
comment on type public.break_kind is 'What stops a player playing: a break, self-exclusion, or a closed account.';
create table public.player_protections (
  user_id uuid not null,
  monthly_limit numeric(12,2),
  pending_limit numeric(12,2),
  pending_limit_from timestamp with time zone,
  limit_set_at timestamp with time zone,
  limit_prompt_seen_at timestamp with time zone,
  break_kind public.break_kind,
  break_until timestamp with time zone,
  closed_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  restricted_at timestamp with time zone,
  constraint player_protections_pkey primary key (user_id),
  constraint player_protections_pending_limit_dated_check check (((pending_limit IS NULL) OR (pending_limit_from IS NOT NULL))),
  constraint player_protections_monthly_limit_check check ((monthly_limit >= (0)::numeric)),
  constraint player_protections_pending_limit_check check ((pending_limit >= (0)::numeric)),
  constraint player_protections_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.player_protections enable row level security;
comment on table public.player_protections is 'A player''s responsible-play choices (code of practice 1.4, 1.5, 1.8): monthly limit (a pending increase waits for the cooling-off), break, self-exclusion, closure. No row means no limit and no block.';
comment on column public.player_protections.pending_limit_from is 'When the pending increase applies; set with pending_limit null it means the limit is being removed.';
comment on column public.player_protections.restricted_at is 'Set while an admin has restricted the player (an intervention): top-ups, entries and marketing mail are refused until it is lifted.';
revoke all on table public.player_protections from public, anon, authenticated, service_role;
grant all on table public.player_protections to service_role;

create type public.complaint_status as enum ('received', 'acknowledged', 'resolved');
comment on type public.complaint_status is 'Where a complaint stands.';
create sequence public.complaint_numbers;
revoke all on sequence public.complaint_numbers from public, anon, authenticated, service_role;
grant select, update, usage on sequence public.complaint_numbers to service_role;
create table public.complaints (
  id uuid default gen_random_uuid() not null,
  reference text default ('LC-'::text || lpad((nextval('public.complaint_numbers'::regclass))::text, 6, '0'::text)) not null,
  user_id uuid,
  subject text not null,
  related_reference text,
  details text not null,
  status public.complaint_status default 'received'::public.complaint_status not null,
  acknowledge_by timestamp with time zone not null,
  respond_by timestamp with time zone not null,
  acknowledged_at timestamp with time zone,
  resolved_at timestamp with time zone,
  response text,
  handled_by uuid,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint complaints_pkey primary key (id),
  constraint complaints_reference_key unique (reference),
  constraint complaints_resolved_with_response_check check (((status <> 'resolved'::public.complaint_status) OR ((response IS NOT NULL) AND (resolved_at IS NOT NULL)))),
  constraint complaints_details_check check (((char_length(details) >= 20) AND (char_length(details) <= 5000))),
  constraint complaints_related_reference_check check ((char_length(related_reference) <= 100)),
  constraint complaints_response_check check ((char_length(response) <= 5000)),
  constraint complaints_subject_check check (((char_length(subject) >= 3) AND (char_length(subject) <= 120))),
  constraint complaints_handled_by_fkey foreign key (handled_by) references auth.users(id) on delete set null,
  constraint complaints_user_id_fkey foreign key (user_id) references auth.users(id) on delete set null
);
alter table public.complaints enable row level security;
alter sequence public.complaint_numbers owned by public.complaints.reference;
comment on table public.complaints is 'Player complaints (code of practice 1.2): a reference, the status (received -> acknowledged -> resolved), and the deadlines: acknowledged within 2 working days, a final answer within 28 days.';
revoke all on table public.complaints from public, anon, authenticated, service_role;
grant select on table public.complaints to authenticated;
grant all on table public.complaints to service_role;

create index complaints_user_idx on public.complaints (user_id, created_at DESC);
create index complaints_handled_by_idx on public.complaints (handled_by);
create index complaints_status_idx on public.complaints (status, respond_by);
create policy "complaints: own rows or admin" on public.complaints
  as permissive for select to authenticated
  using (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

create type public.flag_kind as enum ('limit_reached', 'limit_raises', 'large_top_ups', 'top_up_after_break');
comment on type public.flag_kind is 'The sign of possible harm a player protection flag records.';
create type public.flag_status as enum ('open', 'reviewed');
comment on type public.flag_status is 'Whether an admin has reviewed a player protection flag.';
create table public.player_flags (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  kind public.flag_kind not null,
  period text not null,
  details jsonb default '{}'::jsonb not null,
  raised_at timestamp with time zone default now() not null,
  status public.flag_status default 'open'::public.flag_status not null,
  reviewed_by uuid,
  reviewed_at timestamp with time zone,
  review_note text,
  constraint player_flags_pkey primary key (id),
  constraint player_flags_user_id_kind_period_key unique (user_id, kind, period),
  constraint player_flags_reviewed_with_note_check check (((status = 'open'::public.flag_status) OR ((reviewed_at IS NOT NULL) AND (review_note IS NOT NULL)))),
  constraint player_flags_period_check check (((char_length(period) >= 1) AND (char_length(period) <= 100))),
  constraint player_flags_review_note_check check (((review_note IS NULL) OR ((char_length(review_note) >= 3) AND (char_length(review_note) <= 2000)))),
  constraint player_flags_reviewed_by_fkey foreign key (reviewed_by) references auth.users(id) on delete set null,
  constraint player_flags_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.player_flags enable row level security;
comment on table public.player_flags is 'Signs of possible harm the database noticed (code of practice 1.6), one per player, kind and period; open until an admin reviews them with a note. Read and written through functions only.';
comment on column public.player_flags.period is 'What makes a flag one event: the month (limit_reached), the request that made three in 30 days (limit_raises), the top-up that crossed £1,000 in 24 hours (large_top_ups), the break that ended (top_up_after_break).';
revoke all on table public.player_flags from public, anon, authenticated, service_role;
grant all on table public.player_flags to service_role;

create index player_flags_reviewed_by_idx on public.player_flags (reviewed_by);
create index player_flags_status_idx on public.player_flags (status, raised_at DESC);

create type public.intervention_kind as enum ('note', 'contacted', 'restricted', 'lifted', 'closed');
comment on type public.intervention_kind is 'What an admin did about a player''s protection.';
create table public.player_interventions (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  kind public.intervention_kind not null,
  note text not null,
  flag_id uuid,
  created_by uuid,
  created_at timestamp with time zone default now() not null,
  constraint player_interventions_pkey primary key (id),
  constraint player_interventions_note_check check (((char_length(note) >= 3) AND (char_length(note) <= 2000))),
  constraint player_interventions_created_by_fkey foreign key (created_by) references auth.users(id) on delete set null,
  constraint player_interventions_flag_id_fkey foreign key (flag_id) references public.player_flags(id) on delete set null,
  constraint player_interventions_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.player_interventions enable row level security;
comment on table public.player_interventions is 'What an admin did about a player (code of practice 1.7): a note, contact, a restriction (play refused until lifted), lifting it, or closing the account. Each is also in the activity log.';
revoke all on table public.player_interventions from public, anon, authenticated, service_role;
grant all on table public.player_interventions to service_role;

create index player_interventions_user_idx on public.player_interventions (user_id, created_at DESC);
create index player_interventions_flag_idx on public.player_interventions (flag_id);
create index player_interventions_created_by_idx on public.player_interventions (created_by);

-- ----------------------------------------------------------------------------
-- Functions
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
comment on function private.raise_refusal(text,text) is 'Raises a refusal computed as {code, message} (quote_top_up''s refusals) with that code in the HINT.';
revoke all on function private.raise_refusal(text,text) from public, anon, authenticated, service_role;

create or replace function private.protections_of(p_user uuid) returns public.player_protections
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections%rowtype;
begin
  -- A pending increase applies the first time it is read after its moment.
  update public.player_protections
     set monthly_limit = pending_limit, pending_limit = null, pending_limit_from = null, updated_at = now()
   where user_id = p_user and pending_limit_from is not null and pending_limit_from <= now();
  select * into p from public.player_protections where user_id = p_user;
  if not found then
    p.user_id := p_user;
  end if;
  return p;
end;
$$;
comment on function private.protections_of(uuid) is 'A player''s protections with any due limit increase applied (an empty row when they never set any).';
revoke all on function private.protections_of(uuid) from public, anon, authenticated, service_role;

create or replace function private.needs_limit_prompt(p public.player_protections, p_user uuid) returns boolean
language sql stable set search_path = '' as $$
  -- Until a limit is set, the invitation declined or a first top-up credited.
  select p.limit_set_at is null and p.limit_prompt_seen_at is null
     and not exists (select 1 from public.top_ups t where t.user_id = p_user and t.credited_at is not null)
$$;
comment on function private.needs_limit_prompt(public.player_protections,uuid) is 'Whether to invite a player (p: their protections) to set a monthly limit: none set, the invitation never declined, no top-up credited yet.';
revoke all on function private.needs_limit_prompt(public.player_protections,uuid) from public, anon, authenticated, service_role;

create or replace function private.protection_state(p player_protections) returns text
language sql stable set search_path = '' as $$
  select case
    when p.closed_at is not null then 'closed'
    when p.break_until is not null and p.break_until > now() then p.break_kind::text
    else 'active'
  end
$$;
comment on function private.protection_state(public.player_protections) is 'active, break, self_exclusion or closed: what the protections mean now.';
revoke all on function private.protection_state(public.player_protections) from public, anon, authenticated, service_role;

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
  return private.approval_refusal(acct, 'add credit');
end;
$$;
comment on function private.play_block(uuid) is 'Why a player may not top up or enter now ({code, message}: closure, self-exclusion, break, an admin''s restriction, approval), or null.';
revoke all on function private.play_block(uuid) from public, anon, authenticated, service_role;

create or replace function public.get_my_protections() returns public.protections
language plpgsql security definer set search_path = '' as $$
begin
  return private.protections_row(private.require_user_first_step());
end;
$$;
comment on function public.get_my_protections() is 'Signed-in users: their monthly limit (and pending increase), money put in and spent this month, what is left, and their state (active, break, self_exclusion, closed).';
revoke all on function public.get_my_protections() from public, anon, authenticated, service_role;
grant execute on function public.get_my_protections() to authenticated;
grant execute on function public.get_my_protections() to service_role;

create or replace function public.dismiss_limit_prompt() returns void
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  insert into public.player_protections (user_id, limit_prompt_seen_at) values (uid, now())
  on conflict (user_id) do update set limit_prompt_seen_at = now(), updated_at = now();
end;
$$;
comment on function public.dismiss_limit_prompt() is 'Signed-in users: stop inviting me to set a monthly limit.';
revoke all on function public.dismiss_limit_prompt() from public, anon, authenticated, service_role;
grant execute on function public.dismiss_limit_prompt() to authenticated;
grant execute on function public.dismiss_limit_prompt() to service_role;

create or replace function public.set_monthly_limit(p_limit numeric) returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  p public.player_protections;
  delay numeric := (private.setting('limit_increase_delay_hours'))::numeric;
begin
  if p_limit is not null and (not private.is_pounds(p_limit) or p_limit < 0 or p_limit > 1000000) then
    raise exception 'The limit must be an amount in pounds and pence from £0 to £1,000,000, or none' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  perform 1 from public.user_account_data a where a.id = uid for update;
  insert into public.player_protections (user_id) values (uid) on conflict (user_id) do nothing;
  p := private.protections_of(uid);
  if p_limit is not null and (p.monthly_limit is null or p_limit <= p.monthly_limit) then
    -- A decrease (or a first limit) protects the player, so it applies at once.
    update public.player_protections
       set monthly_limit = p_limit, pending_limit = null, pending_limit_from = null, limit_set_at = now(), updated_at = now()
     where user_id = uid;
  elsif p.monthly_limit is null then
    -- No limit, and none asked for: nothing to wait for.
    update public.player_protections
       set pending_limit = null, pending_limit_from = null, limit_set_at = now(), updated_at = now()
     where user_id = uid;
  else
    -- An increase, or removing the limit, waits for the cooling-off.
    update public.player_protections
       set pending_limit = p_limit, pending_limit_from = now() + make_interval(secs => delay * 3600),
           limit_set_at = now(), updated_at = now()
     where user_id = uid;
  end if;
  perform private.log_activity('protections.limit', uid, jsonb_build_object('limit', p_limit));
  return private.protections_row(uid);
end;
$$;
comment on function public.set_monthly_limit(numeric) is 'Signed-in users: sets the monthly limit (null for none; £0 allowed). A decrease applies at once; an increase or removal waits limit_increase_delay_hours.';
revoke all on function public.set_monthly_limit(numeric) from public, anon, authenticated, service_role;
grant execute on function public.set_monthly_limit(numeric) to authenticated;
grant execute on function public.set_monthly_limit(numeric) to service_role;

create or replace function private.start_block(p_user uuid, p_kind text, p_until timestamptz) returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections;
begin
  -- The account lock, as top-ups and entries take it: one in progress finishes first.
  perform private.create_account_rows(p_user);
  perform 1 from public.user_account_data a where a.id = p_user for update;
  insert into public.player_protections (user_id) values (p_user) on conflict (user_id) do nothing;
  select * into p from public.player_protections where user_id = p_user for update;
  if p.closed_at is not null then
    raise exception 'Your account is closed' using errcode = 'P0001', hint = 'account_closed';
  end if;
  -- Never shortened or weakened: a block can only be extended, or made stronger.
  update public.player_protections
     set break_until = greatest(case when break_until > now() then break_until end, p_until),
         break_kind = (case when break_until > now() and break_kind = 'self_exclusion' then 'self_exclusion' else p_kind end)::public.break_kind,
         updated_at = now()
   where user_id = p_user;
  perform private.log_activity('protections.' || p_kind, p_user, jsonb_build_object('until', p_until));
  return private.protections_row(p_user);
end;
$$;
comment on function private.start_block(uuid,text,timestamp with time zone) is 'Starts or extends a break or self-exclusion; never shortens one or turns a self-exclusion into a break.';
revoke all on function private.start_block(uuid,text,timestamp with time zone) from public, anon, authenticated, service_role;

create or replace function public.take_break(p_period text) returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_period is null or p_period not in ('1 week', '1 month', '3 months') then
    raise exception 'A break lasts 1 week, 1 month or 3 months' using errcode = '22023', hint = 'invalid_input';
  end if;
  return private.start_block(uid, 'break', now() + p_period::interval);
end;
$$;
comment on function public.take_break(text) is 'Signed-in users: a break from top-ups, entries and marketing mail for 1 week, 1 month or 3 months; it cannot be ended early.';
revoke all on function public.take_break(text) from public, anon, authenticated, service_role;
grant execute on function public.take_break(text) to authenticated;
grant execute on function public.take_break(text) to service_role;

create or replace function public.self_exclude(p_months integer) returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_months is null or p_months < 6 or p_months > 120 then
    raise exception 'Self-exclusion lasts from 6 months to 10 years' using errcode = '22023', hint = 'invalid_input';
  end if;
  return private.start_block(uid, 'self_exclusion', now() + make_interval(months => p_months));
end;
$$;
comment on function public.self_exclude(integer) is 'Signed-in users: self-exclusion for p_months (6 to 120); it cannot be ended early.';
revoke all on function public.self_exclude(integer) from public, anon, authenticated, service_role;
grant execute on function public.self_exclude(integer) to authenticated;
grant execute on function public.self_exclude(integer) to service_role;

create type public.complaint as (id uuid, reference text, status public.complaint_status, subject text, related_reference text, details text, acknowledge_by timestamp with time zone, respond_by timestamp with time zone, acknowledged_at timestamp with time zone, resolved_at timestamp with time zone, response text, created_at timestamp with time zone);
comment on type public.complaint is 'A complaint as its player sees it: reference, status, deadlines and our answer.';

create or replace function public.submit_complaint(p_subject text, p_reference text, p_details text) returns public.complaint
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  subject text := btrim(coalesce(p_subject, ''));
  related text := nullif(btrim(coalesce(p_reference, '')), '');
  details text := btrim(coalesce(p_details, ''));
  new_row public.complaints%rowtype;
begin
  if char_length(subject) not between 3 and 120 then
    raise exception 'Give a subject between 3 and 120 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if related is not null and char_length(related) > 100 then
    raise exception 'The reference must be at most 100 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(details) not between 20 and 5000 then
    raise exception 'Describe the problem in 20 to 5000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The account lock queues one player's submissions, so the daily count below is exact.
  perform private.create_account_rows(uid);
  perform 1 from public.user_account_data a where a.id = uid for update;
  if (select count(*) from public.complaints c where c.user_id = uid and c.created_at > now() - interval '24 hours') >= 3 then
    raise exception 'You have sent 3 complaints in the last 24 hours: we will answer each of them. Please wait before sending another, or e-mail us'
      using errcode = 'P0001', hint = 'rate_limited';
  end if;
  insert into public.complaints (user_id, subject, related_reference, details, acknowledge_by, respond_by)
  values (uid, subject, related, details, private.add_working_days(now(), 2), now() + interval '28 days')
  returning * into new_row;
  perform private.queue_mail(uid, 'complaint_received', 'Your complaint ' || new_row.reference || ': ' || subject,
    format(E'We have received your complaint.\n\nReference: %s\nSubject: %s\n\nWe will acknowledge it by %s and give you our '
           'final answer by %s. If you are not happy with our answer, you can take it to %s (%s), free of charge.',
           new_row.reference, subject,
           to_char(new_row.acknowledge_by at time zone 'Europe/London', 'FMDD FMMonth YYYY'),
           to_char(new_row.respond_by at time zone 'Europe/London', 'FMDD FMMonth YYYY'),
           private.setting('dispute_resolution_body') ->> 'name', private.setting('dispute_resolution_body') ->> 'url'));
  perform private.log_activity('complaint.submitted', new_row.id, jsonb_build_object('reference', new_row.reference));
  return private.complaint_row(new_row);
end;
$$;
comment on function public.submit_complaint(text,text,text) is 'Signed-in users: records a complaint (subject, optional competition or payment reference, details), at most 3 a day, and mails a confirmation with the reference and the deadlines.';
revoke all on function public.submit_complaint(text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.submit_complaint(text,text,text) to authenticated;
grant execute on function public.submit_complaint(text,text,text) to service_role;

create or replace function public.get_my_complaints() returns setof public.complaint
language sql stable security definer set search_path = '' as $$
  select r.*
    from public.complaints c
   cross join lateral private.complaint_row(c) r
   where c.user_id = private.require_user()
   order by c.created_at desc
$$;
comment on function public.get_my_complaints() is 'The caller''s complaints, newest first, with status, deadlines and our answer.';
revoke all on function public.get_my_complaints() from public, anon, authenticated, service_role;
grant execute on function public.get_my_complaints() to authenticated;
grant execute on function public.get_my_complaints() to service_role;

create type public.admin_complaint as (id uuid, reference text, status public.complaint_status, subject text, related_reference text, details text, acknowledge_by timestamp with time zone, respond_by timestamp with time zone, acknowledged_at timestamp with time zone, resolved_at timestamp with time zone, response text, created_at timestamp with time zone, user_id uuid, email text, name text, overdue boolean);
comment on type public.admin_complaint is 'A complaint as the admin queue lists it: the player''s fields, the complainant and whether a deadline has passed unanswered.';

create or replace function public.admin_list_complaints(p_status text default null) returns setof public.admin_complaint
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  if p_status is not null and p_status not in ('received', 'acknowledged', 'resolved') then
    raise exception 'Unknown status: %', p_status using errcode = '22023', hint = 'invalid_input';
  end if;
  return query
    select r.*
      from public.complaints c
     cross join lateral private.admin_complaint_row(c) r
     where p_status is null or c.status = p_status::public.complaint_status
     order by c.status = 'resolved', c.respond_by;
end;
$$;
comment on function public.admin_list_complaints(text) is 'Admins: complaints (optionally one status), open ones first by answer deadline, with the complainant and an overdue flag.';
revoke all on function public.admin_list_complaints(text) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_complaints(text) to authenticated;
grant execute on function public.admin_list_complaints(text) to service_role;

create or replace function public.admin_update_complaint(p_id uuid, p_status text, p_response text default null)
returns public.admin_complaint
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  prev public.complaints%rowtype;
  answer text := nullif(btrim(coalesce(p_response, '')), '');
  updated public.complaints%rowtype;
begin
  if p_status is null or p_status not in ('acknowledged', 'resolved') then
    raise exception 'Status must be acknowledged or resolved' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_status = 'resolved' and (answer is null or char_length(answer) not between 10 and 5000) then
    raise exception 'Write the final answer (10 to 5000 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into prev from public.complaints where id = p_id for update;
  if not found then
    raise exception 'Complaint not found' using errcode = 'PT404', hint = 'complaint_not_found';
  end if;
  if prev.status = 'resolved' then
    raise exception 'This complaint has been answered already' using errcode = 'P0001', hint = 'edit_not_allowed';
  end if;
  update public.complaints
     set status = p_status::public.complaint_status,
         acknowledged_at = coalesce(acknowledged_at, now()),
         resolved_at = case when p_status = 'resolved' then now() end,
         response = case when p_status = 'resolved' then answer else response end,
         handled_by = admin_id, updated_at = now()
   where id = p_id
   returning * into updated;
  if prev.user_id is not null then
    perform private.queue_mail(prev.user_id, 'complaint_' || p_status,
      case when p_status = 'resolved' then 'Our answer to your complaint ' else 'We are looking into your complaint ' end || prev.reference,
      case when p_status = 'resolved'
           then format(E'%s\n\nIf you are not happy with this answer, you can take it to %s (%s), free of charge.',
                       answer, private.setting('dispute_resolution_body') ->> 'name', private.setting('dispute_resolution_body') ->> 'url')
           else format('We have your complaint %s and will give you our final answer by %s.', prev.reference,
                       to_char(prev.respond_by at time zone 'Europe/London', 'FMDD FMMonth YYYY')) end);
  end if;
  perform private.log_activity('complaint.' || p_status, p_id, jsonb_build_object('reference', prev.reference));
  return private.admin_complaint_row(updated);
end;
$$;
comment on function public.admin_update_complaint(uuid,text,text) is 'Admins: acknowledges a complaint or resolves it with the final answer; the complainant is mailed; audited.';
revoke all on function public.admin_update_complaint(uuid,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_complaint(uuid,text,text) to authenticated;
grant execute on function public.admin_update_complaint(uuid,text,text) to service_role;

create type public.admin_complaint_detail as (id uuid, reference text, status public.complaint_status, subject text, related_reference text, details text, acknowledge_by timestamp with time zone, respond_by timestamp with time zone, acknowledged_at timestamp with time zone, resolved_at timestamp with time zone, response text, created_at timestamp with time zone, user_id uuid, email text, name text, overdue boolean, handled_by_name text);
comment on type public.admin_complaint_detail is 'One complaint for an admin: the queue''s fields and who handled it.';

create or replace function public.admin_get_complaint(p_id uuid) returns public.admin_complaint_detail
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.complaints%rowtype;
  r public.admin_complaint;
begin
  perform private.require_admin();
  select * into c from public.complaints where id = p_id;
  if not found then
    raise exception 'Complaint not found' using errcode = 'PT404', hint = 'complaint_not_found';
  end if;
  r := private.admin_complaint_row(c);
  return (r.id, r.reference, r.status, r.subject, r.related_reference, r.details, r.acknowledge_by, r.respond_by,
          r.acknowledged_at, r.resolved_at, r.response, r.created_at, r.user_id, r.email, r.name, r.overdue,
          (select p.name from public.profiles p where p.id = c.handled_by))::public.admin_complaint_detail;
end;
$$;
comment on function public.admin_get_complaint(uuid) is 'Admins: one complaint as the queue lists it (complainant, overdue flag) plus who handled it (handled_by_name); complaint_not_found for an unknown id.';
revoke all on function public.admin_get_complaint(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_get_complaint(uuid) to authenticated;
grant execute on function public.admin_get_complaint(uuid) to service_role;

create or replace function private.raise_player_flags() returns integer
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
revoke all on function private.raise_player_flags() from public, anon, authenticated, service_role;

create type public.flags_raised as (raised integer);
comment on type public.flags_raised is 'How many new player-protection flags the cron raised.';

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

create type public.flag_player as (id uuid, name text, email text);
comment on type public.flag_player is 'The player a flag is about: their name (Deleted user once anonymised) and e-mail.';

create type public.player_flag as (id uuid, "user" public.flag_player, kind public.flag_kind, details jsonb, raised_at timestamp with time zone, status public.flag_status, reviewed_at timestamp with time zone, reviewed_by_name text, review_note text, intervention_kind public.intervention_kind);
comment on type public.player_flag is 'One player-protection flag as the admin screens show it: the player, kind, what the SQL saw (details, per kind), when raised, and its review (who, when, the note, the intervention recorded with it).';

create or replace function private.player_flag_of(p_flag_id uuid) returns public.player_flag
language sql stable security definer set search_path = '' as $$
  select f.id,
         row(f.user_id, coalesce(p.name, 'Deleted user'), p.email)::public.flag_player,
         f.kind,
         f.details,
         f.raised_at,
         f.status,
         f.reviewed_at,
         rb.name,
         f.review_note,
         (select i.kind from public.player_interventions i where i.flag_id = f.id
           order by i.created_at desc limit 1)
  from public.player_flags f
  left join public.profiles p on p.id = f.user_id
  left join public.profiles rb on rb.id = f.reviewed_by
  where f.id = p_flag_id
$$;
comment on function private.player_flag_of(uuid) is 'One flag as the admin screens show it: the player, kind, details, when raised, and its review (who, when, the note, the intervention recorded with it).';
revoke all on function private.player_flag_of(uuid) from public, anon, authenticated, service_role;

create type public.player_intervention as (id uuid, user_id uuid, kind public.intervention_kind, note text, flag_id uuid, created_at timestamp with time zone, created_by_name text);
comment on type public.player_intervention is 'One intervention on a player as the admin screens show it, with the name of who recorded it.';

create or replace function private.player_intervention_of(p_id uuid) returns public.player_intervention
language sql stable security definer set search_path = '' as $$
  select i.id, i.user_id, i.kind, i.note, i.flag_id, i.created_at, cb.name
  from public.player_interventions i
  left join public.profiles cb on cb.id = i.created_by
  where i.id = p_id
$$;
comment on function private.player_intervention_of(uuid) is 'One intervention as the admin screens show it, with who recorded it.';
revoke all on function private.player_intervention_of(uuid) from public, anon, authenticated, service_role;

create or replace function public.admin_list_player_flags(p_status text default 'open', p_limit integer default 100) returns setof public.player_flag
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
  return query
    select pf.*
      from (select x.id, x.raised_at, x.reviewed_at from public.player_flags x
             where x.status = v_status::public.flag_status
             order by case when v_status = 'open' then x.raised_at end, x.reviewed_at desc
             limit page_size) f
     cross join lateral private.player_flag_of(f.id) pf
     order by case when v_status = 'open' then f.raised_at end, f.reviewed_at desc;
end;
$$;
comment on function public.admin_list_player_flags(text,integer) is 'Admins: the review queue. open flags oldest first (raising any new ones first), or reviewed ones latest first, at most p_limit, each with the player and the review.';
revoke all on function public.admin_list_player_flags(text,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_player_flags(text,integer) to authenticated;
grant execute on function public.admin_list_player_flags(text,integer) to service_role;

create type public.player_protection_record as (restricted_at timestamp with time zone, flags public.player_flag[], interventions public.player_intervention[]);
comment on type public.player_protection_record is 'One player''s protection record: restricted since when (or null), their 50 latest flags and 50 latest interventions.';

create or replace function public.admin_get_player_protection(p_user_id uuid) returns public.player_protection_record
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  perform private.admin_user_target(p_user_id);
  return row(
    (select pp.restricted_at from public.player_protections pp where pp.user_id = p_user_id),
    (select coalesce(array_agg(private.player_flag_of(f.id) order by f.raised_at desc), '{}')
       from (select x.id, x.raised_at from public.player_flags x where x.user_id = p_user_id
              order by x.raised_at desc limit 50) f),
    (select coalesce(array_agg(private.player_intervention_of(i.id) order by i.created_at desc), '{}')
       from (select x.id, x.created_at from public.player_interventions x where x.user_id = p_user_id
              order by x.created_at desc limit 50) i))::public.player_protection_record;
end;
$$;
comment on function public.admin_get_player_protection(uuid) is 'Admins: one player''s protection record: whether they are restricted (since when), their 50 latest flags and 50 latest interventions.';
revoke all on function public.admin_get_player_protection(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_get_player_protection(uuid) to authenticated;
grant execute on function public.admin_get_player_protection(uuid) to service_role;

create or replace function private.record_intervention(p_admin uuid, p_user_id uuid, p_kind text, p_note text, p_flag_id uuid) returns uuid
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
  values (p_user_id, p_kind::public.intervention_kind, note, p_flag_id, p_admin)
  returning id into new_id;
  perform private.log_activity('protection.intervention', p_user_id,
    jsonb_build_object('intervention_id', new_id, 'kind', p_kind, 'note', note, 'flag_id', p_flag_id));
  return new_id;
end;
$$;
comment on function private.record_intervention(uuid,uuid,text,text,uuid) is 'Records an admin''s intervention on a player and applies it (restricted: play refused until lifted; lifted: the restriction ends, not_restricted if none; closed: the account closed as close_account does); audited (protection.intervention).';
revoke all on function private.record_intervention(uuid,uuid,text,text,uuid) from public, anon, authenticated, service_role;

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

create or replace function public.admin_review_player_flag(p_flag_id uuid, p_note text, p_intervention text default null)
returns public.player_flag
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
    raise exception 'No such flag' using errcode = 'PT404', hint = 'flag_not_found';
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
  return private.player_flag_of(f.id);
end;
$$;
comment on function public.admin_review_player_flag(uuid,text,text) is 'Admins: marks an open flag reviewed with a note (3 to 2000 characters), optionally recording an intervention with the same note; flag_not_found, flag_already_reviewed; audited (protection.flag_reviewed).';
revoke all on function public.admin_review_player_flag(uuid,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_review_player_flag(uuid,text,text) to authenticated;
grant execute on function public.admin_review_player_flag(uuid,text,text) to service_role;

create or replace function private.complaint_row(c public.complaints) returns public.complaint
language sql stable set search_path = '' as $$
  select c.id, c.reference, c.status, c.subject, c.related_reference, c.details, c.acknowledge_by, c.respond_by,
         c.acknowledged_at, c.resolved_at, c.response, c.created_at
$$;
comment on function private.complaint_row(public.complaints) is 'A complaint as its player sees it.';
revoke all on function private.complaint_row(public.complaints) from public, anon, authenticated, service_role;

create or replace function private.admin_complaint_row(c public.complaints) returns public.admin_complaint
language sql stable set search_path = '' as $$
  select c.id, c.reference, c.status, c.subject, c.related_reference, c.details, c.acknowledge_by, c.respond_by,
         c.acknowledged_at, c.resolved_at, c.response, c.created_at,
         c.user_id,
         (select p.email from public.profiles p where p.id = c.user_id),
         (select p.name from public.profiles p where p.id = c.user_id),
         c.status <> 'resolved' and ((c.status = 'received' and now() > c.acknowledge_by) or now() > c.respond_by)
$$;
comment on function private.admin_complaint_row(public.complaints) is 'A complaint as the admin queue lists it: with the complainant''s name and e-mail and whether a deadline has passed unanswered.';
revoke all on function private.admin_complaint_row(public.complaints) from public, anon, authenticated, service_role;

-- The latest protections_json body (20261127110100_true_month_figures), as a row.
create or replace function private.protections_row(p_user uuid) returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections := private.protections_of(p_user);
  state public.protection_state := private.protection_state(p);
begin
  return (
    p.monthly_limit,
    p.pending_limit,
    p.pending_limit_from,
    -- What the limit counts: credited and still-open checkouts together.
    private.month_topped_up(p_user),
    private.month_credited(p_user),
    private.month_held(p_user),
    private.month_spent(p_user),
    -- The limit caps top-ups and spending each on its own: one figure for both would show £0.00 left while an
    -- entry still goes through.
    private.top_up_left(p_user),
    state,
    case when state in ('break', 'self_exclusion') then p.break_until end,
    p.closed_at,
    (private.setting('limit_increase_delay_hours'))::numeric,
    private.spend_left(p_user))::public.protections;
end;
$$;
comment on function private.protections_row(uuid) is 'A player''s protections as get_my_protections returns them: month_credited (paid) and month_held (open checkouts) are shown; month_topped_up, their sum, is what the limit counts.';
revoke all on function private.protections_row(uuid) from public, anon, authenticated, service_role;
