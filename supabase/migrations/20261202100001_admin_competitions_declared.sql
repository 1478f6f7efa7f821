-- admin_competitions_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.competition_json(uuid,boolean);

drop function private.prize_fulfilment_json(uuid);

drop function public.admin_cancel_competition(uuid,text);

drop function public.admin_competition_detail(uuid);

drop function public.admin_create_competition(jsonb);

drop function public.admin_get_competition(uuid);

drop function public.admin_list_competitions();

drop function public.admin_list_prize_fulfilment(text);

drop function public.admin_publish_competition(uuid,jsonb);

drop function public.admin_update_competition(uuid,jsonb);

drop function public.admin_update_prize_fulfilment(uuid,text,text,text);

-- The admin calls answer the public fields and their own; the public row is built once (a lateral call).
create or replace function private.admin_competition_row(p_id uuid) returns public.admin_competition
language sql stable set search_path = '' as $$
  select row(r.*, c.skill_answer, c.created_by, c.created_at, c.updated_at,
             (select count(*) from public.entries e where e.competition_id = c.id and e.status = 'active'),
             (select count(*) from public.postal_entries pe
                join public.entries e on e.id = pe.entry_id
               where pe.competition_id = c.id and e.status = 'active'),
             (select coalesce(sum(e.amount), 0) from public.entries e where e.competition_id = c.id and e.status = 'active'),
             d.prize_status, d.prize_choice)::public.admin_competition
    from public.competitions c
    cross join lateral private.competition_row(c.id) r
    left join public.draws d on d.competition_id = c.id
   where c.id = p_id
$$;
comment on function private.admin_competition_row(uuid) is 'A competition as the admin calls answer it: public.competition''s fields, the skill answer and the admin figures; null when there is no such competition.';
revoke all on function private.admin_competition_row(uuid) from public, anon, authenticated, service_role;

create or replace function public.admin_list_competitions() returns setof public.admin_competition
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return query
    select a.* from public.competitions c
     cross join lateral private.admin_competition_row(c.id) a
     order by c.created_at desc;
end;
$$;
comment on function public.admin_list_competitions() is 'Admins: every competition, drafts included, newest first, with the skill answer and entry figures.';
revoke all on function public.admin_list_competitions() from public, anon, authenticated, service_role;
grant execute on function public.admin_list_competitions() to authenticated;
grant execute on function public.admin_list_competitions() to service_role;

create or replace function public.admin_get_competition(p_id uuid) returns public.admin_competition
language plpgsql stable security definer set search_path = '' as $$
declare
  result public.admin_competition;
begin
  perform private.require_admin();
  result := private.admin_competition_row(p_id);
  if result.id is null then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  return result;
