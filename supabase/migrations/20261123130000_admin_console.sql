-- ============================================================================
-- Admin console, first part (issue 11): the dashboard's figures and the
-- activity log screen (filter, keyset pages, CSV). Admins only; every function
-- checks with private.require_admin().
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Indexes the dashboard and the activity screen read by
-- ----------------------------------------------------------------------------
-- Sign-ups, paid entries and credit bought per day over the last 30 days.
create index user_account_data_created_idx on public.user_account_data (created_at);
create index entries_paid_created_idx on public.entries (created_at) where kind = 'paid';
create index credit_ledger_top_up_created_idx on public.credit_ledger (created_at) where kind = 'top_up';
-- The activity screen: newest first by id, within one kind or one subject; and the list of kinds.
create index activity_log_action_idx on public.activity_log (action, id desc);
create index activity_log_subject_idx on public.activity_log (subject_id, id desc);

-- ----------------------------------------------------------------------------
-- The dashboard
-- ----------------------------------------------------------------------------
create function public.admin_dashboard() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  today date := (now() at time zone 'Europe/London')::date;
  first_day date := today - 29;
  since timestamptz := first_day::timestamp at time zone 'Europe/London';
  day_rows jsonb;
begin
  perform private.require_admin();

  -- One row per Europe/London calendar day, the 29 days before today and today, zeros included.
  select jsonb_agg(jsonb_build_object('day', d.day,
                                      'signups', coalesce(s.n, 0),
                                      'tickets', coalesce(t.n, 0),
                                      'credit_sold', coalesce(c.amount, 0))
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

  return jsonb_build_object(
    'generated_at', now(),
    'from', first_day,
    'to', today,
    'counts', jsonb_build_object(
      'players', (select count(*) from public.user_account_data a where a.role = 'user'),
      'approved_players', (select count(*) from public.user_account_data a where a.role = 'user' and a.approved),
      -- The same accounts the approval queue lists.
      'pending_approvals', (select count(*) from public.user_account_data a where not a.approved and a.rejected_at is null),
      'live_competitions', (select count(*) from public.competitions c where c.status = 'live'),
      'awaiting_draw', (select count(*) from public.competitions c where c.status in ('sold_out', 'closed')),
      'open_complaints', (select count(*) from public.complaints c where c.status <> 'resolved'),
      'overdue_complaints', (select count(*) from public.complaints c
                              where (c.status = 'received' and c.acknowledge_by < now())
                                 or (c.status <> 'resolved' and c.respond_by < now())),
      -- Players with a player-protection flag awaiting review (player_flags, *_player_protection.sql).
      'flagged_players', (select count(distinct f.user_id) from public.player_flags f where f.status = 'open')),
    'days', day_rows,
    'totals', jsonb_build_object(
      'signups', (select sum((x ->> 'signups')::bigint) from jsonb_array_elements(day_rows) x),
      'tickets', (select sum((x ->> 'tickets')::bigint) from jsonb_array_elements(day_rows) x),
      'credit_sold', (select sum((x ->> 'credit_sold')::numeric) from jsonb_array_elements(day_rows) x)));
end;
$$;
comment on function public.admin_dashboard() is 'Admins: the dashboard in one call. counts: players (role user), approved_players, pending_approvals (as the approval queue), live_competitions, awaiting_draw (sold out or closed, not drawn), open_complaints (not resolved), overdue_complaints (past a deadline), flagged_players (players with a protection flag awaiting review); days: the last 30 Europe/London days (from .. to, today included, zeros included) with signups, tickets (paid tickets sold that day) and credit_sold (top_up ledger rows, pounds); totals over those days.';
grant execute on function public.admin_dashboard() to authenticated;

-- ----------------------------------------------------------------------------
-- The activity log: filter, page, CSV
-- ----------------------------------------------------------------------------
create function private.activity_filter_check(p_actor text, p_kind text, p_subject text, p_from date, p_to date)
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
comment on function private.activity_filter_check(text, text, text, date, date) is 'Refuses a bad activity filter: searches over 200 characters, a malformed kind, dates out of range or in the wrong order.';

create function private.activity_rows(p_actor text, p_kind text, p_subject text, p_from date, p_to date,
                                      p_before bigint, p_limit integer)
returns table (id bigint, created_at timestamptz, action text, actor_id uuid, actor_name text, actor_email text,
               subject_id uuid, subject_kind text, subject_label text, details jsonb)
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

  return query
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
     limit p_limit;
end;
$$;
comment on function private.activity_rows(text, text, text, date, date, bigint, integer) is 'Activity log rows newest first under the screen''s filters (actor: id or name/e-mail text; kind: an action or its family; subject: id or what it is called; from/to: Europe/London days, inclusive), older than p_before, at most p_limit, with the actor''s and the subject''s names.';

create function public.admin_list_activity(p_actor text default null, p_kind text default null,
                                           p_subject text default null, p_from date default null,
                                           p_to date default null, p_before bigint default null,
                                           p_limit integer default 50)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  page_rows jsonb;
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.activity_filter_check(p_actor, p_kind, p_subject, p_from, p_to);
  -- One row more than the page shows says whether there is an older page.
  select coalesce(jsonb_agg(to_jsonb(r) - 'n' order by r.id desc) filter (where r.n <= page_size), '[]'::jsonb),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select a.*, row_number() over (order by a.id desc) as n
            from private.activity_rows(p_actor, p_kind, p_subject, p_from, p_to, p_before, page_size + 1) a) r;
  return jsonb_build_object(
    'rows', page_rows,
    'next_before', case when fetched > page_size then last_id end,
    -- Every kind recorded, for the filter: a loose index scan over activity_log_action_idx.
    'kinds', (with recursive k(action) as (
                (select l.action from public.activity_log l order by l.action limit 1)
                union all
                select (select l.action from public.activity_log l where l.action > k.action order by l.action limit 1)
                  from k where k.action is not null)
              select coalesce(jsonb_agg(k.action order by k.action), '[]'::jsonb) from k where k.action is not null));
