-- protection_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.player_flag_json(uuid);

drop function private.player_intervention_json(uuid);

drop function public.admin_get_player_protection(uuid);

drop function public.admin_list_player_flags(text,integer);

drop function public.admin_review_player_flag(uuid,text,text);

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

create or replace function public.admin_list_player_flags(p_status text DEFAULT 'open'::text, p_limit integer DEFAULT 100)
 RETURNS SETOF public.player_flag
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
comment on function public.admin_list_player_flags(text,integer) is 'Admins: the review queue. open flags oldest first (raising any new ones first), or reviewed ones latest first, at most p_limit, each with the player and the review.';
revoke all on function public.admin_list_player_flags(text,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_player_flags(text,integer) to authenticated;
grant execute on function public.admin_list_player_flags(text,integer) to service_role;

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
