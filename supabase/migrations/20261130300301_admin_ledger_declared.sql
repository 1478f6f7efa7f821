-- admin_ledger_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_user_ledger(uuid,bigint,integer);

create or replace function public.admin_user_ledger(p_user_id uuid, p_before bigint default null, p_limit integer default 25)
returns public.admin_ledger_page
language plpgsql stable security definer set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 200);
  page_rows public.admin_ledger_row[];
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.admin_user_target(p_user_id);
  select coalesce(array_agg(row(r.id, r.kind, r.amount, r.balance_after, r.reason, r.reference, r.created_at,
                                cb.name)::public.admin_ledger_row
           order by r.id desc) filter (where r.n <= page_size), '{}'),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select l.*, row_number() over (order by l.id desc) as n
            from public.credit_ledger l
           where l.user_id = p_user_id and (p_before is null or l.id < p_before)
           order by l.id desc
           limit page_size + 1) r
    left join public.profiles cb on cb.id = r.created_by;
  return row(page_rows, case when fetched > page_size then last_id end)::public.admin_ledger_page;
end;
$$;
comment on function public.admin_user_ledger(uuid,bigint,integer) is 'Admins: one page of a user''s credit ledger, newest first (keyset: pass next_before), with who posted each row.';
revoke all on function public.admin_user_ledger(uuid,bigint,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_user_ledger(uuid,bigint,integer) to authenticated;
grant execute on function public.admin_user_ledger(uuid,bigint,integer) to service_role;
