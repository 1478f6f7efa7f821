-- open_alerts_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_open_alerts();

create or replace function public.admin_open_alerts() returns setof public.open_alert
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  -- Alerts are for super admins (they are the ones e-mailed and who can act); other admins see none here.
  if not public.is_super_admin() then
    return;
  end if;
  return query
    select a.id, a.kind, a.subject, a.raised_at
      from public.ops_alerts a
     where a.acknowledged_at is null
     order by a.raised_at desc;
end;
$$;
comment on function public.admin_open_alerts() is 'The alerts no super admin has acknowledged yet, for the console''s notice (super admins; an admin gets an empty list).';
revoke all on function public.admin_open_alerts() from public, anon, authenticated, service_role;
grant execute on function public.admin_open_alerts() to authenticated;
grant execute on function public.admin_open_alerts() to service_role;
