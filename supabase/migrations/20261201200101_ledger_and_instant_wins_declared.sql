-- ledger_and_instant_wins_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_list_instant_win_fulfilment();

drop function public.get_my_ledger_page(text,date,bigint,integer);

create or replace function public.admin_list_instant_win_fulfilment() returns setof public.instant_win_to_deliver
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return query
    select w.id, c.title, c.slug, p.title, p.kind, w.ticket_number, w.display_name, w.user_id, u.email::text, pe.name,
           pe.address, w.status, w.won_at, w.delivered_at
      from public.instant_wins w
      join public.competitions c on c.id = w.competition_id
      join public.instant_win_prizes p on p.id = w.prize_id
      left join auth.users u on u.id = w.user_id
      left join public.postal_entries pe on pe.entry_id = w.entry_id
     where w.status <> 'awarded'
     order by w.won_at desc;
end;
$$;
comment on function public.admin_list_instant_win_fulfilment() is 'Admins: instant wins an admin must deliver (physical prizes, postal entrants without an account), newest first, with the e-mail or the letter''s name and address.';
revoke all on function public.admin_list_instant_win_fulfilment() from public, anon, authenticated, service_role;
grant execute on function public.admin_list_instant_win_fulfilment() to authenticated;
grant execute on function public.admin_list_instant_win_fulfilment() to service_role;

create or replace function public.get_my_ledger_page(p_kind text DEFAULT NULL::text, p_month date DEFAULT NULL::date, p_before bigint DEFAULT NULL::bigint, p_limit integer DEFAULT 50)
 RETURNS public.ledger_page
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  uid uuid := private.require_user();
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  from_at timestamptz := private.month_start(p_month::timestamp at time zone 'Europe/London');
  -- The next month's start, found from inside it, so the clock change cannot shift it.
  to_at timestamptz := private.month_start(from_at + interval '32 days');
  page_rows public.ledger_row[];
  last_id bigint;
  more boolean;
begin
  perform private.ledger_filter_check(p_kind);
  select coalesce(array_agg(row(x.id, x.kind, x.amount, x.balance_after, x.reason, x.reference,
                                x.created_at)::public.ledger_row order by x.id desc), '{}'),
         min(x.id)
    into page_rows, last_id
    from (select l.* from public.credit_ledger l
           where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
             and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))
             and (p_before is null or l.id < p_before)
           order by l.id desc limit page_size) x;
  more := last_id is not null and exists (
    select 1 from public.credit_ledger l
     where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
       and (from_at is null or (l.created_at >= from_at and l.created_at < to_at)) and l.id < last_id);
  return row(
    page_rows,
    case when more then last_id end,
    (select row(count(*),
                coalesce(sum(l.amount) filter (where l.amount > 0), 0),
                coalesce(-sum(l.amount) filter (where l.amount < 0), 0),
                coalesce(sum(l.amount), 0))::public.ledger_totals
       from public.credit_ledger l
      where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
        and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))))::public.ledger_page;
end;
$function$;
comment on function public.get_my_ledger_page(text,date,bigint,integer) is 'Signed-in users: one page of their ledger, newest first (keyset: pass next_before), optionally one kind and the calendar month (Europe/London) containing p_month; totals are for the whole filter (credits_out is a positive figure; net = credits_in - credits_out).';
revoke all on function public.get_my_ledger_page(text,date,bigint,integer) from public, anon, authenticated, service_role;
grant execute on function public.get_my_ledger_page(text,date,bigint,integer) to authenticated;
grant execute on function public.get_my_ledger_page(text,date,bigint,integer) to service_role;