end;
$$;
comment on function public.admin_get_competition(uuid) is 'Admins: one competition by id with the admin fields (for the edit page).';
revoke all on function public.admin_get_competition(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_get_competition(uuid) to authenticated;
grant execute on function public.admin_get_competition(uuid) to service_role;

create or replace function public.admin_create_competition(p jsonb) returns public.admin_competition
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  c public.competitions;
begin
  c.id := gen_random_uuid();
  c.summary := '';
  c.description := '';
  c.images := '{}';
  c.opens_at := now();
  c.ticket_numbering := 'in_order';
  c := private.competition_apply(c, p);
  c := private.competition_apply_fair_play(c, p);
  perform private.competition_check_dates(c);
  begin
    insert into public.competitions (id, slug, title, summary, description, prize_description, prize_value, images,
                                     ticket_price, total_tickets, max_tickets_per_user, opens_at, closes_at,
                                     postal_deadline, draw_at, cash_alternative,
                                     skill_question, skill_options, skill_answer, ticket_numbering, status, created_by)
    values (c.id, c.slug, c.title, c.summary, c.description, c.prize_description, c.prize_value, c.images,
            c.ticket_price, c.total_tickets, c.max_tickets_per_user, c.opens_at, c.closes_at,
            c.postal_deadline, c.draw_at, c.cash_alternative,
            c.skill_question, c.skill_options, c.skill_answer, c.ticket_numbering, 'draft', admin_id);
  exception when unique_violation then
    raise exception 'The address "%" is already used by another competition', c.slug using errcode = '22023', hint = 'slug_taken';
  end;
  perform private.log_activity('competition.created', c.id, jsonb_build_object('title', c.title));
  return private.admin_competition_row(c.id);
end;
$$;
comment on function public.admin_create_competition(jsonb) is 'Admins: creates a draft competition from {title, slug?, summary?, description?, prize_description, prize_value, cash_alternative?, images[], ticket_price, total_tickets, max_tickets_per_user, opens_at?, closes_at, postal_deadline? (default 2 working days after the close), draw_at? (default the postal deadline), skill_question?, skill_options[]?, skill_answer?, ticket_numbering? (in_order or pick; default in_order)}.';
revoke all on function public.admin_create_competition(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_create_competition(jsonb) to authenticated;
grant execute on function public.admin_create_competition(jsonb) to service_role;

create or replace function public.admin_update_competition(p_id uuid, p jsonb) returns public.admin_competition
language plpgsql security definer set search_path = '' as $$
declare
  prev public.competitions%rowtype;
  c public.competitions;
begin
  perform private.require_admin();
  -- The gate first: no entry is in flight while the price, cap or question change, so an
  -- entry's unlocked read of them holds until it commits.
  perform private.hold_competition_gate(p_id);
  select * into prev from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if prev.status not in ('draft', 'live') then
    raise exception 'This competition can no longer be edited' using errcode = 'P0001', hint = 'edit_not_allowed';
  end if;
  c := private.competition_apply(prev, p);
  c := private.competition_apply_fair_play(c, p);
  if prev.status = 'live' then
    if c.slug <> prev.slug then
      raise exception 'The address (slug) cannot change once the competition is live' using errcode = 'P0001', hint = 'edit_not_allowed';
    end if;
    -- Code of practice 1.9 and 2.4, CAP 8.17.4: dates are fixed at publish, never extended or brought forward.
    if (c.opens_at, c.closes_at, c.postal_deadline, c.draw_at)
       is distinct from (prev.opens_at, prev.closes_at, prev.postal_deadline, prev.draw_at) then
      raise exception 'The dates are fixed once a competition is published' using errcode = 'P0001', hint = 'edit_not_allowed';
    end if;
    -- Players may already hold or have bought chosen numbers: the numbering is a term of entry.
    if c.ticket_numbering <> prev.ticket_numbering then
      raise exception 'How tickets are numbered is fixed once a competition is published' using errcode = 'P0001', hint = 'edit_not_allowed';
    end if;
    -- The instant-win numbers were derived over 1..total_tickets at publish.
    if prev.instant_win_commitment is not null and c.total_tickets <> prev.total_tickets then
      raise exception 'Instant wins are fixed once a competition is published, and with them the number of tickets'
        using errcode = 'P0001', hint = 'instant_wins_locked';
    end if;
    if prev.tickets_sold > 0 or prev.postal_tickets > 0 then
      if (c.ticket_price, c.total_tickets, c.max_tickets_per_user, c.skill_question, c.skill_options, c.skill_answer, c.cash_alternative)
         is distinct from
         (prev.ticket_price, prev.total_tickets, prev.max_tickets_per_user, prev.skill_question, prev.skill_options, prev.skill_answer, prev.cash_alternative) then
        raise exception 'Tickets have been sold: only the wording, prize details and images can change' using errcode = 'P0001', hint = 'edit_not_allowed';
      end if;
    end if;
  end if;
  perform private.competition_check_dates(c);
  begin
    update public.competitions
       set slug = c.slug, title = c.title, summary = c.summary, description = c.description,
           prize_description = c.prize_description, prize_value = c.prize_value, images = c.images,
           cash_alternative = c.cash_alternative,
           ticket_price = c.ticket_price, total_tickets = c.total_tickets, max_tickets_per_user = c.max_tickets_per_user,
           opens_at = c.opens_at, closes_at = c.closes_at, postal_deadline = c.postal_deadline, draw_at = c.draw_at,
           skill_question = c.skill_question, skill_options = c.skill_options, skill_answer = c.skill_answer,
           ticket_numbering = c.ticket_numbering, updated_at = now()
     where id = p_id;
  exception when unique_violation then
    raise exception 'The address "%" is already used by another competition', c.slug using errcode = '22023', hint = 'slug_taken';
  end;
  perform private.log_activity('competition.updated', p_id, jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p) k)));
  return private.admin_competition_row(p_id);
