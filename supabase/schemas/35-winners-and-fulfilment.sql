-- ============================================================================
-- Winners and fulfilment: public winners and their stories, prize claims, the fulfilment steps, the player's
-- prizes.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
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
  constraint winner_stories_admin_consent_noted_check check (consent_source = 'winner' or consent_note is not null),
  constraint winner_stories_photo_with_alt_check check ((photo_path is null) = (photo_alt is null))
);
alter table public.winner_stories enable row level security;
comment on table public.winner_stories is 'A draw winner''s consent to publish their photo and quote (who changed it, when, how), and the photo (a winner-photos object''s site path, with its alt text) and quote an admin published. Public answers show them only while consent stands.';
revoke all on table public.winner_stories from public, anon, authenticated, service_role;
grant all on table public.winner_stories to service_role;

-- What an admin checked before verifying a winner's claim. Only the last four characters of the document's number
-- are kept (data minimisation: enough to tell two documents apart, never enough to use one); who and when come
-- from the caller and the clock, never from the form. One row per verification, so a claim verified again after a
-- step back keeps both checks.
create table public.prize_identity_checks (
  id bigint generated always as identity not null,
  draw_id uuid not null,
  document_type public.identity_document not null,
  document_last_four text not null,
  note text,
  checked_by uuid,
  checked_at timestamp with time zone default now() not null,
  constraint prize_identity_checks_pkey primary key (id),
  constraint prize_identity_checks_document_last_four_check check (document_last_four ~ '^[A-Z0-9]{4}$'),
  constraint prize_identity_checks_note_check check (note is null or char_length(note) between 1 and 500),
  -- "Other" says which document in the note.
  constraint prize_identity_checks_other_noted_check check (document_type <> 'other' or note is not null),
  constraint prize_identity_checks_draw_id_fkey foreign key (draw_id) references public.draws(id) on delete cascade,
  constraint prize_identity_checks_checked_by_fkey foreign key (checked_by) references auth.users(id) on delete set null
);
alter table public.prize_identity_checks enable row level security;
comment on table public.prize_identity_checks is 'Each identity check behind a verified prize claim: the document type, the last four characters of its number (never the whole number), a note, the admin who checked (auth.uid()) and when (now()). Written only by admin_update_prize_fulfilment; read by admins only.';
revoke all on table public.prize_identity_checks from public, anon, authenticated, service_role;
grant select on table public.prize_identity_checks to authenticated;
grant all on table public.prize_identity_checks to service_role;

create index prize_identity_checks_draw_id_idx on public.prize_identity_checks (draw_id);
create index prize_identity_checks_checked_by_idx on public.prize_identity_checks (checked_by);
create policy "prize identity checks: admins read" on public.prize_identity_checks
  as permissive for select to authenticated
  using (( SELECT public.is_admin() AS is_admin));

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.display_name(p_name text) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_name is null or btrim(p_name) = '' then 'A LabCash player'
    when array_length(regexp_split_to_array(btrim(p_name), '\s+'), 1) = 1 then btrim(p_name)
    else (regexp_split_to_array(btrim(p_name), '\s+'))[1] || ' '
      || upper(left((regexp_split_to_array(btrim(p_name), '\s+'))[array_length(regexp_split_to_array(btrim(p_name), '\s+'), 1)], 1)) || '.'
  end
$$;
comment on function private.display_name(text) is 'A winner''s public name, first name and last initial ("Priya P.").';
revoke all on function private.display_name(text) from public, anon, authenticated, service_role;

create type public.winner_summary as (draw_id uuid, competition_id uuid, slug text, title text, prize_description text, prize_value numeric(12,2), image text, winner_display_name text, winner_town text, winning_number integer, ticket_count integer, drawn_at timestamp with time zone, prize_status public.prize_status, delivered_at timestamp with time zone, story jsonb, prize_position smallint, prizes integer);
comment on type public.winner_summary is 'One prize''s draw as the public winners page lists it (list_winners): the prize as drawn, its position and how many prizes the competition had, with the winner''s photo and quote only while they consent.';

