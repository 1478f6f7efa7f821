-- ============================================================================
-- Settings: operator settings, the site settings every visitor sees, bank holidays.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create table public.app_settings (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null default now(),
  updated_by uuid references auth.users (id) on delete set null
);
alter table public.app_settings enable row level security;
comment on table public.app_settings is 'Operator settings such as the approval mode; read and written only through functions.';
revoke all on table public.app_settings from public, anon, authenticated, service_role;
grant all on table public.app_settings to service_role;

create table public.bank_holidays (
  day date primary key,
  name text not null check (char_length(name) between 1 and 100)
);
alter table public.bank_holidays enable row level security;
comment on table public.bank_holidays is 'England and Wales bank holidays (weekdays), skipped when counting working days for postal deadlines and complaint deadlines: 2025–2040 computed by rule (scripts/bank-holidays.ts, date-holidays; 2025–2028 equal gov.uk''s list). Extend with a migration written by `npm run db:bank-holidays` before the last year is near, and add one-off holidays when announced.';
revoke all on table public.bank_holidays from public, anon, authenticated, service_role;
grant all on table public.bank_holidays to service_role;

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.money_settings_keys_before_referrals() returns text[]
language sql immutable set search_path = '' as $$
  select array['top_up_min', 'top_up_max', 'bonus_enabled', 'bonus_tiers', 'credit_card_monthly_cap',
               'large_adjustment_threshold']
$$;
comment on function private.money_settings_keys_before_referrals() is 'The money settings before referrals (private.money_settings_keys adds them).';
revoke all on function private.money_settings_keys_before_referrals() from public, anon, authenticated, service_role;

