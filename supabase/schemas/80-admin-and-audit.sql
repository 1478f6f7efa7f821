-- ============================================================================
-- Admin and audit: the activity log, the dashboard, admin users and reports.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
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
comment on table public.activity_log is 'Audit log of admin actions and key user events.';
revoke all on table public.activity_log from public, anon, authenticated, service_role;
grant select on table public.activity_log to authenticated;
grant all on table public.activity_log to service_role;

create index activity_log_created_idx on public.activity_log (created_at DESC);
create index activity_log_actor_idx on public.activity_log (actor_id);
create index activity_log_action_idx on public.activity_log (action, id DESC);
create index activity_log_subject_idx on public.activity_log (subject_id, id DESC);
create policy "activity: admins" on public.activity_log
  as permissive for select to authenticated
  using (( SELECT public.is_admin() AS is_admin));

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.log_activity(p_action text, p_subject uuid, p_details jsonb default '{}'::jsonb) returns void
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.activity_log (actor_id, action, subject_id, details)
  values (auth.uid(), p_action, p_subject, coalesce(p_details, '{}'::jsonb));
end;
$$;
comment on function private.log_activity(text,uuid,jsonb) is 'Appends one audit row for the current caller.';
revoke all on function private.log_activity(text,uuid,jsonb) from public, anon, authenticated, service_role;

create type public.dashboard_totals as (signups numeric, tickets numeric, credit_sold numeric);
comment on type public.dashboard_totals is 'The dashboard''s days added up.';

create type public.dashboard_day as (day date, signups bigint, tickets bigint, credit_sold numeric);
comment on type public.dashboard_day is 'One Europe/London day of the dashboard: sign-ups, paid tickets sold and credit bought (top-ups, pounds).';

create type public.dashboard_counts as (players bigint, approved_players bigint, pending_approvals bigint, live_competitions bigint, opening_soon bigint, awaiting_draw bigint, open_complaints bigint, overdue_complaints bigint, flagged_players bigint);
comment on type public.dashboard_counts is 'The dashboard''s counts: players, approved players, accounts awaiting approval, competitions by phase (live, opening soon, awaiting the draw), open and overdue complaints, and players with a flag awaiting review.';

create type public.admin_dashboard as (generated_at timestamp with time zone, "from" date, "to" date, counts public.dashboard_counts, days public.dashboard_day[], totals public.dashboard_totals);
comment on type public.admin_dashboard is 'Every figure of the admin dashboard: when it was worked out, the first and last day of the series (today last), the counts, the 30 days and their totals.';

create or replace function public.admin_dashboard() returns public.admin_dashboard
language plpgsql stable security definer set search_path = '' as $$
declare
  today date := (now() at time zone 'Europe/London')::date;
  first_day date := today - 29;
  since timestamptz := first_day::timestamp at time zone 'Europe/London';
  day_rows public.dashboard_day[];
  phases jsonb;
