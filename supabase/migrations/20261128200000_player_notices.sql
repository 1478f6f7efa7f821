-- ============================================================================
-- What a player meets before they act (issue 22 item 8):
--   * get_entry_quote says what blocks the caller's play now (a break, self-exclusion, a
--     closure, a restriction: private.play_block, the check enter_competition makes), so the
--     competition page shows a notice instead of a form that would only refuse;
--   * get_competition gives the ticket bundles with their totals, worked out here, so the
--     signed-out entry card states what a bundle costs;
--   * a one-time "You're approved" welcome: approval_welcomed_at per account,
--     get_my_account says welcome_due, dismiss_approval_welcome records it;
--   * reveal_spinner_spin: "Reveal and check this spin" in one click: rotates the caller's
--     pair when the spin's seed is still the active one and answers what its check needs.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- The entry quote names what blocks play
-- ----------------------------------------------------------------------------
-- The latest body (20261127100400_entry_quote_before_second_step) with 'block' added. Not stable any more:
-- play_block applies a due limit increase (private.protections_of writes), as every other caller does.
create or replace function public.get_entry_quote(p_competition_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  held integer;
  cap_left integer;
  tickets_left integer;
  balance numeric(12, 2);
  quoted integer;
begin
  select * into c from public.competitions where id = p_competition_id;
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  select * into acct from public.user_account_data a where a.id = uid;
  balance := coalesce(acct.credits, 0);
  select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  cap_left := greatest(c.max_tickets_per_user - held, 0);
  tickets_left := greatest(c.total_tickets - c.tickets_sold, 0);
  -- Prices for every quantity the selector can offer, capped so the answer stays small.
  quoted := least(cap_left, tickets_left, 1000);
  return jsonb_build_object(
    'balance', balance,
    'approved', coalesce(acct.approved, false),
    'rejected', acct.rejected_at is not null and not coalesce(acct.approved, false),
    'held', held,
    'cap_left', cap_left,
    'tickets_left', tickets_left,
    'costs', coalesce((select jsonb_agg(c.ticket_price * q order by q) from generate_series(1, quoted) q), '[]'::jsonb),
    'shortfalls', coalesce((select jsonb_agg(greatest(c.ticket_price * q - balance, 0) order by q)
                              from generate_series(1, quoted) q), '[]'::jsonb),
    'skill_retry_at', case when c.skill_question is not null then private.skill_answer_retry_at(uid, c.id) end,
    'block', private.play_block(uid));
end;
$$;
comment on function public.get_entry_quote(uuid) is 'Signed-in users: what the competition page shows before entering: credit balance, approval, tickets held, how many more the per-user cap and the tickets left allow, for each quantity up to 1000 (costs[i] and shortfalls[i] are for i + 1 tickets) the cost and the credit still missing, skill_retry_at (until when a wrong skill answer closes the question to them), block: what stops them playing now ({code, message} as enter_competition refuses, with the end of a break or exclusion in the message; or null). enter_competition() re-checks everything.';

-- ----------------------------------------------------------------------------
-- Ticket bundles on the public competition
-- ----------------------------------------------------------------------------
create function private.ticket_bundles(c public.competitions) returns jsonb
language sql stable set search_path = '' as $$
  -- The entry form's quick picks (components/competitions/entry-panel.tsx) that one person may buy now.
  select coalesce(jsonb_agg(jsonb_build_object('tickets', q, 'cost', c.ticket_price * q) order by q), '[]'::jsonb)
    from unnest(array[1, 5, 10, 25]) q
   where q <= least(c.max_tickets_per_user, c.total_tickets - c.tickets_sold)
$$;
comment on function private.ticket_bundles(public.competitions) is 'The ticket bundles (1, 5, 10, 25) one person may buy now, each with its cost in pounds.';

-- The latest body (20261126110200_not_found_is_404) with 'bundles' added.
create or replace function public.get_competition(p_slug text) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  uid uuid := auth.uid();
  mine integer[];
begin
  select * into c from public.competitions where slug = lower(btrim(p_slug));
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if uid is not null then
    select coalesce(array_agg(t.number order by t.number), '{}') into mine
      from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  end if;
  return private.competition_json(c.id)
      || jsonb_build_object('my_tickets', to_jsonb(mine), 'bundles', private.ticket_bundles(c));
end;
$$;
comment on function public.get_competition(text) is 'Public: one published competition by slug (admins may preview drafts): question and options but never the answer, the seed commitment, sold count, the draw once drawn, the ticket bundles with their costs, and the caller''s own ticket numbers (null when signed out).';

-- ----------------------------------------------------------------------------
-- "You're approved", once
-- ----------------------------------------------------------------------------
alter table public.user_account_data add column approval_welcomed_at timestamptz;
comment on column public.user_account_data.approval_welcomed_at is 'When the player dismissed the one-time "You''re approved" welcome (null: not yet).';
-- Players approved before the welcome existed have long since found their way in.
update public.user_account_data set approval_welcomed_at = coalesce(approved_at, now()) where approved;

-- The latest body (20261127100000_player_two_step) with welcome_due added.
create or replace function public.get_my_account() returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  result jsonb := private.account_json(uid);
begin
  if result is null then
    -- Spec §4: a missing profile row is created and read again.
    perform private.create_account_rows(uid);
    result := private.account_json(uid);
  end if;
  return result || jsonb_build_object(
    'two_step_owed', private.two_step_owed(),
    'welcome_due', exists (select 1 from public.user_account_data a
                            where a.id = uid and a.approved and a.approval_welcomed_at is null));
end;
$$;
comment on function public.get_my_account() is 'The caller''s profile merged with account data, two_step_owed (a verified second factor the session has not given: everything else refuses until it is) and welcome_due (approved, the "You''re approved" welcome not dismissed yet); creates the rows if missing. Works at aal1.';

create function public.dismiss_approval_welcome() returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  update public.user_account_data set approval_welcomed_at = now()
   where id = uid and approved and approval_welcomed_at is null;
  return found;
end;
$$;
comment on function public.dismiss_approval_welcome() is 'The caller dismisses their own "You''re approved" welcome for good; answers whether it was still showing.';
revoke execute on function public.dismiss_approval_welcome() from public, anon;
grant execute on function public.dismiss_approval_welcome() to authenticated;

-- ----------------------------------------------------------------------------
-- Reveal and check one spin
-- ----------------------------------------------------------------------------
create function public.reveal_spinner_spin(p_spin_id bigint) returns jsonb
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
  return jsonb_build_object(
    'spin', private.spin_json(sp),
    'revealed', private.seed_json(seed),
    'wheel', private.wheel_json(sp.wheel_id),
    'seed', private.seed_json(next_seed));
end;
$$;
comment on function public.reveal_spinner_spin(bigint) is 'The caller''s own spin with its seed pair revealed (rotating the active pair first when the spin used it; the new pair keeps the client seed, nonce 0), its wheel version and the new active pair: what "Reveal and check this spin" recomputes in the browser. Another player''s spin is spin_not_found.';
revoke execute on function public.reveal_spinner_spin(bigint) from public, anon;
grant execute on function public.reveal_spinner_spin(bigint) to authenticated;
