-- ============================================================================
-- Settings: operator settings as key/value rows, read by functions and written
-- by admins through functions; the few every visitor may see are public.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Table
-- ----------------------------------------------------------------------------
create table public.app_settings (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);
alter table public.app_settings enable row level security;
comment on table public.app_settings is 'Operator settings such as the approval mode; read and written only through functions.';

revoke all on table public.app_settings from anon, authenticated;
grant all on table public.app_settings to service_role;

-- approval_mode: manual (an admin approves each account) or auto.
-- site_url: the public origin, for links in e-mails (set it to the production domain).
-- launch_at: the launch countdown's moment (product decisions: "Settings: ... launch
-- countdown date"), changed with admin_set_launch_at.
insert into public.app_settings (key, value) values
  ('approval_mode', '"manual"'::jsonb),
  ('site_url', '"http://localhost:3000"'::jsonb),
  ('launch_at', '"2026-12-12T12:00:00Z"'::jsonb);

create function private.setting(p_key text) returns jsonb
language sql stable security definer set search_path = '' as $$
  select value from public.app_settings where key = p_key
$$;
comment on function private.setting(text) is 'The value of one app setting (null when unset).';

-- ----------------------------------------------------------------------------
-- Settings the public site reads
-- ----------------------------------------------------------------------------
create function public.get_site_settings() returns jsonb
language sql stable security definer set search_path = '' as $$
  -- Only settings meant for every visitor; approval mode, site_url and the like stay private.
  select jsonb_build_object('launch_at', private.setting('launch_at'))
$$;
comment on function public.get_site_settings() is 'Public: the settings every page may show (launch_at: the launch countdown''s moment, or null for no countdown).';
grant execute on function public.get_site_settings() to anon, authenticated, service_role;

-- ----------------------------------------------------------------------------
-- Admin
-- ----------------------------------------------------------------------------
create function public.admin_set_launch_at(p_launch_at timestamptz) returns jsonb
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
comment on function public.admin_set_launch_at(timestamptz) is 'Admin: sets the launch countdown''s moment (null removes the countdown); logged in the activity log.';
grant execute on function public.admin_set_launch_at(timestamptz) to authenticated;