create or replace function public.list_winners() returns setof public.winner_summary
language sql stable security definer set search_path = '' as $$
  select d.id, c.id, c.slug, c.title, d.prize_description, d.prize_value, c.images[1], d.winner_display_name,
         d.winner_town, d.winning_number, d.ticket_count, d.drawn_at, d.prize_status, d.delivered_at,
         private.winner_story_json(d.id), d.prize_position,
         (select count(*)::integer from public.draws x where x.competition_id = d.competition_id)
    from public.draws d
    join public.competitions c on c.id = d.competition_id
   order by d.drawn_at desc, d.competition_id, d.prize_position
$$;
comment on function public.list_winners() is 'Public: every prize drawn, newest draw first and each draw''s prizes in order: prize (as drawn, with its position), winner''s first name and initial and town (if given), winning ticket, draw time, id for the verification page, and the prize''s progress (status, delivery date; never the winner''s address or the proof); the winner''s photo and quote only while they consent.';
revoke all on function public.list_winners() from public, anon, authenticated, service_role;
grant execute on function public.list_winners() to anon;
grant execute on function public.list_winners() to authenticated;
grant execute on function public.list_winners() to service_role;

create type public.prize_status_change as (draw_id uuid, prize_status public.prize_status, prize_status_updated_at timestamp with time zone);
comment on type public.prize_status_change is 'A prize moved to a status: the draw, its status and when it last changed.';

create or replace function public.admin_update_prize_status(p_draw_id uuid, p_status text) returns public.prize_status_change
language plpgsql security definer set search_path = '' as $$
declare
  moved public.draws%rowtype;
  prev_status text;
begin
  perform private.require_admin();
  select d.prize_status into prev_status from public.draws d where d.id = p_draw_id;
  select * into moved from private.prize_move(p_draw_id, p_status,
    (select d.proof_of_delivery from public.draws d where d.id = p_draw_id));
  perform private.log_activity('prize.status_changed', p_draw_id, jsonb_build_object('from', prev_status, 'status', p_status));
  return row(moved.id, moved.prize_status, moved.prize_status_updated_at)::public.prize_status_change;
