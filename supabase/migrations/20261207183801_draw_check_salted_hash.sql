-- draw_check_salted_hash: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function public.record_draw_check(p_draw_id uuid, p_visitor text) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  visitor text := private.visitor_key(p_visitor);
  today date := (now() at time zone 'Europe/London')::date;
  today_salt bytea;
  added integer;
begin
  perform private.require_server();
  if not exists (select 1 from public.draws d where d.id = p_draw_id) then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  -- A request with no address the site can key (a misconfigured proxy) is not counted rather than counted as one
  -- visitor for everyone.
  if visitor is null then
    return false;
  end if;
  delete from private.draw_check_salts s where s.checked_on < today;
  insert into private.draw_check_salts (checked_on, salt) values (today, extensions.gen_random_bytes(32))
  on conflict (checked_on) do nothing;
  select s.salt into today_salt from private.draw_check_salts s where s.checked_on = today;
  insert into public.draw_checks (draw_id, checked_on, visitor_hash)
  values (p_draw_id, today,
          encode(sha256(today_salt || convert_to(visitor || ' ' || p_draw_id::text || ' ' || today::text, 'UTF8')), 'hex'))
  on conflict do nothing;
  get diagnostics added = row_count;
  return added = 1;
end;
$$;
comment on function public.record_draw_check(uuid,text) is 'The site (secret key only): counts a visitor''s browser check of a draw that checked out, once per visitor, draw and London day, keeping only sha256(the day''s secret salt, visitor key, draw, day); true when counted, false when already counted today or the address is not one (draw_not_found for an unknown draw).';
revoke all on function public.record_draw_check(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.record_draw_check(uuid,text) to service_role;

comment on table public.draw_checks is 'Draws recomputed in a visitor''s browser that checked out: one row per draw, London day and visitor, the visitor only as sha256(the day''s secret salt, visitor key, draw, day). Written by record_draw_check (the site, secret key only); counted by get_transparency_report.';
