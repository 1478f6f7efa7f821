-- public_competitions_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.ticket_bundles(public.competitions);

drop function public.get_competition(text);

drop function public.list_competitions(text);

create or replace function private.competition_row(p_id uuid) returns public.competition
language sql stable security definer set search_path = '' as $$
  select c.id, c.slug, c.title, c.summary, c.description, c.prize_description, c.prize_value, c.cash_alternative,
         c.images, c.ticket_price, c.total_tickets, c.tickets_sold, c.total_tickets - c.tickets_sold,
         c.max_tickets_per_user, c.ticket_numbering, c.opens_at, c.closes_at,
         coalesce(c.postal_deadline, private.default_postal_deadline(c.closes_at)),
         coalesce(c.draw_at, c.postal_deadline, private.default_postal_deadline(c.closes_at)),
         (select count(*) from public.entries e
           where e.competition_id = c.id and e.kind = 'postal' and e.status = 'active'),
         c.postal_tickets,
         private.stamp_parity(c.ticket_price, c.max_tickets_per_user),
         (private.setting('stamp_price') #>> '{}')::numeric,
         private.entry_list_open(c),
         c.status,
         c.status = 'live' and c.opens_at <= now() and c.closes_at > now() and c.tickets_sold < c.total_tickets,
         c.skill_question, c.skill_options, c.seed_commitment, c.external_randomness, c.published_at, c.closed_at,
         c.cancelled_at, c.cancel_reason,
         (select row(d.id, d.algorithm, d.winning_number, d.winner_display_name, d.winner_town, d.ticket_count,
                     d.drawn_at, private.winner_story_json(d.id))::public.competition_draw
            from public.draws d where d.competition_id = c.id)
    from public.competitions c
   where c.id = p_id
$$;
comment on function private.competition_row(uuid) is 'A competition as the public pages show it (never the skill answer); null when there is no such competition.';
revoke all on function private.competition_row(uuid) from public, anon, authenticated, service_role;

-- The admin calls add their fields to the public ones.
create or replace function private.competition_json(p_id uuid, p_admin boolean default false) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  return (
    select to_jsonb(private.competition_row(c.id)) || case when p_admin then jsonb_build_object(
      'skill_answer', c.skill_answer,
      'created_by', c.created_by,
      'created_at', c.created_at,
      'updated_at', c.updated_at,
      'entry_count', (select count(*) from public.entries e where e.competition_id = c.id and e.status = 'active'),
      'postal_entry_count', (select count(*) from public.postal_entries pe
                               join public.entries e on e.id = pe.entry_id
                              where pe.competition_id = c.id and e.status = 'active'),
      'revenue', (select coalesce(sum(e.amount), 0) from public.entries e where e.competition_id = c.id and e.status = 'active'),
      'prize_status', (select d.prize_status from public.draws d where d.competition_id = c.id),
      'prize_choice', (select d.prize_choice from public.draws d where d.competition_id = c.id))
    else '{}'::jsonb end
    from public.competitions c
    where c.id = p_id);
end;
$$;
comment on function private.competition_json(uuid,boolean) is 'A competition as JSON for the app; the skill answer and admin figures only when p_admin.';
revoke all on function private.competition_json(uuid,boolean) from public, anon, authenticated, service_role;

create or replace function public.list_competitions(p_status text DEFAULT NULL::text)
 RETURNS SETOF public.competition
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if p_status is not null and p_status not in ('live', 'sold_out', 'closed', 'drawn', 'cancelled') then
    raise exception 'Unknown status: %', p_status using errcode = '22023', hint = 'invalid_input';
  end if;
  return query
    select cr.*
      from public.competitions c
     cross join lateral private.competition_row(c.id) cr
     where c.status <> 'draft' and (p_status is null or c.status = p_status::public.competition_status)
     order by (c.status = 'live') desc,
              case when c.status = 'live' then c.closes_at end asc,
              c.closes_at desc;
end;
$function$;
comment on function public.list_competitions(text) is 'Public: published competitions (never drafts), live ones first by closing soonest; optionally one status.';
revoke all on function public.list_competitions(text) from public, anon, authenticated, service_role;
grant execute on function public.list_competitions(text) to anon;
grant execute on function public.list_competitions(text) to authenticated;
grant execute on function public.list_competitions(text) to service_role;

create or replace function public.get_competition(p_slug text) returns public.competition_page
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  uid uuid := auth.uid();
  mine integer[];
begin
  select * into c from public.competitions where slug = lower(btrim(p_slug));
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if uid is not null then
    select coalesce(array_agg(t.number order by t.number), '{}') into mine
      from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  end if;
  return (select row(cr.*, mine, private.ticket_bundles(c))::public.competition_page
            from private.competition_row(c.id) cr);
end;
$$;
comment on function public.get_competition(text) is 'Public: one published competition by slug (admins may preview drafts): question and options but never the answer, the seed commitment, sold count, the draw once drawn, the ticket bundles with their costs, and the caller''s own ticket numbers (null when signed out).';
revoke all on function public.get_competition(text) from public, anon, authenticated, service_role;
grant execute on function public.get_competition(text) to anon;
grant execute on function public.get_competition(text) to authenticated;
grant execute on function public.get_competition(text) to service_role;

create or replace function private.ticket_bundles(c public.competitions) returns public.ticket_bundle[]
language sql stable set search_path = '' as $$
  -- The entry form's quick picks (components/competitions/entry-panel.tsx) that one person may buy now.
  select coalesce(array_agg(row(q, c.ticket_price * q)::public.ticket_bundle order by q), '{}')
    from unnest(array[1, 5, 10, 25]) q
   where q <= least(c.max_tickets_per_user, c.total_tickets - c.tickets_sold)
$$;
comment on function private.ticket_bundles(public.competitions) is 'The ticket bundles (1, 5, 10, 25) one person may buy now, each with its cost in pounds.';
revoke all on function private.ticket_bundles(public.competitions) from public, anon, authenticated, service_role;