end;
$$;
comment on function public.admin_update_competition(uuid,jsonb) is 'Admins: changes the fields present in p. Drafts: anything. Live: not the slug, the dates or the ticket numbering; once tickets are sold only wording, prize details and images.';
revoke all on function public.admin_update_competition(uuid,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_competition(uuid,jsonb) to authenticated;
grant execute on function public.admin_update_competition(uuid,jsonb) to service_role;

create or replace function public.admin_publish_competition(p_id uuid, p_external_randomness jsonb default null) returns public.admin_competition
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  the_seed bytea;
  deadline timestamptz;
begin
  perform private.require_admin();
  select * into c from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if c.status <> 'draft' then
    raise exception 'Only a draft can be published' using errcode = 'P0001', hint = 'not_a_draft';
  end if;
  if c.closes_at <= now() then
    raise exception 'The close time must be in the future' using errcode = '22023', hint = 'invalid_input';
  end if;
  deadline := coalesce(c.postal_deadline, private.default_postal_deadline(c.closes_at));
  if deadline < c.closes_at or coalesce(c.draw_at, deadline) < deadline then
    raise exception 'The dates must be in order: close, postal deadline, draw' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_external_randomness is not null and (
       jsonb_typeof(p_external_randomness) <> 'object'
       or coalesce(p_external_randomness ->> 'source', '') not in ('drand', 'random.org')
       or coalesce(p_external_randomness ->> 'value_hex', '') !~ '^([0-9a-f]{2}){16,64}$') then
    raise exception 'External randomness must be {source: drand | random.org, value_hex: 16 to 64 bytes in lower-case hex, ...}' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The seed is made here, by the database's CSPRNG, and never leaves the
  -- database until the draw: only its SHA-256 commitment is published now.
  the_seed := extensions.gen_random_bytes(32);
  insert into public.competition_seeds (competition_id, seed) values (p_id, the_seed);
  -- The instant-win numbers come from the same seed, committed with it, before any sale.
  c.instant_win_commitment := private.instant_win_publish(c, the_seed);
  -- The dates are fixed from here on (admin_update_competition refuses to change them).
  update public.competitions
     set status = 'live', seed_commitment = encode(extensions.digest(the_seed, 'sha256'), 'hex'),
         instant_win_commitment = c.instant_win_commitment,
         postal_deadline = deadline, draw_at = coalesce(c.draw_at, deadline),
         external_randomness = p_external_randomness, published_at = now(), updated_at = now()
   where id = p_id;
  perform private.log_activity('competition.published', p_id,
    jsonb_build_object('external_randomness', p_external_randomness ->> 'source', 'instant_wins', c.instant_win_commitment is not null,
                       'closes_at', c.closes_at, 'postal_deadline', deadline, 'draw_at', coalesce(c.draw_at, deadline)));
  return private.admin_competition_row(p_id);
end;
$$;
comment on function public.admin_publish_competition(uuid,jsonb) is 'Admins: makes a draft live, fixing its dates (postal deadline and draw time defaulted), creating its secret seed in the database and publishing the SHA-256 commitment; optional external randomness (drand round or RANDOM.ORG signed result) is fixed here, before any sale.';
revoke all on function public.admin_publish_competition(uuid,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_publish_competition(uuid,jsonb) to authenticated;
grant execute on function public.admin_publish_competition(uuid,jsonb) to service_role;

create or replace function public.admin_cancel_competition(p_id uuid, p_reason text)
 RETURNS public.competition_cancelled
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c public.competitions%rowtype;
  e record;
  u record;
  refunded_entries integer := 0;
  refunded_total numeric(12, 2) := 0;
begin
  perform private.require_admin();
  if p_reason is null or char_length(btrim(p_reason)) not between 3 and 500 then
    raise exception 'Give a reason between 3 and 500 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The gate first: entries in flight (each holding its player's account) finish, new ones
  -- wait, and the refunds below lock accounts no entry is holding.
  perform private.hold_competition_gate(p_id);
  select * into c from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if c.status = 'cancelled' then
    raise exception 'This competition is already cancelled' using errcode = 'P0001', hint = 'already_cancelled';
  end if;
  if c.status = 'drawn' then
    raise exception 'A drawn competition cannot be cancelled' using errcode = 'P0001', hint = 'competition_drawn';
  end if;

  for e in
    select * from public.entries
     where competition_id = p_id and status = 'active' and kind = 'paid' and user_id is not null
     order by created_at, id
  loop
    perform private.post_ledger(e.user_id, 'refund', e.amount, 'Refund: ' || c.title || ' was cancelled', 'entry:' || e.id);
    update public.user_account_data
       set total_spent = greatest(total_spent - e.amount, 0),
           total_entries = greatest(total_entries - e.quantity, 0), updated_at = now()
     where id = e.user_id;
    refunded_entries := refunded_entries + 1;
    refunded_total := refunded_total + e.amount;
  end loop;
  update public.user_account_data a
     set total_entries = greatest(a.total_entries - x.n, 0), updated_at = now()
    from (select user_id, sum(quantity)::integer n from public.entries
           where competition_id = p_id and status = 'active' and kind = 'postal' and user_id is not null
           group by user_id) x
   where a.id = x.user_id;

  for u in
    select user_id, sum(amount) total, sum(quantity) tickets from public.entries
     where competition_id = p_id and status = 'active' and user_id is not null
     group by user_id
  loop
    perform private.queue_mail(u.user_id, 'competition_cancelled', 'Cancelled: ' || c.title,
      format(E'We are sorry: %s has been cancelled.\n\nReason: %s\n\n%s',
             c.title, btrim(p_reason),
             case when u.total > 0 then 'Your ' || u.tickets || ' ticket(s) cost ' || private.format_gbp(u.total)
                                        || ', which has been refunded to your LabCash credit.'
                  else 'Your free postal entry has been withdrawn.' end));
  end loop;

  update public.entries
     set status = (case when kind = 'paid' then 'refunded' else 'void' end)::public.entry_status, refunded_at = now()
   where competition_id = p_id and status = 'active';
  update public.competitions
     set status = 'cancelled', cancelled_at = now(), cancel_reason = btrim(p_reason), updated_at = now()
   where id = p_id;
  perform private.log_activity('competition.cancelled', p_id,
    jsonb_build_object('reason', btrim(p_reason), 'refunded_entries', refunded_entries, 'refunded_total', refunded_total));
  return row(private.admin_competition_row(p_id), refunded_entries, refunded_total)::public.competition_cancelled;
end;
$function$;
comment on function public.admin_cancel_competition(uuid,text) is 'Admins: cancels a competition that is not drawn, refunding every paid entry to credit with its own ledger row, voiding postal entries and e-mailing entrants.';
revoke all on function public.admin_cancel_competition(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_cancel_competition(uuid,text) to authenticated;
grant execute on function public.admin_cancel_competition(uuid,text) to service_role;

create or replace function private.prize_fulfilment_row(p_draw_id uuid) returns public.prize_fulfilment
language sql stable set search_path = '' as $$
  select d.id,
         row(c.id, c.slug, c.title)::public.fulfilment_competition,
         c.prize_description, c.prize_value, c.cash_alternative, d.winning_number, d.drawn_at,
         d.winner_display_name, d.winner_town, d.winner_user_id,
         -- The person to contact: the account's name and e-mail, or the postal entrant's name and address.
         coalesce(p.name, pe.name), p.email, pe.address,
         case when e.kind = 'postal' then 'postal' else 'online' end,
         d.prize_choice, d.delivery_address, d.claimed_at, d.prize_status, d.prize_status_updated_at, d.verified_at,
         d.delivered_at, d.fulfilment_note, d.proof_of_delivery,
         -- What the prize costs us: the cash when the winner chose it, else the prize's value.
         case when d.prize_choice = 'cash' and c.cash_alternative is not null then c.cash_alternative
              else c.prize_value end,
         coalesce(p.show_initials_only, false),
         (select row(s.consent, s.consent_source, s.consent_note, s.consent_changed_at, a.name, s.photo_path,
                     s.photo_alt, s.quote, s.story_updated_at)::public.fulfilment_story
            from public.winner_stories s
            left join public.profiles a on a.id = s.consent_changed_by
           where s.draw_id = d.id)
  from public.draws d
  join public.competitions c on c.id = d.competition_id
  join public.tickets t on t.id = d.winning_ticket_id
  join public.entries e on e.id = t.entry_id
  left join public.profiles p on p.id = d.winner_user_id
  left join public.postal_entries pe on pe.entry_id = e.id
  where d.id = p_draw_id
$$;
comment on function private.prize_fulfilment_row(uuid) is 'One draw''s prize fulfilment for admins: the prize, the winner (name, e-mail or postal address), the claim (prize or cash), status with its times, notes, proof of delivery, the prize cost, and the winner''s photo consent and story.';
revoke all on function private.prize_fulfilment_row(uuid) from public, anon, authenticated, service_role;

create or replace function public.admin_competition_detail(p_id uuid) returns public.admin_competition_detail
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  perform private.require_admin();
  select * into c from public.competitions where id = p_id;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  return row(
    private.admin_competition_row(p_id),
    -- admin_competition_row gives the effective dates; a draft's null ones mean "the default at publish".
    row(c.postal_deadline, c.draw_at)::public.competition_stored_dates,
    (select row(
        c.tickets_sold,
        c.postal_tickets,
        count(*) filter (where e.kind = 'paid' and e.status = 'active'),
        count(*) filter (where e.kind = 'postal' and e.status = 'active'),
        count(distinct e.user_id) filter (where e.status = 'active'),
        coalesce(sum(e.amount) filter (where e.kind = 'paid' and e.status = 'active'), 0),
        count(*) filter (where e.status = 'refunded'),
        coalesce(sum(e.amount) filter (where e.status = 'refunded'), 0),
        count(*) filter (where e.status = 'void'))::public.competition_figures
      from public.entries e where e.competition_id = p_id),
    (select coalesce(array_agg(row(e.id, pe.name, pe.address, pe.postcode, pe.user_id, p.email, pe.answer, e.quantity,
                                   private.entry_ticket_numbers(e.id), e.status, r.name,
                                   pe.created_at)::public.postal_entry_record order by e.first_ticket), '{}')
      from public.postal_entries pe
      join public.entries e on e.id = pe.entry_id
      left join public.profiles p on p.id = pe.user_id
      left join public.profiles r on r.id = pe.recorded_by
      where pe.competition_id = p_id),
    (select private.prize_fulfilment_row(d.id) from public.draws d where d.competition_id = p_id)
  )::public.admin_competition_detail;
end;
$$;
comment on function public.admin_competition_detail(uuid) is 'Admins: one competition for its admin page: the competition with the admin fields, the stored postal deadline and draw time (null in a draft: the default), the figures (online and postal tickets, entries, players, revenue, refunds), every postal entry with its ticket numbers, and the prize fulfilment once drawn.';
revoke all on function public.admin_competition_detail(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_detail(uuid) to authenticated;
grant execute on function public.admin_competition_detail(uuid) to service_role;

create or replace function public.admin_list_prize_fulfilment(p_status text DEFAULT NULL::text)
 RETURNS SETOF public.prize_fulfilment
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform private.require_admin();
  if p_status is not null and private.prize_step_index(p_status) is null then
    raise exception 'Prize status must be awaiting claim, claimed, verified or delivered' using errcode = '22023', hint = 'invalid_input';
  end if;
  return query
    select f.* from public.draws d
     cross join lateral private.prize_fulfilment_row(d.id) f
     where p_status is null or d.prize_status = p_status::public.prize_status
     order by private.prize_step_index(d.prize_status::text), d.drawn_at desc;
end;
$function$;
comment on function public.admin_list_prize_fulfilment(text) is 'Admins: every draw''s prize fulfilment (optionally one status), in the order of the steps (awaiting claim, claimed, verified, delivered), newest draw first within each.';
revoke all on function public.admin_list_prize_fulfilment(text) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_prize_fulfilment(text) to authenticated;
grant execute on function public.admin_list_prize_fulfilment(text) to service_role;

create or replace function public.admin_update_prize_fulfilment(p_draw_id uuid, p_status text, p_note text default null,
                                                     p_proof_of_delivery text default null)
returns public.prize_fulfilment
language plpgsql security definer set search_path = '' as $$
declare
  prev public.draws%rowtype;
  note text := nullif(btrim(coalesce(p_note, '')), '');
  proof text := nullif(btrim(coalesce(p_proof_of_delivery, '')), '');
begin
  perform private.require_admin();
  if char_length(note) > 2000 then
    raise exception 'Keep the note to 2000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(proof) > 200 then
    raise exception 'Keep the proof-of-delivery reference to 200 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into prev from public.draws where id = p_draw_id;
  perform private.prize_move(p_draw_id, p_status, proof);
  update public.draws set fulfilment_note = note where id = p_draw_id;
  perform private.log_activity('prize.fulfilment', p_draw_id, jsonb_build_object(
    'competition_id', prev.competition_id,
    'from', prev.prize_status, 'to', p_status,
    'note_changed', note is distinct from prev.fulfilment_note,
    'proof_of_delivery', proof));
  return private.prize_fulfilment_row(p_draw_id);
end;
$$;
comment on function public.admin_update_prize_fulfilment(uuid,text,text,text) is 'Admins: moves a prize along awaiting_claim -> claimed (a claim by letter or phone) -> verified (identity checked) -> delivered (needs the proof-of-delivery reference), one step forward at a time or back to correct a mistake (private.prize_move), with its note; audited. Once verified, the winner can no longer change their claim (claim_prize).';
revoke all on function public.admin_update_prize_fulfilment(uuid,text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_prize_fulfilment(uuid,text,text,text) to authenticated;
grant execute on function public.admin_update_prize_fulfilment(uuid,text,text,text) to service_role;
