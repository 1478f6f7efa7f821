-- spinner_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_get_spinner();

drop function public.admin_update_spinner_wheel(jsonb);

drop function public.admin_user_spins(uuid);

drop function public.get_my_spinner();

drop function public.get_spinner_wheel();

create or replace function private.wheel_row(p_wheel_id bigint) returns public.spinner_wheel
language sql stable security definer set search_path = '' as $$
  with segs as (
    select s.*, sum(s.weight) over () as total from public.spinner_segments s where s.wheel_id = p_wheel_id
  )
  select p_wheel_id,
         (select max(total) from segs),
         (select round(sum(prize_credits * weight) / max(total), 4) from segs),
         coalesce((select array_agg(row(g.position, g.label, g.colour, g.label_colour, g.prize_credits, g.weight,
                                        round(g.weight::numeric / g.total, 6))::public.spinner_segment
                                    order by g.position) from segs g), '{}')
$$;
comment on function private.wheel_row(bigint) is 'One wheel version: segments in position order with weight and probability (weight / total), the total weight and the expected prize per spin in credits.';
revoke all on function private.wheel_row(bigint) from public, anon, authenticated, service_role;

-- The rotation and reveal results and the audit log nest a wheel in their jsonb.
create or replace function private.wheel_json(p_wheel_id bigint) returns jsonb
language sql stable security definer set search_path = '' as $$
  select to_jsonb(private.wheel_row(p_wheel_id))
$$;
comment on function private.wheel_json(bigint) is 'private.wheel_row as jsonb, for results that nest it.';
revoke all on function private.wheel_json(bigint) from public, anon, authenticated, service_role;

create or replace function private.spin_credits_row(p_user uuid) returns public.spin_credits
language sql stable security definer set search_path = '' as $$
  with spend as (
    select greatest(
             coalesce(-sum(l.amount) filter (where l.kind = 'entry'), 0)
             - coalesce(sum(l.amount) filter (where l.kind = 'refund' and l.reference like 'entry:%'), 0),
             0) as net
      from public.credit_ledger l
     where l.user_id = p_user and l.kind in ('entry', 'refund')
  ), counts as (
    select s.net,
           floor(s.net / 10)::integer as earned,
           (select count(*)::integer from public.spinner_grants g where g.user_id = p_user) as granted,
           (select count(*)::integer from public.spinner_spins sp where sp.user_id = p_user and sp.source = 'earned')
             as earned_used,
           (select count(*)::integer from public.spinner_spins sp where sp.user_id = p_user and sp.source = 'postal')
             as postal_used
      from spend s
  )
  select c.net,
         c.earned,
         c.granted,
         c.earned_used + c.postal_used,
         greatest(c.earned - c.earned_used, 0),
         c.granted - c.postal_used,
         greatest(c.earned - c.earned_used, 0) + (c.granted - c.postal_used),
         10,
         c.net - c.earned * 10,
         10 - (c.net - c.earned * 10)
  from counts c
$$;
comment on function private.spin_credits_row(uuid) is 'A player''s spin credits: 1 per £10 of net ticket spend (entries less refunded entries, rounded down) less spins paid with them (never below 0: a refund takes back only unspent ones), plus postal grants less spins paid with them; with the spend toward the next credit.';
revoke all on function private.spin_credits_row(uuid) from public, anon, authenticated, service_role;

