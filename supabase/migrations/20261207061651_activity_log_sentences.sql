-- activity_log_sentences: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.activity_rows(text,text,text,date,date,bigint,integer);

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
