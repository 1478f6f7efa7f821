-- ============================================================================
-- The promoter (issue 22 item 9; CAP code 8.17): every competition page states
-- who runs the promotion, with an address, before the entry form.
--   * promoter_name and promoter_address: two operator settings, on
--     /admin/settings beside the others, checked like them;
--   * get_site_settings gives them to every visitor as promoter {name, address}.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

insert into public.app_settings (key, value) values
  ('promoter_name', '"LabCash Trading Ltd"'::jsonb),
  ('promoter_address', '["Unit 4, Lab House", "12 Market Street", "Manchester", "M1 1PW"]'::jsonb)
on conflict (key) do nothing;

-- ----------------------------------------------------------------------------
-- The settings screen: the existing key list and checks are kept (renamed, unchanged) and extended.
-- ----------------------------------------------------------------------------
alter function private.settings_keys() rename to settings_keys_before_promoter;
alter function private.setting_checked(text, jsonb) rename to setting_checked_before_promoter;
comment on function private.settings_keys_before_promoter() is 'The settings of the screen before the promoter (private.settings_keys adds it).';
comment on function private.setting_checked_before_promoter(text, jsonb) is 'The checks of every setting but the promoter''s (private.setting_checked adds them).';

create function private.settings_keys() returns text[]
language sql immutable set search_path = '' as $$
  select private.settings_keys_before_promoter() || array['promoter_name', 'promoter_address']
$$;
comment on function private.settings_keys() is 'The settings the admin settings screen reads and writes (admin_get_settings, admin_update_settings), in screen order.';

create function private.setting_checked(p_key text, p_value jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  line jsonb;
  lines text[] := '{}';
begin
  case p_key
  when 'promoter_name' then
    return to_jsonb(private.setting_text(p_key, p_value, 'The promoter''s name', 2, 200));
  when 'promoter_address' then
    if p_value is null or jsonb_typeof(p_value) <> 'array' or jsonb_array_length(p_value) not between 2 and 8 then
      raise exception 'The promoter''s address must have 2 to 8 lines' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    for line in select l from jsonb_array_elements(p_value) l loop
      lines := lines || private.setting_text(p_key, line, 'Each line of the promoter''s address', 1, 100);
    end loop;
    if private.uk_postcode(array_to_string(lines, ' ')) is null then
      raise exception 'The promoter''s address must end with a UK postcode' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(lines);
  else
    return private.setting_checked_before_promoter(p_key, p_value);
  end case;
end;
$$;
comment on function private.setting_checked(text, jsonb) is 'One setting''s new value checked for its key (type, range, shape) and normalised; invalid_input with a message naming the setting otherwise (the key in DETAIL).';

-- ----------------------------------------------------------------------------
-- Public
-- ----------------------------------------------------------------------------
create or replace function public.get_site_settings() returns jsonb
language sql stable security definer set search_path = '' as $$
  -- Only settings meant for every visitor; approval mode, site_url and the like stay private.
  select jsonb_build_object(
    'launch_at', private.setting('launch_at'),
    'stamp_price', private.setting('stamp_price'),
    'postal_address', private.setting('postal_address'),
    'complaints_contact', private.setting('complaints_contact'),
    'dispute_resolution_body', private.setting('dispute_resolution_body'),
    'spinner_enabled', private.spinner_enabled(),
    'promoter', jsonb_build_object('name', private.setting('promoter_name'),
                                   'address', private.setting('promoter_address')))
$$;
comment on function public.get_site_settings() is 'Public: the settings every page may show: launch_at (the launch countdown, or null), stamp_price (pounds), postal_address (lines), complaints_contact, dispute_resolution_body {name, url}, spinner_enabled and promoter {name, address (lines)} (CAP code 8.17).';
