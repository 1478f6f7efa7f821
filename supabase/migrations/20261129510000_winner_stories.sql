-- ============================================================================
-- Winners with photos (issue 25, item 4): with the winner's consent, an admin
-- publishes a photo (Storage bucket winner-photos) and a short quote beside the
-- draw on /winners and the competition page.
--   * winner_stories: one row per draw once consent is first given; consent is
--     the winner's (their prize page) or recorded by an admin with a note (given
--     another way, e.g. by e-mail); who and when is kept, every change audited;
--   * the photo and quote are written by admins only, only while consent stands;
--     withdrawing hides them from every public answer at once (the row stays, so
--     the console shows what was withdrawn and an admin removes the photo);
--   * the bucket: public read, admin write, 5 MB, JPEG/PNG/WebP, as
--     competition-images; the site serves a photo only while it is published.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('winner-photos', 'winner-photos', true, 5242880, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- Reading the rows lets the console list the bucket; the bytes are public by URL anyway, and the site
-- asks winner_photo_published before serving one. Only an admin (aal2, proven factors) writes.
create policy "winner photos: anyone reads" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'winner-photos');
create policy "winner photos: admins add" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'winner-photos' and (select public.is_admin()));
create policy "winner photos: admins replace" on storage.objects
  for update to authenticated
  using (bucket_id = 'winner-photos' and (select public.is_admin()))
  with check (bucket_id = 'winner-photos' and (select public.is_admin()));
create policy "winner photos: admins remove" on storage.objects
  for delete to authenticated
  using (bucket_id = 'winner-photos' and (select public.is_admin()));

-- ----------------------------------------------------------------------------
-- Table
-- ----------------------------------------------------------------------------
create table public.winner_stories (
  draw_id uuid primary key references public.draws (id) on delete cascade,
  consent boolean not null,
  consent_source text not null check (consent_source in ('winner', 'admin')),
  consent_note text check (consent_note is null or char_length(consent_note) between 1 and 500),
  consent_changed_at timestamptz not null default now(),
  consent_changed_by uuid,
  photo_path text check (photo_path ~ '^/media/winner-photos/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp)$'),
  photo_alt text check (photo_alt is null or char_length(photo_alt) between 1 and 200),
  quote text check (quote is null or char_length(quote) between 1 and 280),
  story_updated_at timestamptz,
  story_updated_by uuid,
  -- Consent an admin records was given another way, so it says how.
  check (consent_source = 'winner' or consent_note is not null),
  check ((photo_path is null) = (photo_alt is null))
);
alter table public.winner_stories enable row level security;
comment on table public.winner_stories is 'A draw winner''s consent to publish their photo and quote (who changed it, when, how), and the photo (a winner-photos object''s site path, with its alt text) and quote an admin published. Public answers show them only while consent stands.';
-- Only the functions below read or write it.
revoke all on table public.winner_stories from anon, authenticated;
grant all on table public.winner_stories to service_role;

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------
create or replace function private.winner_story_json(p_draw_id uuid) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object('photo', s.photo_path, 'photo_alt', s.photo_alt, 'quote', s.quote)
    from public.winner_stories s
   where s.draw_id = p_draw_id and s.consent and (s.photo_path is not null or s.quote is not null)
$$;
comment on function private.winner_story_json(uuid) is 'A draw''s published photo (site path and alt text) and quote for the public pages, or null when the winner has not consented (or withdrew) or nothing is published.';
revoke all on function private.winner_story_json(uuid) from public, anon, authenticated, service_role;

create or replace function private.set_winner_story_consent(p_draw_id uuid, p_consent boolean, p_source text, p_note text)
returns void
language plpgsql set search_path = '' as $$
begin
  insert into public.winner_stories as s (draw_id, consent, consent_source, consent_note, consent_changed_at, consent_changed_by)
  values (p_draw_id, p_consent, p_source, p_note, now(), auth.uid())
  on conflict (draw_id) do update
    set consent = excluded.consent,
        consent_source = excluded.consent_source,
        consent_note = excluded.consent_note,
        consent_changed_at = excluded.consent_changed_at,
        consent_changed_by = excluded.consent_changed_by;
  perform private.log_activity(
    case when p_source = 'admin' then 'winner_story.consent_recorded'
         when p_consent then 'winner_story.consent_given'
         else 'winner_story.consent_withdrawn' end,
    p_draw_id,
    jsonb_strip_nulls(jsonb_build_object('consent', p_consent, 'note', p_note)));
