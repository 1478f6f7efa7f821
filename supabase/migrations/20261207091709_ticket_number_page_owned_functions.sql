-- ticket_number_page_owned_functions: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function private.ticket_number_page(c public.competitions, p_user uuid, p_from integer, p_to integer)
returns public.ticket_number_page
language plpgsql stable set search_path = '' as $$
declare
  lo integer := greatest(coalesce(p_from, 1), 1);
  hi integer := least(coalesce(p_to, p_from + 99), c.total_tickets);
begin
  if hi < lo or hi - lo >= 1000 then
    raise exception 'Ask for at most 1,000 numbers at a time, from 1 to %', c.total_tickets using errcode = '22023', hint = 'invalid_input';
  end if;
  return row(
    array(select t.number from public.tickets t
           where t.competition_id = c.id and t.number between lo and hi order by t.number),
    array(select h.number from public.ticket_holds h
           where h.competition_id = c.id and h.number between lo and hi and h.expires_at > now()
             and h.user_id is distinct from p_user
             and not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number = h.number)
           order by h.number),
    array(select h.number from public.ticket_holds h
           where h.competition_id = c.id and h.user_id = p_user and h.expires_at > now()
             and not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number = h.number)
           order by h.number),
    (select min(h.expires_at) from public.ticket_holds h
      where h.competition_id = c.id and h.user_id = p_user and h.expires_at > now()),
    -- The caller's own tickets, so the grid marks them apart from other players' (tickets_holder_idx).
    array(select t.number from public.tickets t
           where t.competition_id = c.id and t.user_id = p_user and t.number between lo and hi order by t.number))::public.ticket_number_page;
end;
$$;
comment on function private.ticket_number_page(public.competitions,uuid,integer,integer) is 'Numbers p_from..p_to (at most 1,000) of a competition: sold, held by others, p_user''s whole basket with its expiry, and p_user''s own tickets in the range.';
revoke all on function private.ticket_number_page(public.competitions,uuid,integer,integer) from public, anon, authenticated, service_role;