create or replace function private.setting_checked_before_promoter(p_key text, p_value jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  minutes numeric;
begin
  if p_key is distinct from 'skill_answer_cooldown_minutes' then
    return private.setting_checked_core(p_key, p_value);
  end if;
  if p_value is null or jsonb_typeof(p_value) <> 'number' then
    raise exception 'The wait after a wrong answer must be a whole number of minutes'
      using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  minutes := (p_value #>> '{}')::numeric;
  if minutes <> trunc(minutes) or minutes < 0 or minutes > 1440 then
    raise exception 'The wait after a wrong answer must be a whole number of minutes from 0 to 1440 (0: no wait)'
      using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  return to_jsonb(minutes::integer);
end;
$$;
comment on function private.setting_checked_before_promoter(text,jsonb) is 'The checks of every setting but the promoter''s (private.setting_checked adds them).';
revoke all on function private.setting_checked_before_promoter(text,jsonb) from public, anon, authenticated, service_role;

create or replace function private.setting_checked_before_referrals(p_key text, p_value jsonb) returns jsonb
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
comment on function private.setting_checked_before_referrals(text,jsonb) is 'The checks of every setting but the referral ones (private.setting_checked adds them).';
revoke all on function private.setting_checked_before_referrals(text,jsonb) from public, anon, authenticated, service_role;

-- From 20261123130300_admin_settings. The tiers' top-up amounts, as setting_pounds; the rest of the body is
-- unchanged.
create or replace function private.setting_checked_core(p_key text, p_value jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  tier jsonb;
  tiers jsonb := '[]'::jsonb;
  n integer := 0;
  from_amount numeric;
  percent numeric;
  line jsonb;
  lines text[] := '{}';
  value text;
  days numeric;
  launch_moment timestamptz;
begin
  case p_key
  when 'approval_mode' then
    if p_value is null or p_value not in ('"manual"'::jsonb, '"auto"'::jsonb) then
      raise exception 'Approval mode must be manual or auto' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return p_value;
  when 'top_up_min' then
    return private.setting_pounds(p_key, p_value, 'The top-up minimum', 1, 10000);
  when 'top_up_max' then
    return private.setting_pounds(p_key, p_value, 'The top-up maximum', 1, 100000);
  when 'bonus_enabled' then
    return private.setting_boolean(p_key, p_value, 'Bonuses');
  when 'bonus_tiers' then
    if p_value is null or jsonb_typeof(p_value) <> 'array' then
      raise exception 'Bonus tiers must be a list of tiers' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    if jsonb_array_length(p_value) > 10 then
      raise exception 'Give at most 10 bonus tiers' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    for tier in select t from jsonb_array_elements(p_value) t loop
      n := n + 1;
      if jsonb_typeof(tier) <> 'object' or (select count(*) from jsonb_object_keys(tier)) <> 2
         or jsonb_typeof(tier -> 'from') is distinct from 'number' or jsonb_typeof(tier -> 'percent') is distinct from 'number' then
        raise exception 'Bonus tier % must have a top-up amount (from) and a percent, both numbers', n
          using errcode = '22023', hint = 'invalid_input', detail = p_key;
      end if;
      from_amount := (tier ->> 'from')::numeric;
      percent := (tier ->> 'percent')::numeric;
      if not private.is_pounds(from_amount) or from_amount < 1 or from_amount > 100000 then
        raise exception 'Bonus tier %: the top-up amount must be from £1.00 to £100,000.00 in pounds and pence', n
          using errcode = '22023', hint = 'invalid_input', detail = p_key;
      end if;
      if percent <> round(percent, 2) or percent <= 0 or percent > 100 then
        raise exception 'Bonus tier %: the percent must be more than 0 and at most 100 (2 decimal places at most)', n
          using errcode = '22023', hint = 'invalid_input', detail = p_key;
      end if;
      tiers := tiers || jsonb_build_array(jsonb_build_object('from', round(from_amount, 2), 'percent', round(percent, 2)));
    end loop;
    if (select count(distinct (t ->> 'from')::numeric) from jsonb_array_elements(tiers) t) <> jsonb_array_length(tiers) then
      raise exception 'Two bonus tiers start at the same top-up amount' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    -- Stored in order of the amount, as the top-up page lists them.
    return coalesce((select jsonb_agg(t order by (t ->> 'from')::numeric) from jsonb_array_elements(tiers) t), '[]'::jsonb);
  when 'credit_card_monthly_cap' then
    return private.setting_pounds(p_key, p_value, 'The credit-card monthly cap', 0, 100000);
  when 'large_adjustment_threshold' then
    return private.setting_pounds(p_key, p_value, 'The large-adjustment threshold', 0, 100000);
  when 'stamp_price' then
    return private.setting_pounds(p_key, p_value, 'The stamp price', 0.01, 10);
  when 'postal_window_working_days' then
    if p_value is null or jsonb_typeof(p_value) <> 'number' then
      raise exception 'The postal window must be a whole number of working days' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    days := (p_value #>> '{}')::numeric;
    if days <> trunc(days) or days < 1 or days > 20 then
      raise exception 'The postal window must be a whole number of working days from 1 to 20'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(days::integer);
  when 'postal_address' then
    if p_value is null or jsonb_typeof(p_value) <> 'array' or jsonb_array_length(p_value) not between 2 and 8 then
      raise exception 'The postal address must have 2 to 8 lines' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    for line in select l from jsonb_array_elements(p_value) l loop
      lines := lines || private.setting_text(p_key, line, 'Each line of the postal address', 1, 100);
    end loop;
    if private.uk_postcode(array_to_string(lines, ' ')) is null then
      raise exception 'The postal address must end with a UK postcode' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(lines);
  when 'launch_at' then
    if p_value is null or p_value = 'null'::jsonb then
      return 'null'::jsonb;
    end if;
    if jsonb_typeof(p_value) <> 'string' then
      raise exception 'The launch date must be a date and time, or empty for no countdown'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    begin
      launch_moment := (p_value #>> '{}')::timestamptz;
    exception when others then
      raise exception 'The launch date must be a date and time, or empty for no countdown'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end;
    if launch_moment < timestamptz '2000-01-01 00:00Z' or launch_moment >= timestamptz '3000-01-01 00:00Z' then
      raise exception 'The launch date must be from the year 2000 to 2999' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    -- The shape admin_set_launch_at stores and the countdown reads.
    return to_jsonb(to_char(launch_moment at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'));
  when 'complaints_contact' then
    value := private.setting_text(p_key, p_value, 'The complaints contact', 3, 254);
    if value !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
      raise exception 'The complaints contact must be an e-mail address' using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return to_jsonb(value);
  when 'dispute_resolution_body' then
    if p_value is null or jsonb_typeof(p_value) <> 'object'
       or (select array_agg(k order by k) from jsonb_object_keys(p_value) k) is distinct from array['name', 'url'] then
      raise exception 'The dispute-resolution body must have a name and a web address'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    value := private.setting_text(p_key, p_value -> 'url', 'The dispute-resolution body''s web address', 10, 500);
    if value !~ '^https://[^\s/]+\.[^\s/]+(/\S*)?$' then
      raise exception 'The dispute-resolution body''s web address must start with https://'
        using errcode = '22023', hint = 'invalid_input', detail = p_key;
    end if;
    return jsonb_build_object('name', private.setting_text(p_key, p_value -> 'name', 'The dispute-resolution body''s name', 2, 200),
                              'url', value);
  when 'spinner_enabled' then
    return private.setting_boolean(p_key, p_value, 'The LabSpinner switch');
  else
    raise exception 'Unknown setting: %', p_key using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end case;
end;
$$;
comment on function private.setting_checked_core(text,jsonb) is 'The checks of every setting but the skill-answer wait (private.setting_checked adds it).';
revoke all on function private.setting_checked_core(text,jsonb) from public, anon, authenticated, service_role;

create or replace function private.settings_keys_before_promoter() returns text[]
language sql immutable set search_path = '' as $$
  select private.settings_keys_core() || array['skill_answer_cooldown_minutes']
$$;
comment on function private.settings_keys_before_promoter() is 'The settings of the screen before the promoter (private.settings_keys adds it).';
revoke all on function private.settings_keys_before_promoter() from public, anon, authenticated, service_role;

create or replace function private.settings_keys_before_referrals() returns text[]
language sql immutable set search_path = '' as $$
  select private.settings_keys_before_promoter() || array['promoter_name', 'promoter_address']
$$;
comment on function private.settings_keys_before_referrals() is 'The settings of the screen before referrals (private.settings_keys adds them).';
revoke all on function private.settings_keys_before_referrals() from public, anon, authenticated, service_role;

create or replace function private.settings_keys_core() returns text[]
language sql immutable set search_path = '' as $$
  select array['approval_mode', 'top_up_min', 'top_up_max', 'bonus_enabled', 'bonus_tiers',
               'credit_card_monthly_cap', 'large_adjustment_threshold', 'stamp_price',
               'postal_window_working_days', 'postal_address', 'launch_at', 'complaints_contact',
               'dispute_resolution_body', 'spinner_enabled']
$$;
comment on function private.settings_keys_core() is 'The settings of the screen before the skill-answer wait (private.settings_keys adds it).';
revoke all on function private.settings_keys_core() from public, anon, authenticated, service_role;

create or replace function private.setting(p_key text) returns jsonb
language sql stable security definer set search_path = '' as $$
  select value from public.app_settings where key = p_key
$$;
comment on function private.setting(text) is 'The value of one app setting (null when unset).';
revoke all on function private.setting(text) from public, anon, authenticated, service_role;

create or replace function private.setting_lines(p_key text) returns text[]
language sql stable security definer set search_path = '' as $$
  select case when private.setting(p_key) is not null then
           coalesce((select array_agg(l order by i)
                       from jsonb_array_elements_text(private.setting(p_key)) with ordinality e(l, i)), '{}')
         end
$$;
comment on function private.setting_lines(text) is 'A setting that is a list of lines (an address), in order; null when unset.';
revoke all on function private.setting_lines(text) from public, anon, authenticated, service_role;

create type public.promoter as (name text, address text[]);
comment on type public.promoter is 'Who runs the promotion, with an address, one line each (CAP code 8.17).';

create type public.dispute_resolution_body as (name text, url text);
comment on type public.dispute_resolution_body is 'The independent dispute-resolution body complaints can be escalated to: its name and web address.';

create type public.site_settings as (launch_at text, stamp_price numeric, postal_address text[], complaints_contact text, dispute_resolution_body public.dispute_resolution_body, spinner_enabled boolean, promoter public.promoter);
comment on type public.site_settings is 'The settings every visitor may see: the launch moment (ISO in UTC, or null), the stamp price, the postal address (lines), the complaints contact, the dispute-resolution body, the LabSpinner switch and the promoter.';

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

create or replace function private.settings_keys() returns text[]
language sql immutable set search_path = '' as $$
  select private.settings_keys_before_referrals() || array['referral_credit', 'referral_monthly_cap', 'instant_win_max_live_percent',
                                                          'site_url', 'limit_increase_delay_hours', 'sign_up_digest']
$$;
comment on function private.settings_keys() is 'The settings the admin settings screen reads and writes (admin_get_settings, admin_update_settings), in screen order.';
revoke all on function private.settings_keys() from public, anon, authenticated, service_role;

-- What both players receive, and how often: money, like the bonuses.
create or replace function private.money_settings_keys() returns text[]
language sql immutable set search_path = '' as $$
  select private.money_settings_keys_before_referrals() || array['referral_credit', 'referral_monthly_cap']
$$;
comment on function private.money_settings_keys() is 'The settings only a super admin may change: what players pay and receive, and the credit adjustment a plain admin may make.';
revoke all on function private.money_settings_keys() from public, anon, authenticated, service_role;

-- From 20261123130300_admin_settings. A JSON number is never NaN or Infinity and the third decimal was
-- already refused, so only the rule's home moves.
create or replace function private.setting_pounds(p_key text, p_value jsonb, p_label text, p_min numeric, p_max numeric)
returns jsonb
language plpgsql immutable set search_path = '' as $$
declare
  amount numeric;
begin
  if p_value is null or jsonb_typeof(p_value) <> 'number' then
    raise exception '% must be an amount in pounds', p_label using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  amount := (p_value #>> '{}')::numeric;
  if not private.is_pounds(amount) then
    raise exception '% must be in pounds and pence (at most 2 decimal places)', p_label
      using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  if amount < p_min or amount > p_max then
    raise exception '% must be from % to %', p_label, private.format_gbp(p_min), private.format_gbp(p_max)
      using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  return to_jsonb(round(amount, 2));
end;
$$;
comment on function private.setting_pounds(text,jsonb,text,numeric,numeric) is 'A money setting checked (a number of pounds and pence from p_min to p_max) and normalised; invalid_input naming p_label otherwise.';
revoke all on function private.setting_pounds(text,jsonb,text,numeric,numeric) from public, anon, authenticated, service_role;

create or replace function private.setting_boolean(p_key text, p_value jsonb, p_label text) returns jsonb
language plpgsql immutable set search_path = '' as $$
begin
  if p_value is null or jsonb_typeof(p_value) <> 'boolean' then
    raise exception '% must be on or off (true or false)', p_label using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  return p_value;
end;
$$;
comment on function private.setting_boolean(text,jsonb,text) is 'An on/off setting checked (a JSON boolean); invalid_input naming p_label otherwise.';
revoke all on function private.setting_boolean(text,jsonb,text) from public, anon, authenticated, service_role;

create or replace function private.setting_text(p_key text, p_value jsonb, p_label text, p_min integer, p_max integer) returns text
language plpgsql immutable set search_path = '' as $$
declare
  value text;
begin
  if p_value is null or jsonb_typeof(p_value) <> 'string' then
    raise exception '% must be text', p_label using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  value := btrim(p_value #>> '{}');
  if char_length(value) < p_min or char_length(value) > p_max then
    raise exception '% must be % to % characters', p_label, p_min, p_max using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  return value;
end;
$$;
comment on function private.setting_text(text,jsonb,text,integer,integer) is 'A text setting checked (a JSON string of p_min to p_max characters once trimmed) and trimmed; invalid_input naming p_label otherwise.';
revoke all on function private.setting_text(text,jsonb,text,integer,integer) from public, anon, authenticated, service_role;

create or replace function private.setting_checked(p_key text, p_value jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  n numeric;
begin
  case p_key
  when 'sign_up_digest' then
    return private.setting_boolean(p_key, p_value, 'The sign-up digest');
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

create or replace function public.admin_get_settings() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return jsonb_build_object(
    'settings', (select jsonb_object_agg(k, coalesce(private.setting(k), 'null'::jsonb)) from unnest(private.settings_keys()) k),
    'super_admin_keys', to_jsonb(private.money_settings_keys()),
    'can_change_money_settings', public.is_super_admin(),
    'updated', coalesce((select jsonb_object_agg(s.key, jsonb_build_object('at', s.updated_at, 'by', p.name))
                           from public.app_settings s
                           left join public.profiles p on p.id = s.updated_by
                          where s.key = any (private.settings_keys()) and s.updated_by is not null), '{}'::jsonb));
end;
$$;
comment on function public.admin_get_settings() is 'Admins: every setting of the settings screen (settings: key -> value), which keys need a super admin (super_admin_keys), whether the caller is one (can_change_money_settings), and who last changed each setting and when (updated).';
revoke all on function public.admin_get_settings() from public, anon, authenticated, service_role;
grant execute on function public.admin_get_settings() to authenticated;
grant execute on function public.admin_get_settings() to service_role;

create or replace function public.admin_update_settings(p jsonb) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  k text;
  v jsonb;
  checked jsonb := '{}'::jsonb;
  old_value jsonb;
  changed text[] := '{}';
  new_min numeric;
  new_max numeric;
begin
  if p is null or jsonb_typeof(p) <> 'object' or p = '{}'::jsonb then
    raise exception 'Send the settings to change, each key with its new value' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- Every value is checked before anything is written: one bad value and nothing is saved.
  for k, v in select e.key, e.value from jsonb_each(p) e order by e.key loop
    checked := checked || jsonb_build_object(k, private.setting_checked(k, v));
  end loop;

  -- Two saves at once must not each pass the minimum/maximum check against the other's old value.
  perform 1 from public.app_settings s
    where s.key = any (array(select jsonb_object_keys(checked)) || array['top_up_min', 'top_up_max'])
    order by s.key for update;

  new_min := coalesce(checked -> 'top_up_min', private.setting('top_up_min')) #>> '{}';
  new_max := coalesce(checked -> 'top_up_max', private.setting('top_up_max')) #>> '{}';
  if new_min > new_max then
    raise exception 'The top-up minimum (%) must not be more than the maximum (%)', private.format_gbp(new_min), private.format_gbp(new_max)
      using errcode = '22023', hint = 'invalid_input', detail = 'top_up_min';
  end if;

  select coalesce(array_agg(e.key order by e.key), '{}') into changed
    from jsonb_each(checked) e
   where private.setting(e.key) is distinct from e.value;

  if changed && private.money_settings_keys() and not public.is_super_admin() then
    raise exception 'Access denied: Super admin privileges required to change the top-up limits, bonuses, the credit-card cap or the large-adjustment threshold'
      using errcode = '42501', hint = 'super_admin_required';
  end if;

  foreach k in array changed loop
    old_value := private.setting(k);
    insert into public.app_settings (key, value, updated_at, updated_by)
    values (k, checked -> k, now(), admin_id)
    on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by;
    perform private.log_activity('settings.' || k, null,
      jsonb_build_object(k, jsonb_build_object('old', coalesce(old_value, 'null'::jsonb), 'new', checked -> k)));
  end loop;

  return public.admin_get_settings() || jsonb_build_object('changed', to_jsonb(changed));
end;
$$;
comment on function public.admin_update_settings(jsonb) is 'Admins: saves settings given as {key: new value} all or nothing: each value checked (invalid_input naming the setting, its key in DETAIL), the top-up minimum not above the maximum; the money settings (private.money_settings_keys) change only by a super admin (super_admin_required); each changed key audited as settings.<key> with {key: {old, new}}. Returns admin_get_settings() plus changed (the keys that changed).';
revoke all on function public.admin_update_settings(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_settings(jsonb) to authenticated;
grant execute on function public.admin_update_settings(jsonb) to service_role;
