-- csv_claim_story_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_competition_entries_csv(uuid,integer,integer);

drop function public.admin_record_winner_story_consent(uuid,boolean,text);

drop function public.admin_remove_winner_story(uuid);

drop function public.admin_set_winner_story(uuid,text,text,text);

drop function public.claim_prize(uuid,text,text);

drop function public.get_entrants_csv(text,integer,integer);

drop function public.get_ticket_list_csv(text,integer,integer);

drop function public.set_my_winner_story_consent(uuid,boolean);

create or replace function public.get_ticket_list_csv(p_slug text, p_after integer default 0, p_limit integer default 100000) returns public.csv_chunk
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions := private.entry_list_competition(p_slug);
  chunk integer := least(greatest(coalesce(p_limit, 100000), 1), 100000);
  after_no integer := greatest(coalesce(p_after, 0), 0);
  last_no integer;
begin
  select max(x.number) into last_no
    from (select t.number from public.tickets t where t.competition_id = c.id and t.number > after_no
           order by t.number limit chunk) x;
  return row(
    case when after_no = 0 then 'ticket_number,ticket_id' || E'\n' else '' end
      || private.ticket_list_lines(c.id, after_no, chunk),
    last_no,
    last_no is null or not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number > last_no)
  )::public.csv_chunk;
end;
$$;
comment on function public.get_ticket_list_csv(text,integer,integer) is 'Public, once online sales end: a chunk of the ticket-list CSV (the header only in the first chunk, p_after = 0). Concatenating the chunks until done gives the exact bytes whose SHA-256 is the v2 draw''s ticket_list_hash.';
revoke all on function public.get_ticket_list_csv(text,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.get_ticket_list_csv(text,integer,integer) to anon;
grant execute on function public.get_ticket_list_csv(text,integer,integer) to authenticated;
grant execute on function public.get_ticket_list_csv(text,integer,integer) to service_role;

create or replace function public.get_entrants_csv(p_slug text, p_after integer default 0, p_limit integer default 100000) returns public.csv_chunk
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions := private.entry_list_competition(p_slug);
  chunk_size integer := least(greatest(coalesce(p_limit, 100000), 1), 100000);
  after_no integer := greatest(coalesce(p_after, 0), 0);
  lines text;
  last_no integer;
begin
  -- Each entrant's public name and town are worked out (and CSV-quoted) once per person in
  -- the chunk, not once per ticket: a chunk is mostly a few people's runs of tickets.
  with chunk as (
    select t.number, t.id, t.user_id, e.kind
      from public.tickets t
      join public.entries e on e.id = t.entry_id
     where t.competition_id = c.id and t.number > after_no
     order by t.number
     limit chunk_size
  ), people as (
    select p.id,
           private.csv_field(private.public_name(p.name, p.show_initials_only)) as entrant,
           case when p.show_initials_only then '' else private.csv_field(p.town) end as town
      from public.profiles p
     where p.id in (select distinct k.user_id from chunk k where k.kind = 'paid')
  )
  select coalesce(string_agg(k.number::text || ',' || k.id::text || ',' ||
                             case when k.kind = 'postal' then 'Postal entry,,postal'
                                  else coalesce(pp.entrant, 'A LabCash player') || ',' || coalesce(pp.town, '') || ',online' end
                             || E'\n', '' order by k.number), ''),
         max(k.number)
    into lines, last_no
    from chunk k
    left join people pp on pp.id = k.user_id and k.kind = 'paid';
  return row(
    case when after_no = 0 then 'ticket_number,ticket_id,entrant,town,route' || E'\n' else '' end || lines,
    last_no,
    last_no is null or not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number > last_no)
  )::public.csv_chunk;
