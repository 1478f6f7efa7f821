-- admin_users_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.protections_json(uuid);

drop function public.admin_get_user(uuid);

drop function public.admin_list_users(text,text,text,text,text,integer,boolean);

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

create or replace function public.admin_list_users(p_search text DEFAULT NULL::text, p_role text DEFAULT NULL::text, p_approval text DEFAULT NULL::text, p_kyc text DEFAULT NULL::text, p_cursor text DEFAULT NULL::text, p_limit integer DEFAULT 25, p_flagged boolean DEFAULT NULL::boolean)
 RETURNS public.admin_user_page
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
comment on function public.admin_list_users(text,text,text,text,text,integer,boolean) is 'Admins: one page of users, newest first (keyset: pass next_cursor as p_cursor), searched by name or e-mail (a substring, case ignored) or id, filtered by role, approval (approved, pending, rejected, deleted), KYC status and flagged (true: with a player-protection flag awaiting review; false: without).';
revoke all on function public.admin_list_users(text,text,text,text,text,integer,boolean) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_users(text,text,text,text,text,integer,boolean) to authenticated;
grant execute on function public.admin_list_users(text,text,text,text,text,integer,boolean) to service_role;

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