-- spin_wheel and the postal request's result nest the credits in their jsonb.
create or replace function private.spin_credits(p_user uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select to_jsonb(private.spin_credits_row(p_user))
$$;
comment on function private.spin_credits(uuid) is 'private.spin_credits_row as jsonb, for results that nest it.';
revoke all on function private.spin_credits(uuid) from public, anon, authenticated, service_role;

create or replace function private.spin_row(sp public.spinner_spins) returns public.spinner_spin
language sql stable set search_path = '' as $$
  select sp.id, sp.seed_id, sp.client_seed, sp.nonce, sp.wheel_id, sp.attempt, sp.value, sp.segment_position, sp.label,
         sp.prize_credits, sp.created_at
$$;
comment on function private.spin_row(public.spinner_spins) is 'A spin as its player and the admin screens see it.';
revoke all on function private.spin_row(public.spinner_spins) from public, anon, authenticated, service_role;

-- spin_wheel and the reveal result nest a spin in their jsonb.
create or replace function private.spin_json(sp public.spinner_spins) returns jsonb
language sql stable set search_path = '' as $$
  select to_jsonb(private.spin_row(sp))
$$;
comment on function private.spin_json(public.spinner_spins) is 'private.spin_row as jsonb, for results that nest it.';
revoke all on function private.spin_json(public.spinner_spins) from public, anon, authenticated, service_role;

create or replace function public.get_spinner_wheel() returns public.live_spinner_wheel
language sql stable security definer set search_path = '' as $$
  select w.wheel_id, w.total_weight, w.expected_prize, w.segments, private.spinner_enabled()
    from private.wheel_row(private.current_wheel_id()) w
$$;
comment on function public.get_spinner_wheel() is 'Public: the live wheel (segments with weights and probabilities, total weight, expected prize per spin) and whether it is on.';
revoke all on function public.get_spinner_wheel() from public, anon, authenticated, service_role;
grant execute on function public.get_spinner_wheel() to anon;
grant execute on function public.get_spinner_wheel() to authenticated;
grant execute on function public.get_spinner_wheel() to service_role;

create or replace function public.get_my_spinner() returns public.my_spinner
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  seed public.spinner_seeds%rowtype := private.active_spinner_seed(uid);
  block jsonb := private.play_block(uid);
begin
  return row(
    private.spinner_enabled(),
    private.spin_credits_row(uid),
    -- play_block answers null or {code, message}; populating from null would give a refusal of nulls instead.
    case when block is not null then jsonb_populate_record(null::public.refusal, block) end,
    private.seed_row(seed),
    (select a.credits from public.user_account_data a where a.id = uid),
    coalesce((select array_agg(private.spin_row(sp) order by sp.id desc)
                from (select * from public.spinner_spins s where s.user_id = uid
                       order by s.id desc limit 10) sp), '{}'))::public.my_spinner;
end;
$$;
comment on function public.get_my_spinner() is 'The caller''s LabSpinner state: wheel on/off, spin credits and progress to the next, what blocks play (or null), the active seed pair (server seed hash, client seed, next nonce), balance and the last 10 spins.';
revoke all on function public.get_my_spinner() from public, anon, authenticated, service_role;
grant execute on function public.get_my_spinner() to authenticated;
grant execute on function public.get_my_spinner() to service_role;

create or replace function public.admin_get_spinner() returns public.admin_spinner
language plpgsql stable security definer set search_path = '' as $$
declare
  wheel bigint;
begin
  perform private.require_admin();
  wheel := private.current_wheel_id();
  return row(
    private.spinner_enabled(),
    (select row(lw.wheel_id, lw.total_weight, lw.expected_prize, lw.segments,
                (select w.created_at from public.spinner_wheels w where w.id = wheel),
                (select p.email from public.spinner_wheels w join public.profiles p on p.id = w.created_by
                  where w.id = wheel))::public.admin_spinner_wheel
       from private.wheel_row(wheel) lw),
    -- Observed frequencies on the live wheel only: an older version had other weights.
    coalesce((select array_agg(row(s.position, (select count(*) from public.spinner_spins sp
                                                 where sp.wheel_id = wheel and sp.segment_position = s.position)
                                  )::public.spinner_observed order by s.position)
                from public.spinner_segments s where s.wheel_id = wheel), '{}'),
    (select count(*) from public.spinner_spins sp where sp.wheel_id = wheel),
    coalesce((select array_agg(row(w.id, w.created_at,
                                   (select p.email from public.profiles p where p.id = w.created_by),
                                   (select count(*) from public.spinner_spins sp where sp.wheel_id = w.id)
                                  )::public.spinner_version order by w.id desc)
                from (select * from public.spinner_wheels order by id desc limit 10) w), '{}'),
    coalesce((select array_agg(row(g.id, g.user_id, (select p.email from public.profiles p where p.id = g.user_id),
                                   g.reference, g.created_at,
                                   (select p.email from public.profiles p where p.id = g.created_by)
                                  )::public.spinner_grant order by g.id desc)
                from (select * from public.spinner_grants order by id desc limit 20) g), '{}'))::public.admin_spinner;
end;
$$;
comment on function public.admin_get_spinner() is 'Admins: the live wheel, on/off, observed spins per segment on the live wheel (for the chi-square check against the weights), the last 10 versions and the last 20 postal grants.';
revoke all on function public.admin_get_spinner() from public, anon, authenticated, service_role;
grant execute on function public.admin_get_spinner() to authenticated;
grant execute on function public.admin_get_spinner() to service_role;

-- From 20261123150000_labspinner. As for the settings: only the rule's home moves.
create or replace function public.admin_update_spinner_wheel(p_segments jsonb) returns public.spinner_wheel
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  n integer;
  seg jsonb;
  i integer := 0;
  label text;
  colour text;
  label_colour text;
  prize numeric;
  weight numeric;
  ratio numeric;
  wheel bigint;
begin
  if p_segments is null or jsonb_typeof(p_segments) <> 'array' then
    raise exception 'Send the segments as a list' using errcode = '22023', hint = 'invalid_input', detail = 'segments';
  end if;
  n := jsonb_array_length(p_segments);
  if n not between 2 and 16 then
    raise exception 'A wheel has 2 to 16 segments (this one has %)', n using errcode = '22023', hint = 'invalid_input', detail = 'segments';
  end if;
  -- Everything is checked before anything is written.
  for seg in select e from jsonb_array_elements(p_segments) e loop
    i := i + 1;
    if jsonb_typeof(seg) <> 'object' then
      raise exception 'Segment %: send label, colour, label colour, prize and weight', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i;
    end if;
    label := btrim(coalesce(seg ->> 'label', ''));
    if char_length(label) not between 1 and 24 then
      raise exception 'Segment %: the label is 1 to 24 characters', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.label';
    end if;
    colour := lower(coalesce(seg ->> 'colour', ''));
    if colour !~ '^#[0-9a-f]{6}$' then
      raise exception 'Segment %: the colour is a hex colour such as #1d4ed8', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.colour';
    end if;
    label_colour := lower(coalesce(seg ->> 'label_colour', ''));
    if label_colour not in ('#ffffff', '#111111') then
      raise exception 'Segment %: the label colour is white (#ffffff) or black (#111111)', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.label_colour';
    end if;
    ratio := private.contrast_ratio(colour, label_colour);
    if ratio < 4.5 then
      raise exception 'Segment %: the label has a contrast of only %:1 on %; it needs 4.5:1 (try the other label colour or a darker or lighter segment)', i, trunc(ratio, 2), colour
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.colour';
    end if;
    if jsonb_typeof(seg -> 'prize_credits') is distinct from 'number' then
      raise exception 'Segment %: the prize is a number of credits (0 for no prize)', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.prize_credits';
    end if;
    prize := (seg ->> 'prize_credits')::numeric;
    if not private.is_pounds(prize) or prize < 0 or prize > 1000 then
      raise exception 'Segment %: the prize is between £0 and £1,000 in pounds and pence', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.prize_credits';
    end if;
    if jsonb_typeof(seg -> 'weight') is distinct from 'number' then
      raise exception 'Segment %: the weight is a whole number from 1 to 1,000,000', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.weight';
    end if;
    weight := (seg ->> 'weight')::numeric;
    if weight <> trunc(weight) or weight < 1 or weight > 1000000 then
      raise exception 'Segment %: the weight is a whole number from 1 to 1,000,000', i
        using errcode = '22023', hint = 'invalid_input', detail = 'segments.' || i || '.weight';
    end if;
  end loop;

  insert into public.spinner_wheels (created_by) values (admin_id) returning id into wheel;
  insert into public.spinner_segments (wheel_id, position, label, colour, label_colour, prize_credits, weight)
  select wheel, e.ordinality, btrim(e.value ->> 'label'), lower(e.value ->> 'colour'), lower(e.value ->> 'label_colour'),
         (e.value ->> 'prize_credits')::numeric, (e.value ->> 'weight')::integer
    from jsonb_array_elements(p_segments) with ordinality e;
  perform private.log_activity('spinner.wheel_updated', null,
    jsonb_build_object('wheel_id', wheel, 'previous_wheel_id', (select max(w.id) from public.spinner_wheels w where w.id < wheel))
    || jsonb_build_object('segments', private.wheel_json(wheel) -> 'segments'));
  return private.wheel_row(wheel);
end;
$$;
comment on function public.admin_update_spinner_wheel(jsonb) is 'Admins: a new wheel version from 2-16 segments [{label, colour, label_colour, prize_credits, weight}] (label 1-24 characters, #rrggbb colour with a 4.5:1 label contrast, prize £0-£1,000, weight 1-1,000,000); applies to later spins only; audited (spinner.wheel_updated). Errors name the field in detail (segments.<n>.<field>).';
revoke all on function public.admin_update_spinner_wheel(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_spinner_wheel(jsonb) to authenticated;
grant execute on function public.admin_update_spinner_wheel(jsonb) to service_role;

create or replace function public.admin_user_spins(p_user_id uuid) returns public.player_spins
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  perform private.admin_user_target(p_user_id);
  return row(
    private.spin_credits_row(p_user_id),
    coalesce((select array_agg(private.spin_row(sp) order by sp.id desc)
                from (select * from public.spinner_spins s where s.user_id = p_user_id
                       order by s.id desc limit 20) sp), '{}'),
    coalesce((select array_agg(row(g.id, g.reference, g.created_at)::public.player_spin_grant order by g.id desc)
                from (select * from public.spinner_grants s where s.user_id = p_user_id
                       order by s.id desc limit 20) g), '{}'))::public.player_spins;
end;
$$;
comment on function public.admin_user_spins(uuid) is 'Admins: one player''s spin credits, last 20 spins and last 20 postal grants (the user detail page).';
revoke all on function public.admin_user_spins(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_user_spins(uuid) to authenticated;
grant execute on function public.admin_user_spins(uuid) to service_role;
