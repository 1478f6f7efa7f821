-- postal_entry_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_record_postal_entry(uuid,uuid,text,text,text);

create or replace function public.admin_record_postal_entry(
  p_competition_id uuid, p_user_id uuid, p_name text, p_address text, p_answer text
) returns public.postal_entry_recorded
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  c public.competitions%rowtype;
  the_postcode text := private.uk_postcode(p_address);
  held integer;
  tickets integer;
  numbers integer[];
  new_entry uuid;
begin
  if p_name is null or char_length(btrim(p_name)) not between 2 and 100 then
    raise exception 'Give the entrant''s name (2 to 100 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_address is null or char_length(btrim(p_address)) not between 5 and 500 then
    raise exception 'Give the entrant''s postal address (5 to 500 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if the_postcode is null then
    raise exception 'The address must include a UK postcode' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_user_id is not null and not exists (select 1 from public.user_account_data a where a.id = p_user_id) then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;

  -- Lock order, as entering: the gate, the linked account, the competition row. The row is
  -- held for the rest (postal entries are few): it serialises the per-person cap of an
  -- unlinked entrant (name and postcode), and numbers the postal tickets.
  perform private.share_competition_gate(p_competition_id);
  if p_user_id is not null then
    perform 1 from public.user_account_data a where a.id = p_user_id for update;
  end if;
  select * into c from public.competitions where id = p_competition_id for update;
  if not found or c.status = 'draft' then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  elsif c.status = 'cancelled' then
    raise exception 'This competition has been cancelled' using errcode = 'P0001', hint = 'competition_cancelled';
  elsif c.status = 'drawn' or now() >= c.postal_deadline then
    raise exception 'Postal entries for this competition closed on %',
      to_char(c.postal_deadline at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI')
      using errcode = 'P0001', hint = 'postal_deadline_passed';
  elsif now() < c.opens_at then
    raise exception 'Entries open on %', to_char(c.opens_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI')
      using errcode = 'P0001', hint = 'competition_not_yet_open';
  end if;
  if not private.answer_is_correct(c, p_answer) then
    raise exception 'That answer is not correct' using errcode = 'P0001', hint = 'answer_incorrect';
  end if;

  -- The per-person cap: a linked account's tickets on both routes (its row is locked); otherwise the
  -- postal tickets already given to the same name at the same postcode.
  if p_user_id is not null then
    select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = p_user_id;
  else
    select coalesce(sum(e.quantity), 0) into held
      from public.postal_entries pe
      join public.entries e on e.id = pe.entry_id
     where pe.competition_id = c.id and pe.user_id is null and e.status = 'active'
       and pe.postcode = the_postcode and lower(pe.name) = lower(btrim(p_name));
  end if;
  if held >= c.max_tickets_per_user then
    raise exception 'This entrant already has the maximum of % tickets for this competition', c.max_tickets_per_user
      using errcode = 'P0001', hint = 'cap_reached';
  end if;
  tickets := least(private.stamp_parity(c.ticket_price, c.max_tickets_per_user), c.max_tickets_per_user - held);

  -- Numbered after the whole online pool, so postal entries never take an online ticket (nor, on a pick
  -- competition, a number a player could choose): a letter cannot choose, so the site chooses for it.
  numbers := array(select generate_series(c.total_tickets + c.postal_tickets + 1, c.total_tickets + c.postal_tickets + tickets));
  insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
  values (c.id, p_user_id, 'postal', tickets, 0, 0, numbers[1])
  returning id into new_entry;
  insert into public.tickets (competition_id, number, entry_id, user_id)
  select c.id, n, new_entry, p_user_id from unnest(numbers) n;
  insert into public.postal_entries (competition_id, entry_id, user_id, name, address, postcode, answer, recorded_by)
  values (c.id, new_entry, p_user_id, btrim(p_name), btrim(p_address), the_postcode, p_answer, admin_id);
  update public.competitions set postal_tickets = postal_tickets + tickets, updated_at = now() where id = c.id;
  if p_user_id is not null then
    update public.user_account_data set total_entries = total_entries + tickets, updated_at = now() where id = p_user_id;
    perform private.queue_mail(p_user_id, 'entry_receipt', 'Your postal entry: ' || c.title,
      format(E'We have received your free postal entry to %s.\n\nYour ticket numbers: %s (%s %s, the same chance per ticket as a paid one)\n\n'
             'The draw is on %s. It is verifiable: its seed commitment is %s.',
             c.title, private.ticket_numbers_text(numbers), tickets,
             case when tickets = 1 then 'ticket' else 'tickets' end,
             to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI'), c.seed_commitment));
  end if;
  perform private.log_activity('competition.postal_entry', c.id,
    jsonb_build_object('entry_id', new_entry, 'user_id', p_user_id, 'first_ticket', numbers[1], 'tickets', tickets));
  -- private.award_instant_wins answers jsonb because the purchase path reads it too; its fixed keys become the
  -- declared award here, in its order.
  return row(new_entry, numbers, tickets,
             array(select jsonb_populate_record(null::public.instant_win_award, won.award)
                     from jsonb_array_elements(private.award_instant_wins(new_entry)) with ordinality won(award, position)
                    order by won.position))::public.postal_entry_recorded;
end;
$$;
comment on function public.admin_record_postal_entry(uuid,uuid,text,text,text) is 'Admins: records a free postal entry (name, address with a UK postcode, answer; optionally linked to an account) until the postal deadline, even after a sell-out: stamp-parity tickets numbered after the online pool, within the per-person cap (the account, or the same name and postcode); a receipt mail when linked.';
revoke all on function public.admin_record_postal_entry(uuid,uuid,text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_record_postal_entry(uuid,uuid,text,text,text) to authenticated;
grant execute on function public.admin_record_postal_entry(uuid,uuid,text,text,text) to service_role;
