-- ============================================================================
-- LabSpinner: wheels, segments, seeds, spins and free-route grants.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create table public.spinner_wheels (
  id bigint generated always as identity primary key,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
alter table public.spinner_wheels enable row level security;
comment on table public.spinner_wheels is 'LabSpinner wheel versions: the newest is the live wheel; a spin records the version it used, so a change applies to later spins only.';
revoke all on table public.spinner_wheels from public, anon, authenticated, service_role;
grant all on table public.spinner_wheels to service_role;

create index spinner_wheels_created_by_idx on public.spinner_wheels (created_by);

create table public.spinner_segments (
  wheel_id bigint not null references public.spinner_wheels (id) on delete cascade,
  position smallint not null check (position between 1 and 16),
  label text not null check (char_length(label) between 1 and 24 and label = btrim(label)),
  colour text not null check (colour ~ '^#[0-9a-f]{6}$'),
  label_colour text not null check (label_colour in ('#ffffff', '#111111')),
  prize_credits numeric(12, 2) not null default 0 check (prize_credits >= 0 and prize_credits <= 1000),
  weight integer not null check (weight between 1 and 1000000),
  primary key (wheel_id, position)
);
alter table public.spinner_segments enable row level security;
comment on table public.spinner_segments is 'The segments of each wheel version, positions 1..n clockwise from the top; odds = weight / total weight.';
revoke all on table public.spinner_segments from public, anon, authenticated, service_role;
grant all on table public.spinner_segments to service_role;

create table public.spinner_seeds (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  server_seed bytea not null check (octet_length(server_seed) = 32),
  server_seed_hash text not null check (server_seed_hash ~ '^[0-9a-f]{64}$'),
  client_seed text not null check (client_seed ~ '^[A-Za-z0-9_-]{1,64}$'),
  next_nonce integer not null default 0 check (next_nonce >= 0),
  created_at timestamptz not null default now(),
  revealed_at timestamptz
);
alter table public.spinner_seeds enable row level security;
comment on table public.spinner_seeds is 'Each player''s LabSpinner seed pairs: the server seed stays secret (only its SHA-256 is shown) until the player rotates it; one active pair per player.';
revoke all on table public.spinner_seeds from public, anon, authenticated, service_role;
grant all on table public.spinner_seeds to service_role;

create unique index spinner_seeds_one_active_idx on public.spinner_seeds (user_id) where (revealed_at IS NULL);
create index spinner_seeds_user_idx on public.spinner_seeds (user_id, id DESC);

create table public.spinner_spins (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  seed_id bigint not null references public.spinner_seeds (id) on delete cascade,
  client_seed text not null,
  nonce integer not null,
  wheel_id bigint not null references public.spinner_wheels (id),
  attempt integer not null check (attempt >= 0),
  value bigint not null check (value >= 0),
  segment_position smallint not null,
  label text not null,
  prize_credits numeric(12, 2) not null check (prize_credits >= 0),
  -- Which credit paid for it: a refund takes back earned credits only, never a postal request's.
  source text not null check (source in ('earned', 'postal')),
  created_at timestamptz not null default now(),
  unique (seed_id, nonce)
);
alter table public.spinner_spins enable row level security;
comment on table public.spinner_spins is 'Every LabSpinner spin: the seed pair and nonce it used, the wheel version, the derived value and segment, and the prize paid (ledger reference spin:<id>).';
revoke all on table public.spinner_spins from public, anon, authenticated, service_role;
grant select on table public.spinner_spins to authenticated;
grant all on table public.spinner_spins to service_role;

create index spinner_spins_user_idx on public.spinner_spins (user_id, id DESC);
create index spinner_spins_wheel_idx on public.spinner_spins (wheel_id, segment_position);
create policy "spinner spins: own rows or admin" on public.spinner_spins
  as permissive for select to authenticated
  using (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

create table public.spinner_grants (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  reference text not null check (char_length(reference) between 1 and 100),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
alter table public.spinner_grants enable row level security;
comment on table public.spinner_grants is 'The free route: one spin credit per postal request an admin records (same odds as an earned spin).';
revoke all on table public.spinner_grants from public, anon, authenticated, service_role;
grant select on table public.spinner_grants to authenticated;
grant all on table public.spinner_grants to service_role;

create index spinner_grants_user_idx on public.spinner_grants (user_id, id DESC);
create index spinner_grants_created_by_idx on public.spinner_grants (created_by);
create policy "spinner grants: own rows or admin" on public.spinner_grants
  as permissive for select to authenticated
  using (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT public.is_admin() AS is_admin)));

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.spin_derive(
  p_server_seed bytea, p_client_seed text, p_nonce integer, p_weights integer[],
  out attempt integer, out value bigint, out segment_position integer
)
language plpgsql immutable set search_path = '' as $$
declare
  total bigint;
  accept_below bigint;
  x bigint;
  h bytea;
  cumulative bigint := 0;
begin
  if octet_length(p_server_seed) is distinct from 32 or p_client_seed is null or p_nonce is null or p_nonce < 0
     or coalesce(array_length(p_weights, 1), 0) < 1 then
    raise exception 'A spin needs a 32-byte server seed, a client seed, a nonce and the weights'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  select sum(w) into total from unnest(p_weights) w;
  accept_below := 281474976710656 - (281474976710656 % total);
  attempt := 0;
  loop
    h := extensions.hmac(
      convert_to(p_client_seed || ':' || p_nonce || case when attempt > 0 then ':' || attempt else '' end, 'UTF8'),
      p_server_seed, 'sha256');
    x := ('x' || encode(substring(h from 1 for 6), 'hex'))::bit(48)::bigint;
    exit when x < accept_below;
    attempt := attempt + 1;
  end loop;
  value := x % total;
  for i in 1 .. array_length(p_weights, 1) loop
    cumulative := cumulative + p_weights[i];
    if value < cumulative then
      segment_position := i;
      return;
    end if;
  end loop;
end;
$$;
comment on function private.spin_derive(bytea,text,integer,integer[]) is 'labcash-spin-v1: the segment (1-based position) for a server seed, client seed and nonce over the weights in position order, by HMAC-SHA256 and rejection sampling; /labspinner/verify recomputes it in the browser.';
revoke all on function private.spin_derive(bytea,text,integer,integer[]) from public, anon, authenticated, service_role;

create or replace function private.current_wheel_id() returns bigint
language sql stable security definer set search_path = '' as $$
  select max(w.id) from public.spinner_wheels w
$$;
comment on function private.current_wheel_id() is 'The live wheel version (the newest).';
revoke all on function private.current_wheel_id() from public, anon, authenticated, service_role;

create type public.spinner_segment as (position smallint, label text, colour text, label_colour text, prize_credits numeric(12,2), weight integer, probability numeric);
comment on type public.spinner_segment is 'One segment of a LabSpinner wheel version: position 1..n clockwise from the top, probability = weight / total weight (6 decimals).';

create type public.spinner_wheel as (wheel_id bigint, total_weight bigint, expected_prize numeric, segments public.spinner_segment[]);
comment on type public.spinner_wheel is 'One LabSpinner wheel version: its segments in position order, the total weight and the prize a spin pays on average (credits, 4 decimals).';

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

-- The spin history and the audit log nest wheels in their jsonb.
create or replace function private.wheel_json(p_wheel_id bigint) returns jsonb
language sql stable security definer set search_path = '' as $$
  select to_jsonb(private.wheel_row(p_wheel_id))
$$;
comment on function private.wheel_json(bigint) is 'private.wheel_row as jsonb, for results that nest it.';
revoke all on function private.wheel_json(bigint) from public, anon, authenticated, service_role;

create or replace function private.spinner_enabled() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((private.setting('spinner_enabled'))::boolean, true)
$$;
comment on function private.spinner_enabled() is 'Whether the wheel is on (setting spinner_enabled).';
revoke all on function private.spinner_enabled() from public, anon, authenticated, service_role;

create type public.spin_credits as (ticket_spend numeric, earned integer, granted integer, used integer, earned_available integer, postal_available integer, available integer, spend_per_spin integer, toward_next numeric, to_next numeric);
comment on type public.spin_credits is 'A player''s spin credits: net ticket spend, credits earned (1 per £10), postal grants, spins used, what is available of each, and the spend toward the next credit.';

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

create or replace function private.active_spinner_seed(p_user uuid) returns public.spinner_seeds
language plpgsql security definer set search_path = '' as $$
declare
  seed public.spinner_seeds%rowtype;
  new_seed bytea;
begin
  select * into seed from public.spinner_seeds s where s.user_id = p_user and s.revealed_at is null;
  if found then
    return seed;
  end if;
  new_seed := extensions.gen_random_bytes(32);
  insert into public.spinner_seeds (user_id, server_seed, server_seed_hash, client_seed)
  values (p_user, new_seed, encode(extensions.digest(new_seed, 'sha256'), 'hex'),
          encode(extensions.gen_random_bytes(8), 'hex'))
  on conflict (user_id) where revealed_at is null do nothing;
  select * into seed from public.spinner_seeds s where s.user_id = p_user and s.revealed_at is null;
  return seed;
end;
$$;
comment on function private.active_spinner_seed(uuid) is 'The player''s active seed pair, created on first use (server seed from gen_random_bytes, a random client seed).';
revoke all on function private.active_spinner_seed(uuid) from public, anon, authenticated, service_role;

create type public.spinner_seed as (id bigint, server_seed_hash text, client_seed text, next_nonce integer, created_at timestamp with time zone, revealed_at timestamp with time zone, server_seed text);
comment on type public.spinner_seed is 'A LabSpinner seed pair as its player sees it: the server seed (hex) only once the pair is revealed.';

create or replace function private.seed_row(s public.spinner_seeds) returns public.spinner_seed
language sql stable security definer set search_path = '' as $$
  select s.id, s.server_seed_hash, s.client_seed, s.next_nonce, s.created_at, s.revealed_at,
         -- The server seed only once the pair is rotated out: before that it would let the player predict spins.
         case when s.revealed_at is not null then encode(s.server_seed, 'hex') end
$$;
comment on function private.seed_row(public.spinner_seeds) is 'A seed pair as its player sees it; the server seed only once revealed.';
revoke all on function private.seed_row(public.spinner_seeds) from public, anon, authenticated, service_role;

-- The spin history nests seed pairs in its jsonb.
create or replace function private.seed_json(s public.spinner_seeds) returns jsonb
language sql stable security definer set search_path = '' as $$
  select to_jsonb(private.seed_row(s))
$$;
comment on function private.seed_json(public.spinner_seeds) is 'private.seed_row as jsonb, for results that nest it.';
revoke all on function private.seed_json(public.spinner_seeds) from public, anon, authenticated, service_role;

create type public.spinner_spin as (id bigint, seed_id bigint, client_seed text, nonce integer, wheel_id bigint, attempt integer, value bigint, segment_position smallint, label text, prize_credits numeric(12,2), created_at timestamp with time zone);
comment on type public.spinner_spin is 'One LabSpinner spin: the seed pair, client seed and nonce it used, the wheel version, the rejection-sampling attempt, the derived value, the segment and the prize paid.';

create or replace function private.spin_row(sp public.spinner_spins) returns public.spinner_spin
language sql stable set search_path = '' as $$
  select sp.id, sp.seed_id, sp.client_seed, sp.nonce, sp.wheel_id, sp.attempt, sp.value, sp.segment_position, sp.label,
         sp.prize_credits, sp.created_at
$$;
comment on function private.spin_row(public.spinner_spins) is 'A spin as its player and the admin screens see it.';
revoke all on function private.spin_row(public.spinner_spins) from public, anon, authenticated, service_role;

-- The spin history nests spins in its jsonb.
create or replace function private.spin_json(sp public.spinner_spins) returns jsonb
language sql stable set search_path = '' as $$
  select to_jsonb(private.spin_row(sp))
$$;
comment on function private.spin_json(public.spinner_spins) is 'private.spin_row as jsonb, for results that nest it.';
revoke all on function private.spin_json(public.spinner_spins) from public, anon, authenticated, service_role;

create or replace function private.check_client_seed(p_client_seed text) returns text
language plpgsql immutable set search_path = '' as $$
begin
  if p_client_seed is null or p_client_seed !~ '^[A-Za-z0-9_-]{1,64}$' then
    raise exception 'A client seed is 1 to 64 letters, digits, hyphens or underscores'
      using errcode = '22023', hint = 'invalid_input', detail = 'client_seed';
  end if;
  return p_client_seed;
end;
$$;
comment on function private.check_client_seed(text) is 'Checks a client seed (1-64 of A-Z a-z 0-9 _ -).';
revoke all on function private.check_client_seed(text) from public, anon, authenticated, service_role;

create or replace function private.hex_luminance(p_hex text) returns double precision
language sql immutable strict set search_path = '' as $$
  select 0.2126 * c[1] + 0.7152 * c[2] + 0.0722 * c[3]
    from (select array_agg(case when v <= 0.04045 then v / 12.92 else power((v + 0.055) / 1.055, 2.4) end order by i) as c
            from (select i, ('x' || substring(p_hex from 2 * i for 2))::bit(8)::integer / 255.0::double precision as v
                    from generate_series(1, 3) i) channels) lin
$$;
comment on function private.hex_luminance(text) is 'WCAG relative luminance of a #rrggbb colour.';
revoke all on function private.hex_luminance(text) from public, anon, authenticated, service_role;

create or replace function private.contrast_ratio(p_a text, p_b text) returns numeric
language sql immutable strict set search_path = '' as $$
  -- Unrounded: WCAG compares the exact ratio (4.4976 is below 4.5); messages round it for display.
  select ((greatest(la, lb) + 0.05) / (least(la, lb) + 0.05))::numeric
    from (select private.hex_luminance(p_a) as la, private.hex_luminance(p_b) as lb) l
$$;
comment on function private.contrast_ratio(text,text) is 'WCAG contrast ratio of two #rrggbb colours (unrounded).';
revoke all on function private.contrast_ratio(text,text) from public, anon, authenticated, service_role;

create type public.live_spinner_wheel as (wheel_id bigint, total_weight bigint, expected_prize numeric, segments public.spinner_segment[], enabled boolean);
comment on type public.live_spinner_wheel is 'The live wheel (public.spinner_wheel''s fields) and whether LabSpinner is on.';

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

create type public.my_spinner as (enabled boolean, credits public.spin_credits, block public.refusal, seed public.spinner_seed, balance numeric(12,2), recent_spins public.spinner_spin[]);
comment on type public.my_spinner is 'The caller''s LabSpinner state: on/off, spin credits, what blocks play (or null), the active seed pair, balance and the last 10 spins.';

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

create type public.spin_result as (id bigint, seed_id bigint, client_seed text, nonce integer, wheel_id bigint, attempt integer, value bigint, segment_position smallint, label text, prize_credits numeric(12,2), created_at timestamp with time zone, server_seed_hash text, balance numeric(12,2), credits public.spin_credits);
comment on type public.spin_result is 'A spin just made (public.spinner_spin''s fields), the hash of the server seed it used, the balance after its prize and the spin credits left.';

create or replace function public.spin_wheel() returns public.spin_result
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  block jsonb;
  seed public.spinner_seeds%rowtype;
  wheel bigint;
  weights integer[];
  derived record;
  credits public.spin_credits;
  seg public.spinner_segments%rowtype;
  spin public.spinner_spins%rowtype;
  new_balance numeric(12, 2);
begin
  -- One spin at a time per player: the credit count below and the nonce are decided under this lock.
  perform 1 from public.user_account_data a where a.id = uid for update;
  if not private.spinner_enabled() then
    raise exception 'LabSpinner is switched off for now' using errcode = 'P0001', hint = 'spinner_off';
  end if;
  block := private.play_block(uid);
  if block is not null then
    perform private.raise_refusal(block ->> 'code', block ->> 'message');
  end if;
  credits := private.spin_credits_row(uid);
  if credits.available < 1 then
    raise exception 'You have no spin credits: you earn one for every £10 you spend on tickets, or by post'
      using errcode = 'P0001', hint = 'no_spin_credits';
  end if;

  seed := private.active_spinner_seed(uid);
  wheel := private.current_wheel_id();
  select array_agg(s.weight order by s.position) into weights from public.spinner_segments s where s.wheel_id = wheel;
  derived := private.spin_derive(seed.server_seed, seed.client_seed, seed.next_nonce, weights);
  select * into seg from public.spinner_segments s where s.wheel_id = wheel and s.position = derived.segment_position;

  insert into public.spinner_spins (user_id, seed_id, client_seed, nonce, wheel_id, attempt, value, segment_position,
                                    label, prize_credits, source)
  values (uid, seed.id, seed.client_seed, seed.next_nonce, wheel, derived.attempt, derived.value, seg.position,
          seg.label, seg.prize_credits,
          -- Earned credits first: a later refund can only take back earned credits.
          case when credits.earned_available > 0 then 'earned' else 'postal' end)
  returning * into spin;
  update public.spinner_seeds set next_nonce = next_nonce + 1 where id = seed.id;

  if seg.prize_credits > 0 then
    new_balance := private.post_ledger(uid, 'spinner_prize', seg.prize_credits, 'LabSpinner prize: ' || seg.label,
                                       'spin:' || spin.id);
    perform private.log_activity('spinner.prize', uid, jsonb_build_object('spin_id', spin.id,
      'segment', seg.position, 'label', seg.label, 'prize_credits', seg.prize_credits));
  else
    select a.credits into new_balance from public.user_account_data a where a.id = uid;
  end if;

  return row(spin.id, spin.seed_id, spin.client_seed, spin.nonce, spin.wheel_id, spin.attempt, spin.value,
             spin.segment_position, spin.label, spin.prize_credits, spin.created_at,
             seed.server_seed_hash, new_balance, private.spin_credits_row(uid))::public.spin_result;
end;
$$;
comment on function public.spin_wheel() is 'Spends one spin credit: derives the segment from the caller''s active seed pair and next nonce over the live wheel, records the spin and pays a credit prize into the ledger (reference spin:<id>), all in one transaction. Codes: spinner_off, no_spin_credits and the play blocks (approval_pending, on_break, self_excluded, restricted, account_closed, approval_rejected).';
revoke all on function public.spin_wheel() from public, anon, authenticated, service_role;
grant execute on function public.spin_wheel() to authenticated;
grant execute on function public.spin_wheel() to service_role;

create or replace function public.set_spinner_client_seed(p_client_seed text) returns public.spinner_seed
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  seed public.spinner_seeds%rowtype;
begin
  perform private.check_client_seed(p_client_seed);
  perform 1 from public.user_account_data a where a.id = uid for update;
  seed := private.active_spinner_seed(uid);
  update public.spinner_seeds set client_seed = p_client_seed where id = seed.id returning * into seed;
  return private.seed_row(seed);
end;
$$;
comment on function public.set_spinner_client_seed(text) is 'Sets the client seed of the caller''s active pair (used from the next spin; the nonce carries on).';
revoke all on function public.set_spinner_client_seed(text) from public, anon, authenticated, service_role;
grant execute on function public.set_spinner_client_seed(text) to authenticated;
grant execute on function public.set_spinner_client_seed(text) to service_role;

create type public.seed_rotation as (revealed public.spinner_seed, seed public.spinner_seed);
comment on type public.seed_rotation is 'A rotation: the pair just revealed (its server seed shown) and the new active pair.';

create or replace function public.rotate_spinner_seed(p_client_seed text default null) returns public.seed_rotation
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  old_seed public.spinner_seeds%rowtype;
  new_seed public.spinner_seeds%rowtype;
begin
  if p_client_seed is not null then
    perform private.check_client_seed(p_client_seed);
  end if;
  perform 1 from public.user_account_data a where a.id = uid for update;
  old_seed := private.active_spinner_seed(uid);
  update public.spinner_seeds set revealed_at = now() where id = old_seed.id returning * into old_seed;
  new_seed := private.active_spinner_seed(uid);
  if p_client_seed is not null then
    update public.spinner_seeds set client_seed = p_client_seed where id = new_seed.id returning * into new_seed;
  end if;
  return row(private.seed_row(old_seed), private.seed_row(new_seed))::public.seed_rotation;
end;
$$;
comment on function public.rotate_spinner_seed(text) is 'Reveals the caller''s active server seed (so its spins can be verified) and starts a new pair (a fresh server seed, the given or a random client seed, nonce 0).';
revoke all on function public.rotate_spinner_seed(text) from public, anon, authenticated, service_role;
grant execute on function public.rotate_spinner_seed(text) to authenticated;
grant execute on function public.rotate_spinner_seed(text) to service_role;

create or replace function public.get_my_spin_history() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  return jsonb_build_object(
    'seeds', coalesce((select jsonb_agg(private.seed_json(s) order by s.id desc)
                         from public.spinner_seeds s where s.user_id = uid), '[]'::jsonb),
    'spins', coalesce((select jsonb_agg(private.spin_json(sp) order by sp.id desc)
                         from (select * from public.spinner_spins s where s.user_id = uid
                                order by s.id desc limit 1000) sp), '[]'::jsonb),
    'wheels', coalesce((select jsonb_object_agg(w.wheel_id::text, private.wheel_json(w.wheel_id))
                          from (select distinct s.wheel_id from public.spinner_spins s where s.user_id = uid) w),
                       '{}'::jsonb));
end;
$$;
comment on function public.get_my_spin_history() is 'For /labspinner/verify: the caller''s seed pairs (server seeds of rotated pairs revealed), their last 1,000 spins, and each wheel version those spins used (segments and weights).';
revoke all on function public.get_my_spin_history() from public, anon, authenticated, service_role;
grant execute on function public.get_my_spin_history() to authenticated;
grant execute on function public.get_my_spin_history() to service_role;

create type public.spinner_grant as (id bigint, user_id uuid, email text, reference text, created_at timestamp with time zone, created_by_email text);
comment on type public.spinner_grant is 'One postal LabSpinner request recorded by an admin (the free route), with the player''s and the admin''s e-mail.';

create type public.spinner_version as (wheel_id bigint, created_at timestamp with time zone, created_by_email text, spins bigint);
comment on type public.spinner_version is 'One wheel version: when and by whom it was saved, and the spins made on it.';

create type public.spinner_observed as (position smallint, count bigint);
comment on type public.spinner_observed is 'Spins that landed on one segment of the live wheel.';

create type public.admin_spinner_wheel as (wheel_id bigint, total_weight bigint, expected_prize numeric, segments public.spinner_segment[], created_at timestamp with time zone, created_by_email text);
comment on type public.admin_spinner_wheel is 'The live wheel for the admin screen: public.spinner_wheel''s fields, when it was saved and by whom.';

create type public.admin_spinner as (enabled boolean, wheel public.admin_spinner_wheel, observed public.spinner_observed[], spins bigint, versions public.spinner_version[], recent_grants public.spinner_grant[]);
comment on type public.admin_spinner is 'The LabSpinner admin screen: on/off, the live wheel, spins per segment and in all on it, the last 10 versions and the last 20 postal grants.';

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

create type public.spin_request as (grant_id bigint, user_id uuid, reference text, credits public.spin_credits);
comment on type public.spin_request is 'A postal LabSpinner request just recorded, and the player''s spin credits after it.';

create or replace function public.admin_record_spin_request(p_user_id uuid, p_reference text) returns public.spin_request
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  acct public.user_account_data%rowtype;
  ref text := btrim(coalesce(p_reference, ''));
  grant_id bigint;
begin
  if char_length(ref) not between 1 and 100 then
    raise exception 'Give the postal request a reference of 1 to 100 characters (for example the date it arrived)'
      using errcode = '22023', hint = 'invalid_input', detail = 'reference';
  end if;
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  insert into public.spinner_grants (user_id, reference, created_by) values (p_user_id, ref, admin_id)
  returning id into grant_id;
  perform private.log_activity('spinner.postal_request', p_user_id, jsonb_build_object('grant_id', grant_id, 'reference', ref));
  perform private.queue_mail(p_user_id, 'spinner_postal_request', 'Your LabSpinner postal request',
    'We received your postal request (' || ref || ') and added 1 spin credit to your account. '
    || 'It has the same odds as every other spin: spin it at /labspinner.');
  return row(grant_id, p_user_id, ref, private.spin_credits_row(p_user_id))::public.spin_request;
end;
$$;
comment on function public.admin_record_spin_request(uuid,text) is 'Admins: records a postal LabSpinner request (the free route) for a player: one spin credit, a confirmation e-mail, audited (spinner.postal_request).';
revoke all on function public.admin_record_spin_request(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_record_spin_request(uuid,text) to authenticated;
grant execute on function public.admin_record_spin_request(uuid,text) to service_role;

create type public.player_spin_grant as (id bigint, reference text, created_at timestamp with time zone);
comment on type public.player_spin_grant is 'One postal request recorded for a player, as their admin page lists it.';

create type public.player_spins as (credits public.spin_credits, spins public.spinner_spin[], grants public.player_spin_grant[]);
comment on type public.player_spins is 'One player''s spin credits, last 20 spins and last 20 postal grants (the admin''s user page).';

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

create type public.spin_reveal as (spin public.spinner_spin, revealed public.spinner_seed, wheel public.spinner_wheel, seed public.spinner_seed);
comment on type public.spin_reveal is 'One of the caller''s spins with its seed pair revealed, the wheel version it used and the active pair after: what the browser recomputes the spin from.';

create or replace function public.reveal_spinner_spin(p_spin_id bigint) returns public.spin_reveal
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  sp public.spinner_spins%rowtype;
  seed public.spinner_seeds%rowtype;
  next_seed public.spinner_seeds%rowtype;
begin
  -- The same lock as spin_wheel and rotate_spinner_seed: no spin lands on a pair while it is revealed.
  perform 1 from public.user_account_data a where a.id = uid for update;
  select * into sp from public.spinner_spins s where s.id = p_spin_id and s.user_id = uid;
  if not found then
    -- Another player's spin reads as no spin at all: nothing says it exists.
    raise exception 'Spin not found' using errcode = 'PT404', hint = 'spin_not_found';
  end if;
  select * into seed from public.spinner_seeds s where s.id = sp.seed_id;
  if seed.revealed_at is null then
    -- Its pair is the active one: reveal it and start the next, keeping the client seed the player has.
    update public.spinner_seeds set revealed_at = now() where id = seed.id returning * into seed;
    next_seed := private.active_spinner_seed(uid);
    update public.spinner_seeds set client_seed = seed.client_seed where id = next_seed.id returning * into next_seed;
  else
    next_seed := private.active_spinner_seed(uid);
  end if;
  return row(private.spin_row(sp), private.seed_row(seed), private.wheel_row(sp.wheel_id),
             private.seed_row(next_seed))::public.spin_reveal;
end;
$$;
comment on function public.reveal_spinner_spin(bigint) is 'The caller''s own spin with its seed pair revealed (rotating the active pair first when the spin used it; the new pair keeps the client seed, nonce 0), its wheel version and the new active pair: what "Reveal and check this spin" recomputes in the browser. Another player''s spin is spin_not_found.';
revoke all on function public.reveal_spinner_spin(bigint) from public, anon, authenticated, service_role;
grant execute on function public.reveal_spinner_spin(bigint) to authenticated;
grant execute on function public.reveal_spinner_spin(bigint) to service_role;