end;
$$;
comment on function private.set_winner_story_consent(uuid,boolean,text,text) is 'Records a winner''s consent to publish their photo and quote (or its withdrawal): by whom (the caller), when, how (winner or admin, with a note), audited.';
revoke all on function private.set_winner_story_consent(uuid,boolean,text,text) from public, anon, authenticated, service_role;

create or replace function public.set_my_winner_story_consent(p_draw_id uuid, p_consent boolean) returns jsonb
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
  return jsonb_build_object('draw_id', p_draw_id, 'consent', p_consent);
end;
$$;
comment on function public.set_my_winner_story_consent(uuid,boolean) is 'The winner: gives or withdraws consent to publish their photo and quote; withdrawing hides them from the public pages at once.';
revoke all on function public.set_my_winner_story_consent(uuid,boolean) from public, anon, authenticated, service_role;
grant execute on function public.set_my_winner_story_consent(uuid,boolean) to authenticated;
grant execute on function public.set_my_winner_story_consent(uuid,boolean) to service_role;

create or replace function public.admin_record_winner_story_consent(p_draw_id uuid, p_consent boolean, p_note text)
returns jsonb
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
  return jsonb_build_object('draw_id', p_draw_id, 'consent', p_consent);
end;
$$;
comment on function public.admin_record_winner_story_consent(uuid,boolean,text) is 'Admins: record that a winner gave (or withdrew) consent to publish their photo and quote another way (e.g. by e-mail), with a note saying how; audited.';
revoke all on function public.admin_record_winner_story_consent(uuid,boolean,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_record_winner_story_consent(uuid,boolean,text) to authenticated;
grant execute on function public.admin_record_winner_story_consent(uuid,boolean,text) to service_role;

create or replace function public.admin_set_winner_story(p_draw_id uuid, p_photo_path text, p_photo_alt text, p_quote text)
returns jsonb
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
  return jsonb_build_object('draw_id', p_draw_id,
                            'previous_photo', case when s.photo_path is distinct from photo then s.photo_path end);
end;
$$;
comment on function public.admin_set_winner_story(uuid,text,text,text) is 'Admins: publish (or replace) a winner''s photo (a winner-photos site path, alt text required) and quote (up to 280 characters), only while the winner consents; answers the photo it replaced; audited.';
revoke all on function public.admin_set_winner_story(uuid,text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_set_winner_story(uuid,text,text,text) to authenticated;
grant execute on function public.admin_set_winner_story(uuid,text,text,text) to service_role;

create or replace function public.admin_remove_winner_story(p_draw_id uuid) returns jsonb
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
  return jsonb_build_object('draw_id', p_draw_id, 'previous_photo', previous);
end;
$$;
comment on function public.admin_remove_winner_story(uuid) is 'Admins: remove a winner''s published photo and quote (whatever the consent, so a withdrawn one can go); answers the photo to delete from the bucket; audited.';
revoke all on function public.admin_remove_winner_story(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_remove_winner_story(uuid) to authenticated;
grant execute on function public.admin_remove_winner_story(uuid) to service_role;

create or replace function public.winner_photo_published(p_photo_path text) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.winner_stories s where s.photo_path = p_photo_path and s.consent)
$$;
comment on function public.winner_photo_published(text) is 'Public: whether a winner-photos site path is a published photo (its winner consents), so the site stops serving one at once when consent is withdrawn or the photo removed.';
revoke all on function public.winner_photo_published(text) from public, anon, authenticated, service_role;
grant execute on function public.winner_photo_published(text) to anon;
grant execute on function public.winner_photo_published(text) to authenticated;
grant execute on function public.winner_photo_published(text) to service_role;

create or replace function private.competition_json(p_id uuid, p_admin boolean default false) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  return (
    select jsonb_build_object(
      'id', c.id,
      'slug', c.slug,
      'title', c.title,
      'summary', c.summary,
      'description', c.description,
      'prize_description', c.prize_description,
      'prize_value', c.prize_value,
      'cash_alternative', c.cash_alternative,
      'images', to_jsonb(c.images),
      'ticket_price', c.ticket_price,
      'total_tickets', c.total_tickets,
      'tickets_sold', c.tickets_sold,
      'tickets_left', c.total_tickets - c.tickets_sold,
      'max_tickets_per_user', c.max_tickets_per_user,
      'opens_at', c.opens_at,
      'closes_at', c.closes_at,
      'postal_deadline', coalesce(c.postal_deadline, private.default_postal_deadline(c.closes_at)),
      'draw_at', coalesce(c.draw_at, c.postal_deadline, private.default_postal_deadline(c.closes_at)),
      'postal_entries', (select count(*) from public.entries e
                          where e.competition_id = c.id and e.kind = 'postal' and e.status = 'active'),
      'postal_tickets', c.postal_tickets,
      'postal_tickets_per_entry', private.stamp_parity(c.ticket_price, c.max_tickets_per_user),
      'stamp_price', (private.setting('stamp_price') #>> '{}')::numeric,
      'entry_list_open', private.entry_list_open(c),
      'status', c.status,
      'is_open', c.status = 'live' and c.opens_at <= now() and c.closes_at > now() and c.tickets_sold < c.total_tickets,
      'skill_question', c.skill_question,
      'skill_options', to_jsonb(c.skill_options),
      'seed_commitment', c.seed_commitment,
      'external_randomness', c.external_randomness,
      'published_at', c.published_at,
      'closed_at', c.closed_at,
      'cancelled_at', c.cancelled_at,
      'cancel_reason', c.cancel_reason,
      'draw', (select jsonb_build_object(
                 'id', d.id, 'algorithm', d.algorithm, 'winning_number', d.winning_number,
                 'winner_display_name', d.winner_display_name, 'winner_town', d.winner_town,
                 'ticket_count', d.ticket_count, 'drawn_at', d.drawn_at,
                 'story', private.winner_story_json(d.id))
               from public.draws d where d.competition_id = c.id)
    ) || case when p_admin then jsonb_build_object(
      'skill_answer', c.skill_answer,
      'created_by', c.created_by,
      'created_at', c.created_at,
      'updated_at', c.updated_at,
      'entry_count', (select count(*) from public.entries e where e.competition_id = c.id and e.status = 'active'),
      'postal_entry_count', (select count(*) from public.postal_entries pe
                               join public.entries e on e.id = pe.entry_id
                              where pe.competition_id = c.id and e.status = 'active'),
      'revenue', (select coalesce(sum(e.amount), 0) from public.entries e where e.competition_id = c.id and e.status = 'active'),
      'prize_status', (select d.prize_status from public.draws d where d.competition_id = c.id),
      'prize_choice', (select d.prize_choice from public.draws d where d.competition_id = c.id))
    else '{}'::jsonb end
    from public.competitions c
    where c.id = p_id);
end;
$$;
comment on function private.competition_json(uuid,boolean) is 'A competition as JSON for the app; the skill answer and admin figures only when p_admin.';
revoke all on function private.competition_json(uuid,boolean) from public, anon, authenticated, service_role;

-- The winners page's rows (the declared type winner_summary, issue 24 item 3) gain the story: the photo and quote,
-- only while the winner consents.
alter type public.winner_summary add attribute story jsonb;
comment on type public.winner_summary is 'One draw as the public winners page lists it (list_winners), with the winner''s photo and quote only while they consent.';

create or replace function public.list_winners() returns setof public.winner_summary
language sql stable security definer set search_path = '' as $$
  select d.id, c.id, c.slug, c.title, c.prize_description, c.prize_value, c.images[1], d.winner_display_name,
         d.winner_town, d.winning_number, d.ticket_count, d.drawn_at, d.prize_status, d.delivered_at,
         private.winner_story_json(d.id)
    from public.draws d
    join public.competitions c on c.id = d.competition_id
   order by d.drawn_at desc
$$;
comment on function public.list_winners() is 'Public: every draw, newest first: prize, winner''s first name and initial and town (if given), winning ticket, draw time, id for the verification page, and the prize''s progress (status, delivery date; never the winner''s address or the proof); the winner''s photo and quote only while they consent.';
revoke all on function public.list_winners() from public, anon, authenticated, service_role;
grant execute on function public.list_winners() to anon;
grant execute on function public.list_winners() to authenticated;
grant execute on function public.list_winners() to service_role;

create or replace function public.get_my_prizes() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'draw_id', d.id,
             'competition', jsonb_build_object('id', c.id, 'slug', c.slug, 'title', c.title, 'image', c.images[1]),
             'prize_description', c.prize_description,
             'prize_value', c.prize_value,
             'cash_alternative', c.cash_alternative,
             'winning_number', d.winning_number,
             'drawn_at', d.drawn_at,
             'prize_status', d.prize_status,
             'prize_choice', d.prize_choice,
             'delivery_address', d.delivery_address,
             'claimed_at', d.claimed_at,
             'verified_at', d.verified_at,
             'delivered_at', d.delivered_at,
             'proof_of_delivery', case when d.prize_status = 'delivered' then d.proof_of_delivery end,
             'story', (select jsonb_build_object('consent', s.consent, 'consent_source', s.consent_source,
                                                 'consent_changed_at', s.consent_changed_at,
                                                 'published', s.photo_path is not null or s.quote is not null)
                         from public.winner_stories s where s.draw_id = d.id))
           order by d.drawn_at desc)
      from public.draws d
      join public.competitions c on c.id = d.competition_id
     where d.winner_user_id = uid), '[]'::jsonb);
