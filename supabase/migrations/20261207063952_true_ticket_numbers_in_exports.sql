-- true_ticket_numbers_in_exports: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function public.admin_competition_entries_csv(p_id uuid, p_after integer default 0, p_limit integer default 10000)
returns public.csv_chunk
language plpgsql stable security definer set search_path = '' as $$
declare
  chunk integer := least(greatest(coalesce(p_limit, 10000), 1), 10000);
  after_no integer := greatest(coalesce(p_after, 0), 0);
  lines text;
  last_no integer;
begin
  perform private.require_admin();
  if not exists (select 1 from public.competitions c where c.id = p_id) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  -- first_ticket is unique within a competition (ticket numbers are), so it pages the entries.
  with page as (
    select e.id, e.created_at, e.kind, e.status, e.first_ticket, e.quantity, e.amount, e.user_id,
           coalesce(pe.name, p.name) as person, p.email, pe.address, pe.postcode
      from public.entries e
      left join public.profiles p on p.id = e.user_id
      left join public.postal_entries pe on pe.entry_id = e.id
     where e.competition_id = p_id and e.first_ticket > after_no
     order by e.first_ticket
     limit chunk
  ), runs as (
    -- Every number from public.tickets, never first_ticket arithmetic: chosen numbers are not contiguous.
    -- Consecutive numbers of an entry share number - row_number(), so each group is one run.
    select r.entry_id, min(r.number) as lo, max(r.number) as hi
      from (select t.entry_id, t.number, t.number - row_number() over (partition by t.entry_id order by t.number) as run
              from public.tickets t
             where t.entry_id in (select k.id from page k)) r
     group by r.entry_id, r.run
  ), numbers as (
    -- Every number, and nothing that reads as more: a run of three or more is shortened to "31 to 33" (words,
    -- because a spreadsheet reads "1-50" as January 1950 and "7-9" as 7 September), others are listed, and runs are
    -- joined with ", " so a run cannot run into the next number: "7, 8, 13 to 15, 40" (docs/decisions/047).
    select n.entry_id,
           string_agg(case when n.hi - n.lo >= 2 then n.lo || ' to ' || n.hi
                           when n.hi > n.lo then n.lo || ', ' || n.hi
                           else n.lo::text end, ', ' order by n.lo) as list
      from runs n
     group by n.entry_id
  )
  select coalesce(string_agg(concat_ws(',',
             x.id::text,
             to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
             case when x.kind = 'postal' then 'postal' else 'online' end,
             x.status,
             private.csv_field(nb.list),
             x.quantity::text,
             x.amount::text,
             coalesce(x.user_id::text, ''),
             private.csv_field(coalesce(x.person, '')),
             private.csv_field(coalesce(x.email, '')),
             private.csv_field(coalesce(x.address, '')),
             private.csv_field(coalesce(x.postcode, ''))) || E'\n', '' order by x.first_ticket), ''),
         max(x.first_ticket)
    into lines, last_no
    from page x
    left join numbers nb on nb.entry_id = x.id;
  return row(
    case when after_no = 0
         then 'entry_id,created_at,route,status,ticket_numbers,tickets,amount,user_id,name,email,postal_address,postcode' || E'\n'
         else '' end || lines,
    last_no,
    last_no is null
      or not exists (select 1 from public.entries e where e.competition_id = p_id and e.first_ticket > last_no)
  )::public.csv_chunk;
end;
$$;
comment on function public.admin_competition_entries_csv(uuid,integer,integer) is 'Admins: a chunk of a competition''s entries as CSV (one line per order or postal entry: id, time (UTC), route, status, every ticket number ("7, 8, 13 to 15": runs of three or more shortened), the count, amount, the buyer''s id, name and e-mail, the postal address), in ticket order after first ticket p_after; the header in the first chunk only. Any state, drafts and cancelled ones included.';
revoke all on function public.admin_competition_entries_csv(uuid,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_entries_csv(uuid,integer,integer) to authenticated;
grant execute on function public.admin_competition_entries_csv(uuid,integer,integer) to service_role;