end;
$$;
comment on function public.admin_list_activity(text, text, text, date, date, bigint, integer) is 'Admins: one page of the activity log, newest first (keyset: pass next_before), filtered by actor (id, or text in the name or e-mail), kind (an action such as competition.entered, or a family such as competition), subject (id, or text in its name, e-mail, title or reference) and Europe/London dates from/to inclusive; rows carry the actor''s name and e-mail and the subject''s kind and label. kinds lists every action recorded.';
grant execute on function public.admin_list_activity(text, text, text, date, date, bigint, integer) to authenticated;

create function public.admin_activity_csv(p_actor text default null, p_kind text default null,
                                          p_subject text default null, p_from date default null,
                                          p_to date default null, p_before bigint default null,
                                          p_limit integer default 5000)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  chunk_size integer := least(greatest(coalesce(p_limit, 5000), 1), 10000);
  body text;
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.activity_filter_check(p_actor, p_kind, p_subject, p_from, p_to);
  select string_agg(
           r.id || ',' || to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ','
           || private.csv_field(r.action) || ',' || coalesce(r.actor_id::text, '') || ','
           || private.csv_field(r.actor_name) || ',' || private.csv_field(r.actor_email) || ','
           || coalesce(r.subject_id::text, '') || ',' || coalesce(r.subject_kind, '') || ','
           || private.csv_field(r.subject_label) || ',' || private.csv_field(r.details::text) || E'\n',
           '' order by r.id desc),
         count(*), min(r.id)
    into body, fetched, last_id
    from private.activity_rows(p_actor, p_kind, p_subject, p_from, p_to, p_before, chunk_size) r;
  return jsonb_build_object(
    'csv', case when p_before is null
                then E'id,created_at,action,actor_id,actor,actor_email,subject_id,subject_kind,subject,details\n'
                else '' end || coalesce(body, ''),
    'next_before', case when fetched = chunk_size then last_id end,
    'done', fetched < chunk_size);
end;
$$;
comment on function public.admin_activity_csv(text, text, text, date, date, bigint, integer) is 'Admins: the activity log under the same filters as admin_list_activity as CSV, newest first, in chunks of p_limit rows (the header only in the first, p_before null); pass next_before until done. Dates are ISO UTC, fields quoted and formulas defused, details as JSON.';
grant execute on function public.admin_activity_csv(text, text, text, date, date, bigint, integer) to authenticated;