end;
$$;
comment on function public.get_my_prizes() is 'The caller''s prizes, newest draw first: the prize and its cash alternative, the claim (choice, delivery address), each step''s date (claimed, verified, delivered) and, once delivered, the proof reference; whether they consent to their photo and quote being published.';
revoke all on function public.get_my_prizes() from public, anon, authenticated, service_role;
grant execute on function public.get_my_prizes() to authenticated;
grant execute on function public.get_my_prizes() to service_role;

create or replace function private.prize_fulfilment_json(p_draw_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'draw_id', d.id,
    'competition', jsonb_build_object('id', c.id, 'slug', c.slug, 'title', c.title),
    'prize_description', c.prize_description,
    'prize_value', c.prize_value,
    'cash_alternative', c.cash_alternative,
    'winning_number', d.winning_number,
    'drawn_at', d.drawn_at,
    'winner_display_name', d.winner_display_name,
    'winner_town', d.winner_town,
    'winner_user_id', d.winner_user_id,
    -- The person to contact: the account's name and e-mail, or the postal entrant's name and address.
    'winner_name', coalesce(p.name, pe.name),
    'winner_email', p.email,
    'winner_address', pe.address,
    'route', case when e.kind = 'postal' then 'postal' else 'online' end,
    'prize_choice', d.prize_choice,
    'delivery_address', d.delivery_address,
    'claimed_at', d.claimed_at,
    'prize_status', d.prize_status,
    'prize_status_updated_at', d.prize_status_updated_at,
    'verified_at', d.verified_at,
    'delivered_at', d.delivered_at,
    'fulfilment_note', d.fulfilment_note,
    'proof_of_delivery', d.proof_of_delivery,
    -- What the prize costs us: the cash when the winner chose it, else the prize's value.
    'prize_cost', case when d.prize_choice = 'cash' and c.cash_alternative is not null then c.cash_alternative
                       else c.prize_value end,
    'winner_initials_only', coalesce(p.show_initials_only, false),
    'story', (select jsonb_build_object('consent', s.consent, 'consent_source', s.consent_source,
                                        'consent_note', s.consent_note, 'consent_changed_at', s.consent_changed_at,
                                        'consent_changed_by', a.name, 'photo_path', s.photo_path,
                                        'photo_alt', s.photo_alt, 'quote', s.quote,
                                        'story_updated_at', s.story_updated_at)
                from public.winner_stories s
                left join public.profiles a on a.id = s.consent_changed_by
               where s.draw_id = d.id))
  from public.draws d
  join public.competitions c on c.id = d.competition_id
  join public.tickets t on t.id = d.winning_ticket_id
  join public.entries e on e.id = t.entry_id
  left join public.profiles p on p.id = d.winner_user_id
  left join public.postal_entries pe on pe.entry_id = e.id
  where d.id = p_draw_id
$$;
comment on function private.prize_fulfilment_json(uuid) is 'One draw''s prize fulfilment for admins: the prize, the winner (name, e-mail or postal address), the claim (prize or cash), status with its times, notes, proof of delivery, the prize cost, and the winner''s photo consent and story.';
revoke all on function private.prize_fulfilment_json(uuid) from public, anon, authenticated, service_role;
