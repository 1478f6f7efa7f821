-- activity_csv_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_activity_csv(text,text,text,date,date,bigint,integer);

create or replace function public.admin_activity_csv(p_actor text default null, p_kind text default null,
                                          p_subject text default null, p_from date default null,
                                          p_to date default null, p_before bigint default null,
                                          p_limit integer default 5000)
returns public.activity_csv_chunk
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
  return row(
    case when p_before is null
         then E'id,created_at,action,actor_id,actor,actor_email,subject_id,subject_kind,subject,details\n'
         else '' end || coalesce(body, ''),
    case when fetched = chunk_size then last_id end,
    fetched < chunk_size)::public.activity_csv_chunk;
end;
$$;
comment on function public.admin_activity_csv(text,text,text,date,date,bigint,integer) is 'Admins: the activity log under the same filters as admin_list_activity as CSV, newest first, in chunks of p_limit rows (the header only in the first, p_before null); pass next_before until done. Dates are ISO UTC, fields quoted and formulas defused, details as JSON.';
revoke all on function public.admin_activity_csv(text,text,text,date,date,bigint,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_activity_csv(text,text,text,date,date,bigint,integer) to authenticated;
grant execute on function public.admin_activity_csv(text,text,text,date,date,bigint,integer) to service_role;
