-- ============================================================================
-- True monthly figures (issue 22 item 2). Responsible play and the admin user page showed
-- "Topped up this month" from private.month_topped_up, which counts pending checkouts as well as
-- paid ones: a player who opened a £25 checkout, abandoned it and paid a second £25 read £50 while
-- the ledger held one £25 top-up.
--
-- The limit keeps counting both (a player must not open many checkouts at once to go past it), so
-- month_topped_up and every check that reads it are unchanged. The figures shown are now two:
--   month_credited: money paid and credited this month (less refunds), what the ledger holds;
--   month_held: checkouts still open (pending), held against the limit until paid, failed or expired.
-- month_credited + month_held = month_topped_up, the figure the limit uses.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

create function private.month_credited(p_user uuid) returns numeric
language sql stable security definer set search_path = '' as $$
  select coalesce(sum(t.amount - t.refunded_amount), 0)
    from public.top_ups t
   where t.user_id = p_user and t.created_at >= private.month_start()
     and t.status in ('credited', 'partially_refunded', 'refunded')
$$;
comment on function private.month_credited(uuid) is 'Money paid and credited to the player from top-ups started this calendar month, less what was refunded (pending checkouts excluded).';

create function private.month_held(p_user uuid) returns numeric
language sql stable security definer set search_path = '' as $$
  select coalesce(sum(t.amount), 0)
    from public.top_ups t
   where t.user_id = p_user and t.created_at >= private.month_start() and t.status = 'pending'
$$;
comment on function private.month_held(uuid) is 'Money in checkouts the player opened this calendar month that are not paid, failed or expired yet: held against the monthly limit, released if not paid.';

create or replace function private.protections_json(p_user uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections := private.protections_of(p_user);
  topped_up numeric := private.month_topped_up(p_user);
  spent numeric := private.month_spent(p_user);
  state text := private.protection_state(p);
begin
  return jsonb_build_object(
    'monthly_limit', p.monthly_limit,
    'pending_limit', p.pending_limit,
    'pending_limit_from', p.pending_limit_from,
    -- What the limit counts: credited and still-open checkouts together.
    'month_topped_up', topped_up,
    'month_credited', private.month_credited(p_user),
    'month_held', private.month_held(p_user),
    'month_spent', spent,
    -- One figure for both things the limit caps: what may still go in and be spent this month.
    'monthly_remaining', case when p.monthly_limit is null then null
                              else greatest(p.monthly_limit - greatest(topped_up, spent), 0) end,
    'state', state,
    'break_until', case when state in ('break', 'self_exclusion') then p.break_until end,
    'closed_at', p.closed_at,
    'limit_increase_delay_hours', (private.setting('limit_increase_delay_hours'))::numeric);
end;
$$;
comment on function private.protections_json(uuid) is 'A player''s protections as get_my_protections returns them: month_credited (paid) and month_held (open checkouts) are shown; month_topped_up, their sum, is what the limit counts.';