end;
$$;
comment on function public.admin_update_prize_status(uuid,text) is 'Admins: moves a prize to a status by the same rules as admin_update_prize_fulfilment (private.prize_move), keeping its proof reference; the step to verified needs an identity check, which only admin_update_prize_fulfilment records (identity_check_required).';
revoke all on function public.admin_update_prize_status(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_prize_status(uuid,text) to authenticated;
grant execute on function public.admin_update_prize_status(uuid,text) to service_role;

create or replace function private.public_name(p_name text, p_initials_only boolean) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_name is null or btrim(p_name) = '' then 'A LabCash player'
    when p_initials_only then
      (select string_agg(upper(left(w, 1)) || '.', ' ' order by i)
         from unnest(regexp_split_to_array(btrim(p_name), '\s+')) with ordinality x (w, i))
    else private.display_name(p_name)
  end
$$;
comment on function private.public_name(text,boolean) is 'How a player appears in public (winners, entry lists): first name and surname initial ("Priya P."), or initials only ("P. P.") when they chose that.';
revoke all on function private.public_name(text,boolean) from public, anon, authenticated, service_role;

create or replace function public.set_initials_only(p_initials_only boolean) returns public.account
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_initials_only is null then
    raise exception 'Choose whether to appear by initials only' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  update public.profiles set show_initials_only = p_initials_only, updated_at = now() where id = uid;
  perform private.log_activity('profile.initials_only', uid, jsonb_build_object('initials_only', p_initials_only));
  return private.account_row(uid);
end;
$$;
comment on function public.set_initials_only(boolean) is 'Signed-in users: appear by initials only (no town) if they win and on entry lists, or by first name, surname initial and town (CAP 8.28.5). Applies to draws from now on.';
revoke all on function public.set_initials_only(boolean) from public, anon, authenticated, service_role;
grant execute on function public.set_initials_only(boolean) to authenticated;
grant execute on function public.set_initials_only(boolean) to service_role;

create or replace function private.won_prize_title(p_draw_id uuid) returns text
language sql stable set search_path = '' as $$
  select c.title || case when exists (select 1 from public.draws x where x.competition_id = d.competition_id
                                                             and x.prize_position <> d.prize_position)
                         then ', ' || private.ordinal(d.prize_position) || ' prize' else '' end
    from public.draws d
    join public.competitions c on c.id = d.competition_id
   where d.id = p_draw_id
$$;
comment on function private.won_prize_title(uuid) is 'A prize as its winner reads it in mail and notifications: the competition''s title, and which prize when it had several ("MacBook Pro, 2nd prize").';
revoke all on function private.won_prize_title(uuid) from public, anon, authenticated, service_role;

create type public.prize_claim as (draw_id uuid, prize_choice public.prize_choice, claimed_at timestamp with time zone, prize_status public.prize_status, delivery_address text);
comment on type public.prize_claim is 'A winner''s claim: prize or cash, when, the prize''s status and the address to send it to (null for cash).';

create or replace function public.claim_prize(p_draw_id uuid, p_choice text, p_delivery_address text default null) returns public.prize_claim
language plpgsql security definer set search_path = '' as $$
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
  cash := d.cash_alternative;
  title := private.won_prize_title(p_draw_id);
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
$$;
comment on function public.claim_prize(uuid,text,text) is 'The winner: claims the prize (with the UK address to send it to) or its cash alternative (when offered); the prize becomes claimed. The claim can change until an admin verifies it (claim_closed after).';
revoke all on function public.claim_prize(uuid,text,text) from public, anon, authenticated, service_role;
grant execute on function public.claim_prize(uuid,text,text) to authenticated;
grant execute on function public.claim_prize(uuid,text,text) to service_role;

create or replace function private.prize_fulfilment_row(p_draw_id uuid) returns public.prize_fulfilment
language sql stable set search_path = '' as $$
  select d.id,
         row(c.id, c.slug, c.title)::public.fulfilment_competition,
         d.prize_description, d.prize_value, d.cash_alternative, d.winning_number, d.drawn_at,
         d.winner_display_name, d.winner_town, d.winner_user_id,
         -- The person to contact: the account's name and e-mail, or the postal entrant's name and address.
         coalesce(p.name, pe.name), p.email, pe.address,
         case when e.kind = 'postal' then 'postal' else 'online' end,
         d.prize_choice, d.delivery_address, d.claimed_at, d.prize_status, d.prize_status_updated_at, d.verified_at,
         d.delivered_at, d.fulfilment_note, d.proof_of_delivery,
         -- What the prize costs us: the cash when the winner chose it, else the prize's value.
         case when d.prize_choice = 'cash' and d.cash_alternative is not null then d.cash_alternative
              else d.prize_value end,
         coalesce(p.show_initials_only, false),
         (select row(s.consent, s.consent_source, s.consent_note, s.consent_changed_at, a.name, s.photo_path,
                     s.photo_alt, s.quote, s.story_updated_at)::public.fulfilment_story
            from public.winner_stories s
            left join public.profiles a on a.id = s.consent_changed_by
           where s.draw_id = d.id),
         -- What was checked for the verification that stands (none once a step back undid it).
         (select row(v.document_type, v.document_last_four, v.note, a.name, v.checked_at)::public.prize_identity_check
            from public.prize_identity_checks v
            left join public.profiles a on a.id = v.checked_by
           where v.draw_id = d.id and d.verified_at is not null
           order by v.id desc
           limit 1),
         d.prize_position
  from public.draws d
  join public.competitions c on c.id = d.competition_id
  join public.tickets t on t.id = d.winning_ticket_id
  join public.entries e on e.id = t.entry_id
  left join public.profiles p on p.id = d.winner_user_id
  left join public.postal_entries pe on pe.entry_id = e.id
  where d.id = p_draw_id
$$;
comment on function private.prize_fulfilment_row(uuid) is 'One prize''s fulfilment for admins: the prize as drawn and its position, the winner (name, e-mail or postal address), the claim (prize or cash), status with its times, notes, proof of delivery, the prize cost, the winner''s photo consent and story, and the identity check behind the verification while it stands.';
revoke all on function private.prize_fulfilment_row(uuid) from public, anon, authenticated, service_role;

create or replace function public.admin_list_prize_fulfilment(p_status text default null) returns setof public.prize_fulfilment
language plpgsql stable security definer set search_path = '' as $$
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
$$;
comment on function public.admin_list_prize_fulfilment(text) is 'Admins: every draw''s prize fulfilment (optionally one status), in the order of the steps (awaiting claim, claimed, verified, delivered), newest draw first within each.';
revoke all on function public.admin_list_prize_fulfilment(text) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_prize_fulfilment(text) to authenticated;
grant execute on function public.admin_list_prize_fulfilment(text) to service_role;

create or replace function public.admin_update_prize_fulfilment(p_draw_id uuid, p_status text, p_note text default null,
                                                     p_proof_of_delivery text default null,
                                                     p_document_type text default null,
                                                     p_document_last_four text default null,
                                                     p_identity_note text default null)
returns public.prize_fulfilment
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_admin();
  prev public.draws%rowtype;
  note text := nullif(btrim(coalesce(p_note, '')), '');
  proof text := nullif(btrim(coalesce(p_proof_of_delivery, '')), '');
  document text := nullif(btrim(coalesce(p_document_type, '')), '');
  last_four text := nullif(upper(regexp_replace(coalesce(p_document_last_four, ''), '\s', '', 'g')), '');
  identity_note text := nullif(btrim(coalesce(p_identity_note, '')), '');
begin
  if char_length(note) > 2000 then
    raise exception 'Keep the note to 2000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(proof) > 200 then
    raise exception 'Keep the proof-of-delivery reference to 200 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into prev from public.draws where id = p_draw_id;
  if p_status = 'verified' and prev.prize_status = 'claimed' then
    -- The step to verified carries what was checked; without it private.prize_move refuses the step
    -- (identity_check_required).
    if document is not null or last_four is not null or identity_note is not null then
      if document is null or not (document = any (enum_range(null::public.identity_document)::text[])) then
        raise exception 'Choose the document you checked: passport, driving licence, national identity card or other'
          using errcode = '22023', hint = 'invalid_input';
      end if;
      if last_four is null or last_four !~ '^[A-Z0-9]{4}$' then
        raise exception 'Give the last four letters or digits of the document''s number, never the whole number'
          using errcode = '22023', hint = 'invalid_input';
      end if;
      if char_length(identity_note) > 500 then
        raise exception 'Keep the identity check''s note to 500 characters' using errcode = '22023', hint = 'invalid_input';
      end if;
      if document = 'other' and identity_note is null then
        raise exception 'Say in the note which document you checked' using errcode = '22023', hint = 'invalid_input';
      end if;
      insert into public.prize_identity_checks (draw_id, document_type, document_last_four, note, checked_by)
      values (p_draw_id, document::public.identity_document, last_four, identity_note, uid);
      perform private.log_activity('prize.identity_checked', p_draw_id, jsonb_strip_nulls(jsonb_build_object(
        'competition_id', prev.competition_id,
        'document_type', document,
        'document_last_four', last_four,
        'note', identity_note)));
    end if;
  elsif (document is not null or last_four is not null or identity_note is not null) and p_status <> 'verified' then
    raise exception 'An identity check is recorded only with the step to verified' using errcode = '22023', hint = 'invalid_input';
  end if;
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
comment on function public.admin_update_prize_fulfilment(uuid,text,text,text,text,text,text) is 'Admins: moves a prize along awaiting_claim -> claimed (a claim by letter or phone) -> verified (identity checked) -> delivered (needs the proof-of-delivery reference), one step forward at a time or back to correct a mistake (private.prize_move), with its note; audited. The step to verified records the identity check (document type, the last four letters or digits of its number, a note; the caller and now() as who and when; audited as prize.identity_checked) and is refused without one (identity_check_required). Once verified, the winner can no longer change their claim (claim_prize).';
revoke all on function public.admin_update_prize_fulfilment(uuid,text,text,text,text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_update_prize_fulfilment(uuid,text,text,text,text,text,text) to authenticated;
grant execute on function public.admin_update_prize_fulfilment(uuid,text,text,text,text,text,text) to service_role;

create or replace function private.prize_step_index(p_status text) returns integer
language sql immutable set search_path = '' as $$
  select array_position(array['awaiting_claim', 'claimed', 'verified', 'delivered'], p_status)
$$;
comment on function private.prize_step_index(text) is 'The position of a prize status in awaiting_claim -> claimed -> verified -> delivered (1 to 4), null for anything else.';
revoke all on function private.prize_step_index(text) from public, anon, authenticated, service_role;

create or replace function private.prize_move(p_draw_id uuid, p_status text, p_proof text) returns public.draws
language plpgsql security definer set search_path = '' as $$
declare
  prev public.draws%rowtype;
  next_row public.draws%rowtype;
  from_i integer;
  to_i integer := private.prize_step_index(p_status);
begin
  if to_i is null then
    raise exception 'Prize status must be awaiting claim, claimed, verified or delivered' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into prev from public.draws where id = p_draw_id for update;
  if not found then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  from_i := private.prize_step_index(prev.prize_status::text);
  if to_i > from_i + 1 then
    if p_status = 'delivered' then
      raise exception 'Verify the winner''s claim (their identity) before marking the prize delivered'
        using errcode = 'P0001', hint = 'prize_not_verified';
    end if;
    raise exception 'Record the winner''s claim before verifying it' using errcode = 'P0001', hint = 'prize_not_claimed';
  end if;
  -- A claim is verified only against an identity check recorded since the prize last changed step or the winner
  -- last changed their claim, so a step back (or a changed claim) needs a fresh check.
  if to_i = 3 and from_i = 2 and not exists (
      select 1 from public.prize_identity_checks v
       where v.draw_id = p_draw_id and v.checked_at >= greatest(prev.prize_status_updated_at, prev.claimed_at)) then
    raise exception 'Record the identity check (the document and the last four characters of its number) before marking the prize verified'
      using errcode = 'P0001', hint = 'identity_check_required';
  end if;
  if p_status = 'delivered' and p_proof is null then
    raise exception 'Give the proof-of-delivery reference (a tracking number, signed receipt or bank transfer reference)'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.draws
     set prize_status = p_status::public.prize_status,
         prize_status_updated_at = case when to_i <> from_i then now() else prize_status_updated_at end,
         claimed_at = case when to_i = 1 then null else coalesce(claimed_at, now()) end,
         verified_at = case when to_i < 3 then null else coalesce(verified_at, now()) end,
         delivered_at = case when to_i < 4 then null else coalesce(delivered_at, now()) end,
         proof_of_delivery = p_proof
   where id = p_draw_id
  returning * into next_row;
  return next_row;
end;
$$;
comment on function private.prize_move(uuid,text,text) is 'Moves a prize to a status: forward one step at a time (claimed needs nothing more, verified needs a claim and an identity check recorded since the claim last changed, delivered needs verification and the proof reference), back any number of steps (clearing the later dates); sets each step''s date once. The only writer of prize_status.';
revoke all on function private.prize_move(uuid,text,text) from public, anon, authenticated, service_role;

create type public.my_prize_story as (consent boolean, consent_source text, consent_changed_at timestamp with time zone, published boolean);
comment on type public.my_prize_story is 'A winner''s own view of their photo and quote: whether they consent, who recorded it and when, and whether anything is published.';

create type public.prize_competition as (id uuid, slug text, title text, image text);
comment on type public.prize_competition is 'The competition a prize was won in, as the prizes page shows it (its first image).';

create type public.my_prize as (draw_id uuid, competition public.prize_competition, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), winning_number integer, drawn_at timestamp with time zone, prize_status public.prize_status, prize_choice public.prize_choice, delivery_address text, claimed_at timestamp with time zone, verified_at timestamp with time zone, delivered_at timestamp with time zone, proof_of_delivery text, story public.my_prize_story, prize_position smallint, prizes integer);
comment on type public.my_prize is 'One of the caller''s prizes: the prize and its cash alternative (as drawn), its position among the competition''s prizes, the claim, each step''s date, the proof reference once delivered, and their consent to a published photo and quote (null until first given).';

create or replace function public.get_my_prizes() returns setof public.my_prize
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  return query
    select d.id,
           row(c.id, c.slug, c.title, c.images[1])::public.prize_competition,
           d.prize_description,
           d.prize_value,
           d.cash_alternative,
           d.winning_number,
           d.drawn_at,
           d.prize_status,
           d.prize_choice,
           d.delivery_address,
           d.claimed_at,
           d.verified_at,
           d.delivered_at,
           case when d.prize_status = 'delivered' then d.proof_of_delivery end,
           (select row(s.consent, s.consent_source, s.consent_changed_at,
                       s.photo_path is not null or s.quote is not null)::public.my_prize_story
              from public.winner_stories s where s.draw_id = d.id),
           d.prize_position,
           (select count(*)::integer from public.draws x where x.competition_id = d.competition_id)
      from public.draws d
      join public.competitions c on c.id = d.competition_id
     where d.winner_user_id = uid
     order by d.drawn_at desc, d.prize_position;
end;
$$;
comment on function public.get_my_prizes() is 'The caller''s prizes, newest draw first: the prize and its cash alternative, the claim (choice, delivery address), each step''s date (claimed, verified, delivered) and, once delivered, the proof reference; whether they consent to their photo and quote being published.';
revoke all on function public.get_my_prizes() from public, anon, authenticated, service_role;
grant execute on function public.get_my_prizes() to authenticated;
grant execute on function public.get_my_prizes() to service_role;

create type public.my_dashboard as (needs_limit_prompt boolean, unclaimed_prizes text[]);
comment on type public.my_dashboard is 'get_my_dashboard(): the account dashboard''s own facts beside the account row the proxy already read.';

create or replace function public.get_my_dashboard() returns public.my_dashboard
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  -- The account dashboard's one read beside the account row the proxy hands on (DECISIONS "Page speed").
  return row(
    private.needs_limit_prompt(private.protections_of(uid), uid),
    coalesce((select array_agg(private.won_prize_title(d.id) order by d.drawn_at desc, d.prize_position)
                from public.draws d
               where d.winner_user_id = uid and d.prize_status = 'awaiting_claim'), '{}'))::public.my_dashboard;
end;
$$;
comment on function public.get_my_dashboard() is 'The caller''s account dashboard: whether to invite a monthly limit (as get_top_up_options'' needs_limit_prompt) and the titles of their prizes awaiting a claim, newest draw first (as get_my_prizes).';
revoke all on function public.get_my_dashboard() from public, anon, authenticated, service_role;
grant execute on function public.get_my_dashboard() to authenticated;
grant execute on function public.get_my_dashboard() to service_role;

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

create type public.story_consent as (draw_id uuid, consent boolean);
comment on type public.story_consent is 'A winner''s consent to publishing their photo and quote, as it now stands.';

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

create type public.story_change as (draw_id uuid, previous_photo text);
comment on type public.story_change is 'A winner''s story published, replaced or removed: the photo it replaced or removed (null if none), which the caller deletes from the bucket.';

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

create or replace function public.winner_photo_published(p_photo_path text) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.winner_stories s where s.photo_path = p_photo_path and s.consent)
$$;
comment on function public.winner_photo_published(text) is 'Public: whether a winner-photos site path is a published photo (its winner consents), so the site stops serving one at once when consent is withdrawn or the photo removed.';
revoke all on function public.winner_photo_published(text) from public, anon, authenticated, service_role;
grant execute on function public.winner_photo_published(text) to anon;
grant execute on function public.winner_photo_published(text) to authenticated;
grant execute on function public.winner_photo_published(text) to service_role;

-- ----------------------------------------------------------------------------
-- Triggers and policies on tables made elsewhere
-- ----------------------------------------------------------------------------

create policy "winner photos: admins read" on storage.objects
  as permissive for select to authenticated
  using (((bucket_id = 'winner-photos'::text) AND ( SELECT public.is_admin() AS is_admin)));
create policy "winner photos: admins add" on storage.objects
  as permissive for insert to authenticated
  with check (((bucket_id = 'winner-photos'::text) AND ( SELECT public.is_admin() AS is_admin)));
create policy "winner photos: admins replace" on storage.objects
  as permissive for update to authenticated
  using (((bucket_id = 'winner-photos'::text) AND ( SELECT public.is_admin() AS is_admin)))
  with check (((bucket_id = 'winner-photos'::text) AND ( SELECT public.is_admin() AS is_admin)));
create policy "winner photos: admins remove" on storage.objects
  as permissive for delete to authenticated
  using (((bucket_id = 'winner-photos'::text) AND ( SELECT public.is_admin() AS is_admin)));