begin
  perform private.require_admin();

  -- One row per Europe/London calendar day, the 29 days before today and today, zeros included.
  select array_agg(row(d.day, coalesce(s.n, 0), coalesce(t.n, 0), coalesce(c.amount, 0))::public.dashboard_day
                   order by d.day)
    into day_rows
    from (select g::date as day from generate_series(first_day, today, interval '1 day') g) d
    left join (select (a.created_at at time zone 'Europe/London')::date as day, count(*) as n
                 from public.user_account_data a
                where a.created_at >= since
                group by 1) s on s.day = d.day
    -- Paid tickets as sold that day (a later refund does not rewrite the day's sales).
    left join (select (e.created_at at time zone 'Europe/London')::date as day, sum(e.quantity) as n
                 from public.entries e
                where e.kind = 'paid' and e.created_at >= since
                group by 1) t on t.day = d.day
    -- Credit bought: the ledger's top_up rows (money paid in, bonus not included).
    left join (select (l.created_at at time zone 'Europe/London')::date as day, sum(l.amount) as amount
                 from public.credit_ledger l
                where l.kind = 'top_up' and l.created_at >= since
                group by 1) c on c.day = d.day;

  -- Competitions by phase, the public site's definition (the unfinished ones only: the others grow forever).
  select coalesce(jsonb_object_agg(x.phase, x.n), '{}'::jsonb)
    into phases
    from (select private.competition_phase(c, now()) as phase, count(*) as n
            from public.competitions c
           where c.status in ('live', 'sold_out', 'closed')
           group by 1) x;

  return row(
    now(),
    first_day,
    today,
    row(
      (select count(*) from public.user_account_data a where a.role = 'user'),
      (select count(*) from public.user_account_data a where a.role = 'user' and a.approved),
      -- The same accounts the approval queue lists.
      (select count(*) from public.user_account_data a where not a.approved and a.rejected_at is null),
      coalesce((phases ->> 'live')::bigint, 0),
      coalesce((phases ->> 'upcoming')::bigint, 0),
      coalesce((phases ->> 'postal_window')::bigint, 0) + coalesce((phases ->> 'awaiting_draw')::bigint, 0),
      (select count(*) from public.complaints c where c.status <> 'resolved'),
      (select count(*) from public.complaints c
        where (c.status = 'received' and c.acknowledge_by < now())
           or (c.status <> 'resolved' and c.respond_by < now())),
      -- Players with a player-protection flag awaiting review (player_flags, *_player_protection.sql).
      (select count(distinct f.user_id) from public.player_flags f where f.status = 'open'))::public.dashboard_counts,
    day_rows,
    (select row(sum(x.signups), sum(x.tickets), sum(x.credit_sold))::public.dashboard_totals
       from unnest(day_rows) x))::public.admin_dashboard;
end;
$$;
comment on function public.admin_dashboard() is 'Admins: the dashboard in one call. counts: players (role user), approved_players, pending_approvals (as the approval queue), live_competitions (open for online entries now, as the public site''s "Live now": private.competition_phase), opening_soon (published, not open yet), awaiting_draw (online sales ended, not drawn: postal window or waiting for the draw), open_complaints (not resolved), overdue_complaints (past a deadline), flagged_players (players with a protection flag awaiting review); days: the last 30 Europe/London days (from .. to, today included, zeros included) with signups, tickets (paid tickets sold that day) and credit_sold (top_up ledger rows, pounds); totals over those days.';
revoke all on function public.admin_dashboard() from public, anon, authenticated, service_role;
grant execute on function public.admin_dashboard() to authenticated;
grant execute on function public.admin_dashboard() to service_role;

create or replace function private.activity_filter_check(p_actor text, p_kind text, p_subject text, p_from date, p_to date)
returns void
language plpgsql immutable set search_path = '' as $$
begin
  if char_length(p_actor) > 200 or char_length(p_subject) > 200 then
    raise exception 'Search for at most 200 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_kind is not null and (char_length(p_kind) > 100 or p_kind !~ '^[a-z_]+(\.[a-z_]+)*$') then
    raise exception 'Unknown kind of activity: %', p_kind using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_from < date '2000-01-01' or p_to > date '2999-12-31' then
    raise exception 'Choose dates from the year 2000 on' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_from > p_to then
    raise exception 'The start date must not be after the end date' using errcode = '22023', hint = 'invalid_input';
  end if;
end;
$$;
comment on function private.activity_filter_check(text,text,text,date,date) is 'Refuses a bad activity filter: searches over 200 characters, a malformed kind, dates out of range or in the wrong order.';
revoke all on function private.activity_filter_check(text,text,text,date,date) from public, anon, authenticated, service_role;

create type public.activity_ref as (id uuid, kind text, name text, competition_id uuid, user_id uuid, user_name text, amount numeric, numbers integer[]);
comment on type public.activity_ref is 'A record an activity-log row names (its subject, or an id in its details), as the log''s sentences need it: kind (user, competition, draw, entry, top_up, complaint or referral); name (a user''s name, the title of the competition it belongs to, a complaint''s reference, a refused referral''s reason); the competition it belongs to; the user it concerns (a draw''s winner, an entry''s buyer, a top-up''s payer, a complainant) and their name; the amount in pounds (an entry or a top-up); an entry''s first ten ticket numbers.';

create or replace function private.activity_refs(p_subject uuid, p_details jsonb) returns public.activity_ref[]
language sql stable set search_path = '' as $$
  -- The ids are read by key, the keys private.log_activity's callers write: one lookup per table per id,
  -- so a page or a CSV chunk names everything it mentions in the same query (no call per row).
  select coalesce(array_agg(row(
           x.id,
           case when p.id is not null then 'user' when c.id is not null then 'competition'
                when d.id is not null then 'draw' when e.id is not null then 'entry'
                when t.id is not null then 'top_up' when cm.id is not null then 'complaint'
                else 'referral' end,
           coalesce(p.name, c.title, dc.title, ec.title, cm.reference, private.referral_reason_text(rf.reason)),
           coalesce(c.id, d.competition_id, e.competition_id),
           coalesce(p.id, d.winner_user_id, e.user_id, t.user_id, cm.user_id),
           coalesce(p.name, dp.name, ep.name, tp.name, cp.name),
           coalesce(e.amount, t.amount),
           case when e.id is not null
                then array(select k.number from public.tickets k where k.entry_id = e.id order by k.number limit 10) end
         )::public.activity_ref order by x.id)
           filter (where coalesce(p.id, c.id, d.id, e.id, t.id, cm.id, rf.id) is not null), '{}')
    from (select p_subject as id where p_subject is not null
          union
          select v.value::uuid
            from jsonb_each_text(case when jsonb_typeof(p_details) = 'object' then p_details else '{}'::jsonb end) v
           where v.key in ('user_id', 'referrer_id', 'competition_id', 'draw_id', 'entry_id', 'top_up_id', 'referral_id')
             and v.value ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$') x
    left join public.profiles p on p.id = x.id
    left join public.competitions c on c.id = x.id
    left join public.draws d on d.id = x.id
    left join public.competitions dc on dc.id = d.competition_id
    left join public.profiles dp on dp.id = d.winner_user_id
    left join public.entries e on e.id = x.id
    left join public.competitions ec on ec.id = e.competition_id
    left join public.profiles ep on ep.id = e.user_id
    left join public.top_ups t on t.id = x.id
    left join public.profiles tp on tp.id = t.user_id
    left join public.complaints cm on cm.id = x.id
    left join public.profiles cp on cp.id = cm.user_id
    left join public.referrals rf on rf.id = x.id
$$;
comment on function private.activity_refs(uuid,jsonb) is 'The records one activity-log row names (its subject and the ids in its details under user_id, referrer_id, competition_id, draw_id, entry_id, top_up_id and referral_id), each with what its sentence needs; an id that names nothing (a deleted record) is left out.';
revoke all on function private.activity_refs(uuid,jsonb) from public, anon, authenticated, service_role;

create or replace function private.activity_rows(p_actor text, p_kind text, p_subject text, p_from date, p_to date,
                                      p_before bigint, p_limit integer)
returns table (id bigint, created_at timestamptz, action text, actor_id uuid, actor_name text, actor_email text,
               subject_id uuid, subject_kind text, subject_label text, details jsonb,
               refs public.activity_ref[])
language plpgsql stable set search_path = '' as $$
declare
  actor_text text := nullif(trim(p_actor), '');
  subject_text text := nullif(trim(p_subject), '');
  uuid_pattern constant text := '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
  actor_uuid uuid;
  subject_uuid uuid;
  actor_like text;
  subject_like text;
  kind_text text := nullif(trim(p_kind), '');
  from_at timestamptz := p_from::timestamp at time zone 'Europe/London';
  to_at timestamptz := (p_to + 1)::timestamp at time zone 'Europe/London';
begin
  -- An id matches exactly; any other text matches a name or e-mail (the actor) or what the subject
  -- is called (a user's name or e-mail, a competition's title), as a substring, case ignored.
  if actor_text ~ uuid_pattern then actor_uuid := actor_text::uuid;
  elsif actor_text is not null then actor_like := '%' || replace(replace(replace(actor_text, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;
  if subject_text ~ uuid_pattern then subject_uuid := subject_text::uuid;
  elsif subject_text is not null then subject_like := '%' || replace(replace(replace(subject_text, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;

  -- The page's rows first, then what they name: the names are looked up for these rows only.
  return query
    select q.*, private.activity_refs(q.subject_id, q.details)
      from (
    select l.id, l.created_at, l.action, l.actor_id, ap.name, ap.email, l.subject_id,
           case when sp.id is not null then 'user'
                when sc.id is not null then 'competition'
                when d.id is not null then 'draw'
                when t.id is not null then 'top_up'
                when cm.id is not null then 'complaint' end,
           case when sp.id is not null then sp.name || coalesce(' (' || sp.email || ')', '')
                when sc.id is not null then sc.title
                when d.id is not null then 'Draw of ' || dc.title
                when t.id is not null then 'Top-up of ' || private.format_gbp(t.amount) || ' by ' || coalesce(tp.name, 'a deleted user')
                when cm.id is not null then 'Complaint ' || cm.reference end,
           l.details
      from public.activity_log l
      left join public.profiles ap on ap.id = l.actor_id
      left join public.profiles sp on sp.id = l.subject_id
      left join public.competitions sc on sc.id = l.subject_id
      left join public.draws d on d.id = l.subject_id
      left join public.competitions dc on dc.id = d.competition_id
      left join public.top_ups t on t.id = l.subject_id
      left join public.profiles tp on tp.id = t.user_id
      left join public.complaints cm on cm.id = l.subject_id
     where (p_before is null or l.id < p_before)
       -- A kind is one action (competition.entered) or a family (competition).
       and (kind_text is null or l.action = kind_text or left(l.action, char_length(kind_text) + 1) = kind_text || '.')
       and (from_at is null or l.created_at >= from_at)
       and (to_at is null or l.created_at < to_at)
       and (actor_text is null
            or l.actor_id = actor_uuid
            or ap.name ilike actor_like or ap.email ilike actor_like)
       and (subject_text is null
            or l.subject_id = subject_uuid
            or sp.name ilike subject_like or sp.email ilike subject_like
            or sc.title ilike subject_like or dc.title ilike subject_like
            or tp.name ilike subject_like or tp.email ilike subject_like
            or cm.reference ilike subject_like)
     order by l.id desc
     limit p_limit) q
     order by q.id desc;
end;
$$;
comment on function private.activity_rows(text,text,text,date,date,bigint,integer) is 'Activity log rows newest first under the screen''s filters (actor: id or name/e-mail text; kind: an action or its family; subject: id or what it is called; from/to: Europe/London days, inclusive), older than p_before, at most p_limit, with the actor''s and the subject''s names and the records each row names (private.activity_refs).';
revoke all on function private.activity_rows(text,text,text,date,date,bigint,integer) from public, anon, authenticated, service_role;

create type public.activity_row as (id bigint, created_at timestamp with time zone, action text, actor_id uuid, actor_name text, actor_email text, subject_id uuid, subject_kind text, subject_label text, details jsonb, refs public.activity_ref[]);
comment on type public.activity_row is 'One activity-log row as the activity screen shows it: the action, the actor''s name and e-mail, the subject''s kind (user, competition, draw, top_up or complaint) and label, the details recorded, and the records it names (refs), for its sentence.';

create type public.activity_page as (rows public.activity_row[], next_before bigint, kinds text[]);
comment on type public.activity_page is 'One page of the activity log, newest first (next_before for the next page, or null on the last), and every action recorded so far, for the kind filter.';

create or replace function public.admin_list_activity(p_actor text default null, p_kind text default null,
                                           p_subject text default null, p_from date default null,
                                           p_to date default null, p_before bigint default null,
                                           p_limit integer default 50)
returns public.activity_page
language plpgsql stable security definer set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  page_rows public.activity_row[];
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.activity_filter_check(p_actor, p_kind, p_subject, p_from, p_to);
  -- One row more than the page shows says whether there is an older page.
  select coalesce(array_agg(row(r.id, r.created_at, r.action, r.actor_id, r.actor_name, r.actor_email, r.subject_id,
                                r.subject_kind, r.subject_label, r.details, r.refs)::public.activity_row
                            order by r.id desc) filter (where r.n <= page_size), '{}'),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select a.*, row_number() over (order by a.id desc) as n
            from private.activity_rows(p_actor, p_kind, p_subject, p_from, p_to, p_before, page_size + 1) a) r;
  return row(
    page_rows,
    case when fetched > page_size then last_id end,
    -- Every kind recorded, for the filter: a loose index scan over activity_log_action_idx.
    (with recursive k(action) as (
       (select l.action from public.activity_log l order by l.action limit 1)
       union all
       select (select l.action from public.activity_log l where l.action > k.action order by l.action limit 1)
         from k where k.action is not null)
     select coalesce(array_agg(k.action order by k.action), '{}') from k where k.action is not null))::public.activity_page;
end;
$$;
comment on function public.admin_list_activity(text,text,text,date,date,bigint,integer) is 'Admins: one page of the activity log, newest first (keyset: pass next_before), filtered by actor (id, or text in the name or e-mail), kind (an action such as competition.entered, or a family such as competition), subject (id, or text in its name, e-mail, title or reference) and Europe/London dates from/to inclusive; rows carry the actor''s name and e-mail and the subject''s kind and label. kinds lists every action recorded.';
revoke all on function public.admin_list_activity(text,text,text,date,date,bigint,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_activity(text,text,text,date,date,bigint,integer) to authenticated;
grant execute on function public.admin_list_activity(text,text,text,date,date,bigint,integer) to service_role;

create type public.activity_export_chunk as (rows public.activity_row[], next_before bigint);
comment on type public.activity_export_chunk is 'One chunk of the activity log for its CSV, newest first: the rows as the screen reads them, and the id to pass as p_before for the next chunk (null on the last).';

create or replace function public.admin_activity_export(p_actor text default null, p_kind text default null,
                                             p_subject text default null, p_from date default null,
                                             p_to date default null, p_before bigint default null,
                                             p_limit integer default 1000)
returns public.activity_export_chunk
language plpgsql stable security definer set search_path = '' as $$
declare
  chunk_size integer := least(greatest(coalesce(p_limit, 1000), 1), 5000);
  chunk_rows public.activity_row[];
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.activity_filter_check(p_actor, p_kind, p_subject, p_from, p_to);
  -- The site writes the CSV: its details column is the row's sentence, and the sentences' words live in the site.
  select coalesce(array_agg(row(r.id, r.created_at, r.action, r.actor_id, r.actor_name, r.actor_email, r.subject_id,
                                r.subject_kind, r.subject_label, r.details, r.refs)::public.activity_row
                            order by r.id desc), '{}'),
         count(*), min(r.id)
    into chunk_rows, fetched, last_id
    from private.activity_rows(p_actor, p_kind, p_subject, p_from, p_to, p_before, chunk_size) r;
  return row(chunk_rows, case when fetched = chunk_size then last_id end)::public.activity_export_chunk;
end;
$$;
comment on function public.admin_activity_export(text,text,text,date,date,bigint,integer) is 'Admins: the activity log under the same filters as admin_list_activity, newest first, in chunks of p_limit rows (at most 5,000) for its CSV; pass next_before until it is null.';
revoke all on function public.admin_activity_export(text,text,text,date,date,bigint,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_activity_export(text,text,text,date,date,bigint,integer) to authenticated;
grant execute on function public.admin_activity_export(text,text,text,date,date,bigint,integer) to service_role;

create or replace function public.admin_find_account(p_email text) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  if p_email is null or char_length(btrim(p_email)) not between 3 and 320 then
    raise exception 'Give an e-mail address' using errcode = '22023', hint = 'invalid_input';
  end if;
  return (select jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email)
            from public.profiles p
           where lower(p.email) = lower(btrim(p_email))
           limit 1);
end;
$$;
comment on function public.admin_find_account(text) is 'Admins: the account with this e-mail (case ignored) as {id, name, email}, or null: to link a postal entry to the account named on the letter.';
revoke all on function public.admin_find_account(text) from public, anon, authenticated, service_role;
grant execute on function public.admin_find_account(text) to authenticated;
grant execute on function public.admin_find_account(text) to service_role;

create or replace function private.admin_user_target(p_user_id uuid, p_lock boolean default false) returns public.user_account_data
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
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  return acct;
end;
$$;
comment on function private.admin_user_target(uuid,boolean) is 'The account row an admin function works on (locked when asked), or ''No such user'' (user_not_found).';
revoke all on function private.admin_user_target(uuid,boolean) from public, anon, authenticated, service_role;

create or replace function private.refuse_deleted(acct public.user_account_data) returns void
language plpgsql immutable set search_path = '' as $$
begin
  if acct.deleted_at is not null then
    raise exception 'This account was deleted; it cannot be changed' using errcode = 'P0001', hint = 'user_deleted';
  end if;
end;
$$;
comment on function private.refuse_deleted(public.user_account_data) is 'Refuses changes to a deleted (anonymised) account (user_deleted).';
revoke all on function private.refuse_deleted(public.user_account_data) from public, anon, authenticated, service_role;

create type public.approval_state as enum ('approved', 'pending', 'rejected', 'deleted');
comment on type public.approval_state is 'Where an account stands as the admin screens show it, derived (private.admin_user_of): deleted, else approved, else rejected, else pending.';

create type public.admin_user as (id uuid, name text, email text, role public.user_role, approval public.approval_state, kyc_status public.kyc_status, credits numeric(12,2), created_at timestamp with time zone, deleted_at timestamp with time zone, open_flags bigint);
comment on type public.admin_user is 'One user as the admin users list shows them: approval is approved, pending, rejected or deleted; open_flags counts the flags awaiting review.';

create or replace function private.admin_user_of(p_user_id uuid) returns public.admin_user
language sql stable security definer set search_path = '' as $$
  select a.id, p.name, p.email, a.role,
         (case when a.deleted_at is not null then 'deleted'
               when a.approved then 'approved'
               when a.rejected_at is not null then 'rejected'
               else 'pending' end)::public.approval_state,
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

create type public.admin_user_page as (rows public.admin_user[], next_cursor text);
comment on type public.admin_user_page is 'One page of the admin users list, newest first; next_cursor is what to pass for the next page, or null on the last.';

create or replace function public.admin_list_users(p_search text default null, p_role text default null, p_approval text default null, p_kyc text default null, p_cursor text default null, p_limit integer default 25, p_flagged boolean default null) returns public.admin_user_page
language plpgsql stable security definer set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 100);
  search text := nullif(trim(p_search), '');
  pattern text;
  search_id uuid;
  cursor_at timestamptz;
  cursor_id uuid;
  page_rows public.admin_user[];
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

  select coalesce(array_agg(private.admin_user_of(r.id) order by r.created_at desc, r.id desc)
                    filter (where r.n <= page_size), '{}'),
         count(*)
    into page_rows, fetched
    from (select a.id, a.created_at, row_number() over (order by a.created_at desc, a.id desc) as n
            from public.user_account_data a
            join public.profiles p on p.id = a.id
           where (search is null or a.id = search_id or p.name ilike pattern or p.email ilike pattern)
             and (p_role is null or a.role = p_role::public.user_role)
             and (p_kyc is null or a.kyc_status = p_kyc::public.kyc_status)
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
     where a.id = (page_rows[page_size]).id;
  end if;
  return row(page_rows, next_cursor)::public.admin_user_page;
end;
$$;
comment on function public.admin_list_users(text,text,text,text,text,integer,boolean) is 'Admins: one page of users, newest first (keyset: pass next_cursor as p_cursor), searched by name or e-mail (a substring, case ignored) or id, filtered by role, approval (approved, pending, rejected, deleted), KYC status and flagged (true: with a player-protection flag awaiting review; false: without).';
revoke all on function public.admin_list_users(text,text,text,text,text,integer,boolean) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_users(text,text,text,text,text,integer,boolean) to authenticated;
grant execute on function public.admin_list_users(text,text,text,text,text,integer,boolean) to service_role;

create type public.admin_user_activity as (id bigint, action text, created_at timestamp with time zone, details jsonb, actor_id uuid, actor_name text, role text);
comment on type public.admin_user_activity is 'One activity-log row about or by a user on their admin page; role says which (subject or actor).';

create type public.admin_user_entry as (id uuid, competition_id uuid, competition_title text, kind public.entry_kind, quantity integer, amount numeric(12,2), status public.entry_status, first_ticket integer, last_ticket integer, created_at timestamp with time zone);
comment on type public.admin_user_entry is 'One of a user''s entries on their admin page, with its competition and first and last ticket numbers.';

create type public.admin_user_profile as (id uuid, name text, email text, role public.user_role, approval public.approval_state, kyc_status public.kyc_status, credits numeric(12,2), created_at timestamp with time zone, deleted_at timestamp with time zone, open_flags bigint, date_of_birth date, town text, email_notifications boolean, approved_at timestamp with time zone, approved_by_name text, rejected_at timestamp with time zone, rejection_reason text, total_spent numeric(12,2), total_entries integer, verified_at timestamp with time zone);
comment on type public.admin_user_profile is 'One user on their admin page: public.admin_user''s fields, their profile, who approved them and when, the rejection, totals and verification.';

create type public.admin_user_detail as ("user" public.admin_user_profile, protections public.protections, entries public.admin_user_entry[], activity public.admin_user_activity[], large_adjustment_threshold numeric);
comment on type public.admin_user_detail is 'One user''s admin page: the user, their limits and breaks, the 50 latest entries, the 20 latest activity rows and the large-adjustment threshold.';

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
                acct.verified_at)::public.admin_user_profile
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

create type public.admin_ledger_row as (id bigint, kind public.ledger_kind, amount numeric(12,2), balance_after numeric(12,2), reason text, reference text, created_at timestamp with time zone, created_by_name text);
comment on type public.admin_ledger_row is 'One credit-ledger row as the admin''s user page shows it, with the name of who posted it (null for the system).';

create type public.admin_ledger_page as (rows public.admin_ledger_row[], next_before bigint);
comment on type public.admin_ledger_page is 'One page of a user''s credit ledger, newest first; next_before is the id to pass for the next page, or null on the last.';

create or replace function public.admin_user_ledger(p_user_id uuid, p_before bigint default null, p_limit integer default 25)
returns public.admin_ledger_page
language plpgsql stable security definer set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 200);
  page_rows public.admin_ledger_row[];
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.admin_user_target(p_user_id);
  select coalesce(array_agg(row(r.id, r.kind, r.amount, r.balance_after, r.reason, r.reference, r.created_at,
                                cb.name)::public.admin_ledger_row
           order by r.id desc) filter (where r.n <= page_size), '{}'),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select l.*, row_number() over (order by l.id desc) as n
            from public.credit_ledger l
           where l.user_id = p_user_id and (p_before is null or l.id < p_before)
           order by l.id desc
           limit page_size + 1) r
    left join public.profiles cb on cb.id = r.created_by;
  return row(page_rows, case when fetched > page_size then last_id end)::public.admin_ledger_page;
end;
$$;
comment on function public.admin_user_ledger(uuid,bigint,integer) is 'Admins: one page of a user''s credit ledger, newest first (keyset: pass next_before), with who posted each row.';
revoke all on function public.admin_user_ledger(uuid,bigint,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_user_ledger(uuid,bigint,integer) to authenticated;
grant execute on function public.admin_user_ledger(uuid,bigint,integer) to service_role;

create or replace function public.admin_update_user(p_user_id uuid, p_name text, p_approval text, p_kyc_status text) returns jsonb
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
  if p_kyc_status <> acct.kyc_status::text then
    update public.user_account_data
       set kyc_status = p_kyc_status::public.kyc_status,
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
comment on function public.admin_update_user(uuid,text,text,text) is 'Admins: sets a user''s name, approval (approved or pending; approving e-mails them) and KYC status; audits each change with old and new values (user.updated); answers the user and the changes.';
revoke all on function public.admin_update_user(uuid,text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_user(uuid,text,text,text) to authenticated;
grant execute on function public.admin_update_user(uuid,text,text,text) to service_role;

create or replace function public.admin_set_user_role(p_user_id uuid, p_role text) returns public.admin_user
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
$$;
comment on function public.admin_set_user_role(uuid,text) is 'Super admins: sets another user''s role (user, admin, super_admin; an admin is approved too); never one''s own; audited with old and new (user.role_changed).';
revoke all on function public.admin_set_user_role(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_set_user_role(uuid,text) to authenticated;
grant execute on function public.admin_set_user_role(uuid,text) to service_role;

create type public.credit_adjustment as (ledger_id bigint, amount numeric, balance numeric);
comment on type public.credit_adjustment is 'An admin''s credit adjustment: its ledger row, the amount and the player''s new balance.';

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