end;
$$;
comment on function public.get_entrants_csv(text,integer,integer) is 'Public, once online sales end: a chunk of the entrants CSV (ticket number, ticket id, public name, town, route), joined to the ticket list by ticket id. Names never enter the draw''s inputs.';
revoke all on function public.get_entrants_csv(text,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.get_entrants_csv(text,integer,integer) to anon;
grant execute on function public.get_entrants_csv(text,integer,integer) to authenticated;
grant execute on function public.get_entrants_csv(text,integer,integer) to service_role;

create or replace function public.claim_prize(p_draw_id uuid, p_choice text, p_delivery_address text DEFAULT NULL::text)
 RETURNS public.prize_claim
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  uid uuid := private.require_user();
  d public.draws%rowtype;
  cash numeric(12, 2);
  title text;
  address text := nullif(btrim(regexp_replace(coalesce(p_delivery_address, ''), E'\r\n?', E'\n', 'g')), '');
begin
  if p_choice is null or p_choice not in ('prize', 'cash') then
    raise exception 'Choose the prize or the cash alternative' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into d from public.draws where id = p_draw_id for update;
  if not found then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  if d.winner_user_id is distinct from uid then
    raise exception 'Only the winner can claim this prize' using errcode = '42501', hint = 'not_the_winner';
  end if;
  select c.cash_alternative, c.title into cash, title from public.competitions c where c.id = d.competition_id;
  if p_choice = 'cash' and cash is null then
    raise exception 'This prize has no cash alternative' using errcode = 'P0001', hint = 'cash_not_offered';
  end if;
  if d.prize_status not in ('awaiting_claim', 'claimed') then
    raise exception 'Your claim has been verified, so the choice can no longer change' using errcode = 'P0001', hint = 'claim_closed';
  end if;
  if p_choice = 'prize' and (address is null or char_length(address) > 500 or private.uk_postcode(address) is null) then
    raise exception 'Give the UK address to send the prize to, with its postcode' using errcode = '22023', hint = 'delivery_address_required';
  end if;
  perform private.prize_move(p_draw_id, 'claimed', d.proof_of_delivery);
  update public.draws
     set prize_choice = p_choice::public.prize_choice,
         delivery_address = case when p_choice = 'prize' then address end,
         claimed_at = now()
   where id = p_draw_id;
  perform private.log_activity('prize.claimed', p_draw_id, jsonb_build_object('choice', p_choice, 'user_id', uid));
  perform private.queue_mail(uid, 'prize_claimed', 'Your claim: ' || title,
    format(E'Thank you: we have your claim for %s.\n\nYou chose %s.\n\nWe will check your identity and arrange delivery; '
           'you can change your choice until then.',
           title, case when p_choice = 'cash' then private.format_gbp(cash) || ' cash'
                       else E'the prize, sent to:\n' || address end));
  return (select row(x.id, x.prize_choice, x.claimed_at, x.prize_status, x.delivery_address)::public.prize_claim
            from public.draws x where x.id = p_draw_id);
end;
$function$;
comment on function public.claim_prize(uuid,text,text) is 'The winner: claims the prize (with the UK address to send it to) or its cash alternative (when offered); the prize becomes claimed. The claim can change until an admin verifies it (claim_closed after).';
revoke all on function public.claim_prize(uuid,text,text) from public, anon, authenticated, service_role;
grant execute on function public.claim_prize(uuid,text,text) to authenticated;
grant execute on function public.claim_prize(uuid,text,text) to service_role;

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
  select coalesce(string_agg(concat_ws(',',
             x.id::text,
             to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
             case when x.kind = 'postal' then 'postal' else 'online' end,
             x.status,
             x.first_ticket::text,
             -- The highest number: chosen numbers are not contiguous.
             (select max(t.number) from public.tickets t where t.entry_id = x.id)::text,
             x.quantity::text,
             x.amount::text,
             coalesce(x.user_id::text, ''),
             private.csv_field(coalesce(x.person, '')),
             private.csv_field(coalesce(x.email, '')),
             private.csv_field(coalesce(x.address, '')),
             private.csv_field(coalesce(x.postcode, ''))) || E'\n', '' order by x.first_ticket), ''),
         max(x.first_ticket)
    into lines, last_no
    from (select e.id, e.created_at, e.kind, e.status, e.first_ticket, e.quantity, e.amount, e.user_id,
                 coalesce(pe.name, p.name) as person, p.email, pe.address, pe.postcode
            from public.entries e
            left join public.profiles p on p.id = e.user_id
            left join public.postal_entries pe on pe.entry_id = e.id
           where e.competition_id = p_id and e.first_ticket > after_no
           order by e.first_ticket
           limit chunk) x;
  return row(
    case when after_no = 0
         then 'entry_id,created_at,route,status,first_ticket,last_ticket,tickets,amount,user_id,name,email,postal_address,postcode' || E'\n'
         else '' end || lines,
    last_no,
    last_no is null
      or not exists (select 1 from public.entries e where e.competition_id = p_id and e.first_ticket > last_no)
  )::public.csv_chunk;
end;
$$;
comment on function public.admin_competition_entries_csv(uuid,integer,integer) is 'Admins: a chunk of a competition''s entries as CSV (one line per order or postal entry: id, time (UTC), route, status, ticket range, amount, the buyer''s id, name and e-mail, the postal address), in ticket order after first ticket p_after; the header in the first chunk only. Any state, drafts and cancelled ones included.';
revoke all on function public.admin_competition_entries_csv(uuid,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_entries_csv(uuid,integer,integer) to authenticated;
grant execute on function public.admin_competition_entries_csv(uuid,integer,integer) to service_role;

create or replace function public.set_my_winner_story_consent(p_draw_id uuid, p_consent boolean) returns public.story_consent
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  winner uuid;
begin
  if p_consent is null then
    raise exception 'Choose whether we may publish your photo and quote' using errcode = '22023', hint = 'invalid_input';
  end if;
  select d.winner_user_id into winner from public.draws d where d.id = p_draw_id;
  if not found then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  if winner is distinct from uid then
    raise exception 'Only the winner can give or withdraw this consent' using errcode = '42501', hint = 'not_the_winner';
  end if;
  perform private.set_winner_story_consent(p_draw_id, p_consent, 'winner', null);
  return row(p_draw_id, p_consent)::public.story_consent;
end;
$$;
comment on function public.set_my_winner_story_consent(uuid,boolean) is 'The winner: gives or withdraws consent to publish their photo and quote; withdrawing hides them from the public pages at once.';
revoke all on function public.set_my_winner_story_consent(uuid,boolean) from public, anon, authenticated, service_role;
grant execute on function public.set_my_winner_story_consent(uuid,boolean) to authenticated;
grant execute on function public.set_my_winner_story_consent(uuid,boolean) to service_role;

create or replace function public.admin_record_winner_story_consent(p_draw_id uuid, p_consent boolean, p_note text)
returns public.story_consent
language plpgsql security definer set search_path = '' as $$
declare
  note text := nullif(btrim(coalesce(p_note, '')), '');
begin
  perform private.require_admin();
  if p_consent is null then
    raise exception 'Choose whether the winner consents' using errcode = '22023', hint = 'invalid_input';
  end if;
  if note is null or char_length(note) > 500 then
    raise exception 'Say how the winner told us (up to 500 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if not exists (select 1 from public.draws d where d.id = p_draw_id) then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  perform private.set_winner_story_consent(p_draw_id, p_consent, 'admin', note);
  return row(p_draw_id, p_consent)::public.story_consent;
end;
$$;
comment on function public.admin_record_winner_story_consent(uuid,boolean,text) is 'Admins: record that a winner gave (or withdrew) consent to publish their photo and quote another way (e.g. by e-mail), with a note saying how; audited.';
revoke all on function public.admin_record_winner_story_consent(uuid,boolean,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_record_winner_story_consent(uuid,boolean,text) to authenticated;
grant execute on function public.admin_record_winner_story_consent(uuid,boolean,text) to service_role;

create or replace function public.admin_set_winner_story(p_draw_id uuid, p_photo_path text, p_photo_alt text, p_quote text)
returns public.story_change
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_admin();
  s public.winner_stories%rowtype;
  photo text := nullif(btrim(coalesce(p_photo_path, '')), '');
  alt text := nullif(btrim(coalesce(p_photo_alt, '')), '');
  said text := nullif(btrim(regexp_replace(coalesce(p_quote, ''), E'\\s+', ' ', 'g')), '');
begin
  if photo is not null and photo !~ '^/media/winner-photos/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp)$' then
    raise exception 'Upload the photo again' using errcode = '22023', hint = 'invalid_input';
  end if;
  if photo is not null and (alt is null or char_length(alt) > 200) then
    raise exception 'Describe the photo for people who cannot see it (up to 200 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if said is not null and char_length(said) > 280 then
    raise exception 'Keep the quote to 280 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if photo is null and said is null then
    raise exception 'Add a photo or a quote' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into s from public.winner_stories where draw_id = p_draw_id for update;
  if not found or not s.consent then
    if not exists (select 1 from public.draws d where d.id = p_draw_id) then
      raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
    end if;
    raise exception 'The winner has not consented to publishing their photo and quote' using errcode = 'P0001', hint = 'story_consent_required';
  end if;
  update public.winner_stories
     set photo_path = photo,
         photo_alt = case when photo is not null then alt end,
         quote = said,
         story_updated_at = now(),
         story_updated_by = uid
   where draw_id = p_draw_id;
  perform private.log_activity('winner_story.published', p_draw_id,
    jsonb_build_object('photo', photo is not null, 'photo_replaced', s.photo_path is distinct from photo and s.photo_path is not null,
                       'quote', said is not null));
  -- The photo this one replaced (or dropped), which the caller deletes from the bucket now nothing shows it.
  return row(p_draw_id, case when s.photo_path is distinct from photo then s.photo_path end)::public.story_change;
end;
$$;
comment on function public.admin_set_winner_story(uuid,text,text,text) is 'Admins: publish (or replace) a winner''s photo (a winner-photos site path, alt text required) and quote (up to 280 characters), only while the winner consents; answers the photo it replaced; audited.';
revoke all on function public.admin_set_winner_story(uuid,text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_set_winner_story(uuid,text,text,text) to authenticated;
grant execute on function public.admin_set_winner_story(uuid,text,text,text) to service_role;

create or replace function public.admin_remove_winner_story(p_draw_id uuid) returns public.story_change
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_admin();
  previous text;
begin
  select s.photo_path into previous from public.winner_stories s where s.draw_id = p_draw_id for update;
  if not found then
    raise exception 'Nothing is published for this winner' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  update public.winner_stories
     set photo_path = null, photo_alt = null, quote = null, story_updated_at = now(), story_updated_by = uid
   where draw_id = p_draw_id;
  perform private.log_activity('winner_story.removed', p_draw_id, jsonb_build_object('photo', previous is not null));
  return row(p_draw_id, previous)::public.story_change;
end;
$$;
comment on function public.admin_remove_winner_story(uuid) is 'Admins: remove a winner''s published photo and quote (whatever the consent, so a withdrawn one can go); answers the photo to delete from the bucket; audited.';
revoke all on function public.admin_remove_winner_story(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_remove_winner_story(uuid) to authenticated;
grant execute on function public.admin_remove_winner_story(uuid) to service_role;
