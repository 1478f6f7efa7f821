-- site_settings_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_set_launch_at(timestamp with time zone);

drop function public.get_site_settings();

create or replace function private.setting_lines(p_key text) returns text[]
language sql stable security definer set search_path = '' as $$
  select case when private.setting(p_key) is not null then
           coalesce((select array_agg(l order by i)
                       from jsonb_array_elements_text(private.setting(p_key)) with ordinality e(l, i)), '{}')
         end
$$;
comment on function private.setting_lines(text) is 'A setting that is a list of lines (an address), in order; null when unset.';
revoke all on function private.setting_lines(text) from public, anon, authenticated, service_role;

create or replace function public.get_site_settings() returns public.site_settings
language sql stable security definer set search_path = '' as $$
  -- Only settings meant for every visitor; approval mode, site_url and the like stay private.
  select private.setting('launch_at') #>> '{}',
         (private.setting('stamp_price') #>> '{}')::numeric,
         private.setting_lines('postal_address'),
         private.setting('complaints_contact') #>> '{}',
         case when private.setting('dispute_resolution_body') is not null then
           jsonb_populate_record(null::public.dispute_resolution_body, private.setting('dispute_resolution_body'))
         end,
         private.spinner_enabled(),
         row(private.setting('promoter_name') #>> '{}', private.setting_lines('promoter_address'))::public.promoter
$$;
comment on function public.get_site_settings() is 'Public: the settings every page may show: launch_at (the launch countdown, or null), stamp_price (pounds), postal_address (lines), complaints_contact, dispute_resolution_body {name, url}, spinner_enabled and promoter {name, address (lines)} (CAP code 8.17).';
revoke all on function public.get_site_settings() from public, anon, authenticated, service_role;
grant execute on function public.get_site_settings() to anon;
grant execute on function public.get_site_settings() to authenticated;
grant execute on function public.get_site_settings() to service_role;

create or replace function public.admin_set_launch_at(p_launch_at timestamptz) returns public.site_settings
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  value jsonb := case when p_launch_at is null then 'null'::jsonb
                      else to_jsonb(to_char(p_launch_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')) end;
begin
  insert into public.app_settings (key, value, updated_at, updated_by)
  values ('launch_at', value, now(), admin_id)
  on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by;
  perform private.log_activity('settings.launch_at', null, jsonb_build_object('launch_at', value));
  return public.get_site_settings();
end;
$$;
comment on function public.admin_set_launch_at(timestamp with time zone) is 'Admin: sets the launch countdown''s moment (null removes the countdown); logged in the activity log.';
revoke all on function public.admin_set_launch_at(timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.admin_set_launch_at(timestamp with time zone) to authenticated;
grant execute on function public.admin_set_launch_at(timestamp with time zone) to service_role;
