-- account_dashboard: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function public.get_my_dashboard() returns public.my_dashboard
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  -- The account dashboard's one read beside the account row the proxy hands on (DECISIONS "Page speed").
  return row(
    private.needs_limit_prompt(private.protections_of(uid), uid),
    coalesce((select array_agg(c.title order by d.drawn_at desc)
                from public.draws d
                join public.competitions c on c.id = d.competition_id
               where d.winner_user_id = uid and d.prize_status = 'awaiting_claim'), '{}'))::public.my_dashboard;
end;
$$;
comment on function public.get_my_dashboard() is 'The caller''s account dashboard: whether to invite a monthly limit (as get_top_up_options'' needs_limit_prompt) and the titles of their prizes awaiting a claim, newest draw first (as get_my_prizes).';
revoke all on function public.get_my_dashboard() from public, anon, authenticated, service_role;
grant execute on function public.get_my_dashboard() to authenticated;
grant execute on function public.get_my_dashboard() to service_role;

create or replace function public.get_top_up_options() returns public.top_up_options
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  p public.player_protections;
  remaining numeric;
  block jsonb;
  blocked public.refusal;
begin
  perform private.create_account_rows(uid);
  p := private.protections_of(uid);
  remaining := case when p.monthly_limit is null then null
                    else greatest(p.monthly_limit - private.month_topped_up(uid), 0) end;
  block := private.play_block(uid);
  if block is not null then
    blocked := jsonb_populate_record(null::public.refusal, block);
  elsif remaining is not null and remaining < (private.setting('top_up_min'))::numeric then
    blocked := row('monthly_limit_reached',
      'You have reached your monthly limit: ' || private.format_gbp(remaining) || ' left this month')::public.refusal;
  end if;
  return row(
    (private.setting('top_up_min'))::numeric,
    (private.setting('top_up_max'))::numeric,
    '{10, 25, 50, 100, 200}'::integer[],
    coalesce((private.setting('bonus_enabled'))::boolean, false),
    coalesce((select array_agg(row((t ->> 'from')::numeric, (t ->> 'percent')::numeric)::public.bonus_tier
                               order by (t ->> 'from')::numeric)
                from jsonb_array_elements(private.setting('bonus_tiers')) t), '{}'),
    p.monthly_limit,
    remaining,
    p.pending_limit,
    p.pending_limit_from,
    private.needs_limit_prompt(p, uid),
    blocked)::public.top_up_options;
end;
$$;
comment on function public.get_top_up_options() is 'Signed-in users: what the top-up page needs: min, max, quick picks, bonus tiers, the monthly limit and what is left of it, a pending increase, whether to invite a limit (needs_limit_prompt), and blocked {code, message} when no top-up is possible now.';
revoke all on function public.get_top_up_options() from public, anon, authenticated, service_role;
grant execute on function public.get_top_up_options() to authenticated;
grant execute on function public.get_top_up_options() to service_role;

create or replace function private.needs_limit_prompt(p public.player_protections, p_user uuid) returns boolean
language sql stable set search_path = '' as $$
  -- Until a limit is set, the invitation declined or a first top-up credited.
  select p.limit_set_at is null and p.limit_prompt_seen_at is null
     and not exists (select 1 from public.top_ups t where t.user_id = p_user and t.credited_at is not null)
$$;
comment on function private.needs_limit_prompt(public.player_protections,uuid) is 'Whether to invite a player (p: their protections) to set a monthly limit: none set, the invitation never declined, no top-up credited yet.';
revoke all on function private.needs_limit_prompt(public.player_protections,uuid) from public, anon, authenticated, service_role;
