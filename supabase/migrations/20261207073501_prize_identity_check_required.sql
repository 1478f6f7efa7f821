-- prize_identity_check_required: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_update_prize_fulfilment(uuid,text,text,text);

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
           where s.draw_id = d.id),
         -- What was checked for the verification that stands (none once a step back undid it).
         (select row(v.document_type, v.document_last_four, v.note, a.name, v.checked_at)::public.prize_identity_check
            from public.prize_identity_checks v
            left join public.profiles a on a.id = v.checked_by
           where v.draw_id = d.id and d.verified_at is not null
           order by v.id desc
           limit 1)
  from public.draws d
  join public.competitions c on c.id = d.competition_id
  join public.tickets t on t.id = d.winning_ticket_id
  join public.entries e on e.id = t.entry_id
  left join public.profiles p on p.id = d.winner_user_id
  left join public.postal_entries pe on pe.entry_id = e.id
  where d.id = p_draw_id
$$;
comment on function private.prize_fulfilment_row(uuid) is 'One draw''s prize fulfilment for admins: the prize, the winner (name, e-mail or postal address), the claim (prize or cash), status with its times, notes, proof of delivery, the prize cost, the winner''s photo consent and story, and the identity check behind the verification while it stands.';
revoke all on function private.prize_fulfilment_row(uuid) from public, anon, authenticated, service_role;

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

comment on function public.admin_update_prize_status(uuid,text) is 'Admins: moves a prize to a status by the same rules as admin_update_prize_fulfilment (private.prize_move), keeping its proof reference; the step to verified needs an identity check, which only admin_update_prize_fulfilment records (identity_check_required).';
