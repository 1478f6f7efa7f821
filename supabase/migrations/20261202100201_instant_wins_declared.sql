-- instant_wins_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.instant_wins_json(uuid,boolean);

drop function public.admin_set_instant_win_prizes(uuid,jsonb);

create or replace function public.admin_set_instant_win_prizes(p_competition_id uuid, p_prizes jsonb) returns public.competition_instant_wins
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  prize jsonb;
  pos integer := 0;
  prize_total integer := 0;
begin
  perform private.require_admin();
  select * into c from public.competitions where id = p_competition_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if c.status <> 'draft' then
    raise exception 'Instant wins are fixed once a competition is published' using errcode = 'P0001', hint = 'instant_wins_locked';
  end if;
  if p_prizes is null or jsonb_typeof(p_prizes) <> 'array' or jsonb_array_length(p_prizes) > 20 then
    raise exception 'Instant wins must be a list of at most 20 prizes' using errcode = '22023', hint = 'invalid_input';
  end if;
  delete from public.instant_win_prizes where competition_id = c.id;
  for prize in select value from jsonb_array_elements(p_prizes) loop
    pos := pos + 1;
    if jsonb_typeof(prize) <> 'object' or coalesce(prize ->> 'kind', '') not in ('credit', 'spin', 'physical')
       or jsonb_typeof(prize -> 'quantity') is distinct from 'number'
       or (prize ->> 'kind' = 'credit') <> (jsonb_typeof(prize -> 'credit_amount') is not distinct from 'number') then
      raise exception 'Instant win % needs a kind (credit, spin or physical), a count, and an amount for credit', pos
        using errcode = '22023', hint = 'invalid_input', detail = 'instant_wins';
    end if;
    begin
      insert into public.instant_win_prizes (competition_id, position, kind, title, credit_amount, quantity)
      values (c.id, pos, (prize ->> 'kind')::public.instant_win_kind,
              coalesce(nullif(btrim(prize ->> 'title'), ''),
                       case prize ->> 'kind'
                         when 'credit' then private.format_gbp((prize ->> 'credit_amount')::numeric) || ' credit'
                         when 'spin' then 'A LabSpinner spin' end),
              (prize ->> 'credit_amount')::numeric, (prize ->> 'quantity')::numeric);
    exception when check_violation or not_null_violation or numeric_value_out_of_range or invalid_text_representation then
      raise exception 'Instant win %: a title of 1 to 120 characters, a count from 1 to 1,000, credit from £0.01 to £10,000 in pence', pos
        using errcode = '22023', hint = 'invalid_input', detail = 'instant_wins';
    end;
    prize_total := prize_total + (prize ->> 'quantity')::integer;
  end loop;
  if prize_total > c.total_tickets then
    raise exception 'There are % instant wins but only % tickets', prize_total, c.total_tickets
      using errcode = '22023', hint = 'instant_wins_exceed_tickets';
  end if;
  perform private.log_activity('competition.instant_wins_set', c.id, jsonb_build_object('prizes', pos, 'instant_wins', prize_total));
  return private.instant_wins_row(c.id, true);
end;
$$;
comment on function public.admin_set_instant_win_prizes(uuid,jsonb) is 'Admins: replaces a draft''s instant-win prizes with p_prizes [{kind: credit | spin | physical, title?, credit_amount (credit only), quantity}], in the order their numbers are assigned. Refused once published (instant_wins_locked) or when the count exceeds the tickets (instant_wins_exceed_tickets).';
revoke all on function public.admin_set_instant_win_prizes(uuid,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_set_instant_win_prizes(uuid,jsonb) to authenticated;
grant execute on function public.admin_set_instant_win_prizes(uuid,jsonb) to service_role;

-- Everything public about a competition's instant wins. The numbers and seed appear only once the draw
-- has revealed the seed (draws.seed_hex); until then only the prizes, the wins so far and the commitment.
create or replace function private.instant_wins_row(p_competition_id uuid, p_admin boolean default false) returns public.competition_instant_wins
language sql stable security definer set search_path = '' as $$
  select c.instant_win_commitment,
         'labcash-instant-win-v1',
         c.total_tickets,
         coalesce((select array_agg(row(p.position, p.kind, p.title, p.credit_amount, p.quantity,
                                        (select count(*) from public.instant_wins w where w.prize_id = p.id)
                                    )::public.instant_win_prize order by p.position)
                     from public.instant_win_prizes p where p.competition_id = c.id), '{}'),
         coalesce((select array_agg(row(w.ticket_number, w.winning_number, p.position, p.title, w.display_name,
                                        w.ticket_id, w.won_at)::public.instant_win
                                    order by w.won_at, w.ticket_number)
                     from public.instant_wins w join public.instant_win_prizes p on p.id = w.prize_id
                    where w.competition_id = c.id), '{}'),
         d.seed_hex,
         case when d.seed_hex is not null then
           (select coalesce(array_agg(row(n.slot, n.number, p.position)::public.instant_win_number order by n.slot), '{}')
              from public.instant_win_numbers n join public.instant_win_prizes p on p.id = n.prize_id
             where n.competition_id = c.id) end
  from public.competitions c
  left join public.draws d on d.competition_id = c.id
  where c.id = p_competition_id and (p_admin or c.status <> 'draft')
$$;
comment on function private.instant_wins_row(uuid,boolean) is 'A competition''s instant wins: commitment, prizes (with how many are won), wins so far (ticket, prize, public name), and after the draw the seed and every winning number. Drafts only for admins; null otherwise.';
revoke all on function private.instant_wins_row(uuid,boolean) from public, anon, authenticated, service_role;

create or replace function public.get_instant_wins(p_slug text) returns jsonb
language sql stable security definer set search_path = '' as $$
  -- jsonb, not the declared type: a composite function answers an object of nulls where this answers null.
  select to_jsonb(private.instant_wins_row(c.id, public.is_admin())) from public.competitions c where c.slug = p_slug
$$;
comment on function public.get_instant_wins(text) is 'Public: a published competition''s instant wins (prizes, wins so far, commitment; the numbers and seed after the draw). Admins: drafts too. Null for an unknown slug.';
revoke all on function public.get_instant_wins(text) from public, anon, authenticated, service_role;
grant execute on function public.get_instant_wins(text) to anon;
grant execute on function public.get_instant_wins(text) to authenticated;
grant execute on function public.get_instant_wins(text) to service_role;
