-- operator_settings_on_screen: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function private.settings_keys() returns text[]
language sql immutable set search_path = '' as $$
  select private.settings_keys_before_referrals() || array['referral_credit', 'referral_monthly_cap', 'instant_win_max_live_percent',
                                                         'site_url', 'limit_increase_delay_hours']
$$;
comment on function private.settings_keys() is 'The settings the admin settings screen reads and writes (admin_get_settings, admin_update_settings), in screen order.';
revoke all on function private.settings_keys() from public, anon, authenticated, service_role;

create or replace function private.setting_checked(p_key text, p_value jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  n numeric;
begin
  case p_key
  when 'site_url' then
    -- The origin links in the site's own e-mails lead to: https (http only for this machine), no path.
    if p_value is null or jsonb_typeof(p_value) <> 'string'
       or not ((p_value #>> '{}') ~ '^https://[a-z0-9.-]+(:[0-9]{1,5})?/?$'
               or (p_value #>> '{}') ~ '^http://(localhost|127[.]0[.]0[.]1)(:[0-9]{1,5})?/?$') then
      raise exception 'The site URL must be the site''s address alone, such as https://labcash.example'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(rtrim(p_value #>> '{}', '/'));
  when 'limit_increase_delay_hours' then
    -- A higher monthly limit always waits at least a day (a decrease applies at once).
    if p_value is null or jsonb_typeof(p_value) <> 'number' then
      raise exception 'The wait before a higher monthly limit must be a whole number of hours'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    n := (p_value #>> '{}')::numeric;
    if n <> trunc(n) or n < 24 or n > 168 then
      raise exception 'The wait before a higher monthly limit must be a whole number of hours from 24 to 168'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(n::integer);
  when 'referral_credit' then
    return private.setting_pounds(p_key, p_value, 'The referral credit', 0.01, 100);
  when 'referral_monthly_cap' then
    if p_value is null or jsonb_typeof(p_value) <> 'number' then
      raise exception 'The referral cap must be a whole number of friends a month' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    n := (p_value #>> '{}')::numeric;
    if n <> trunc(n) or n < 0 or n > 1000 then
      raise exception 'The referral cap must be a whole number of friends a month from 0 to 1000 (0: no referral credit)'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(n::integer);
  when 'instant_win_max_live_percent' then
    -- Code of practice 1.10: instant-win competitions are never the majority of live ones, so at most 50.
    if p_value is null or jsonb_typeof(p_value) <> 'number' then
      raise exception 'The instant-win share must be a whole percent' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    n := (p_value #>> '{}')::numeric;
    if n <> trunc(n) or n < 0 or n > 50 then
      raise exception 'The instant-win share must be a whole percent from 0 to 50 (0: no instant-win competitions go live)'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(n::integer);
  else
    return private.setting_checked_before_referrals(p_key, p_value);
  end case;
end;
$$;
comment on function private.setting_checked(text,jsonb) is 'One setting''s new value checked for its key (type, range, shape) and normalised; invalid_input with a message naming the setting otherwise (the key in DETAIL).';
revoke all on function private.setting_checked(text,jsonb) from public, anon, authenticated, service_role;
