-- Settings the public site reads: for now the launch countdown's date (product-decisions:
-- "Settings: ... launch countdown date"). The admin settings screen will write it through
-- admin_set_launch_at; until then an operator can call that RPC as an admin.

insert into public.app_settings (key, value) values ('launch_at', '"2026-12-12T12:00:00Z"'::jsonb)
on conflict (key) do nothing;

create function public.get_site_settings() returns jsonb
language sql stable security definer set search_path = '' as $$
  -- Only settings meant for every visitor; approval mode, site_url and the like stay private.
  select jsonb_build_object('launch_at', public.setting('launch_at'))
$$;
comment on function public.get_site_settings() is 'Public: the settings every page may show (launch_at: the launch countdown''s moment, or null for no countdown).';
revoke execute on function public.get_site_settings() from public;
grant execute on function public.get_site_settings() to anon, authenticated, service_role;

create function public.admin_set_launch_at(p_launch_at timestamptz) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := public.require_admin();
  value jsonb := case when p_launch_at is null then 'null'::jsonb
                      else to_jsonb(to_char(p_launch_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')) end;
begin
  insert into public.app_settings (key, value, updated_at, updated_by)
  values ('launch_at', value, now(), admin_id)
  on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by;
  perform public.log_activity('settings.launch_at', null, jsonb_build_object('launch_at', value));
  return public.get_site_settings();
end;
$$;
comment on function public.admin_set_launch_at(timestamptz) is 'Admin: sets the launch countdown''s moment (null removes the countdown); logged in the activity log.';
revoke execute on function public.admin_set_launch_at(timestamptz) from public;
grant execute on function public.admin_set_launch_at(timestamptz) to authenticated;
