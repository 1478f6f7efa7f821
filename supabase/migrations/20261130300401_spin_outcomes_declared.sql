-- spin_outcomes_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.spin_credits(uuid);

drop function public.admin_record_spin_request(uuid,text);

drop function public.reveal_spinner_spin(bigint);

drop function public.rotate_spinner_seed(text);

drop function public.spin_wheel();

create or replace function public.spin_wheel() returns public.spin_result
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  block jsonb;
  seed public.spinner_seeds%rowtype;
  wheel bigint;
  weights integer[];
  derived record;
  credits public.spin_credits;
  seg public.spinner_segments%rowtype;
  spin public.spinner_spins%rowtype;
  new_balance numeric(12, 2);
begin
  -- One spin at a time per player: the credit count below and the nonce are decided under this lock.
  perform 1 from public.user_account_data a where a.id = uid for update;
  if not private.spinner_enabled() then
    raise exception 'LabSpinner is switched off for now' using errcode = 'P0001', hint = 'spinner_off';
  end if;
  block := private.play_block(uid);
  if block is not null then
    perform private.raise_refusal(block ->> 'code', block ->> 'message');
  end if;
  credits := private.spin_credits_row(uid);
  if credits.available < 1 then
    raise exception 'You have no spin credits: you earn one for every £10 you spend on tickets, or by post'
      using errcode = 'P0001', hint = 'no_spin_credits';
  end if;

  seed := private.active_spinner_seed(uid);
  wheel := private.current_wheel_id();
  select array_agg(s.weight order by s.position) into weights from public.spinner_segments s where s.wheel_id = wheel;
  derived := private.spin_derive(seed.server_seed, seed.client_seed, seed.next_nonce, weights);
  select * into seg from public.spinner_segments s where s.wheel_id = wheel and s.position = derived.segment_position;

  insert into public.spinner_spins (user_id, seed_id, client_seed, nonce, wheel_id, attempt, value, segment_position,
                                    label, prize_credits, source)
  values (uid, seed.id, seed.client_seed, seed.next_nonce, wheel, derived.attempt, derived.value, seg.position,
          seg.label, seg.prize_credits,
          -- Earned credits first: a later refund can only take back earned credits.
          case when credits.earned_available > 0 then 'earned' else 'postal' end)
  returning * into spin;
  update public.spinner_seeds set next_nonce = next_nonce + 1 where id = seed.id;

  if seg.prize_credits > 0 then
    new_balance := private.post_ledger(uid, 'spinner_prize', seg.prize_credits, 'LabSpinner prize: ' || seg.label,
                                       'spin:' || spin.id);
    perform private.log_activity('spinner.prize', uid, jsonb_build_object('spin_id', spin.id,
      'segment', seg.position, 'label', seg.label, 'prize_credits', seg.prize_credits));
  else
    select a.credits into new_balance from public.user_account_data a where a.id = uid;
  end if;

  return row(spin.id, spin.seed_id, spin.client_seed, spin.nonce, spin.wheel_id, spin.attempt, spin.value,
             spin.segment_position, spin.label, spin.prize_credits, spin.created_at,
             seed.server_seed_hash, new_balance, private.spin_credits_row(uid))::public.spin_result;
end;
$$;
comment on function public.spin_wheel() is 'Spends one spin credit: derives the segment from the caller''s active seed pair and next nonce over the live wheel, records the spin and pays a credit prize into the ledger (reference spin:<id>), all in one transaction. Codes: spinner_off, no_spin_credits and the play blocks (approval_pending, on_break, self_excluded, restricted, account_closed, approval_rejected).';
revoke all on function public.spin_wheel() from public, anon, authenticated, service_role;
grant execute on function public.spin_wheel() to authenticated;
grant execute on function public.spin_wheel() to service_role;

create or replace function public.rotate_spinner_seed(p_client_seed text default null) returns public.seed_rotation
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  old_seed public.spinner_seeds%rowtype;
  new_seed public.spinner_seeds%rowtype;
begin
  if p_client_seed is not null then
    perform private.check_client_seed(p_client_seed);
  end if;
  perform 1 from public.user_account_data a where a.id = uid for update;
  old_seed := private.active_spinner_seed(uid);
  update public.spinner_seeds set revealed_at = now() where id = old_seed.id returning * into old_seed;
  new_seed := private.active_spinner_seed(uid);
  if p_client_seed is not null then
    update public.spinner_seeds set client_seed = p_client_seed where id = new_seed.id returning * into new_seed;
  end if;
  return row(private.seed_row(old_seed), private.seed_row(new_seed))::public.seed_rotation;
end;
$$;
comment on function public.rotate_spinner_seed(text) is 'Reveals the caller''s active server seed (so its spins can be verified) and starts a new pair (a fresh server seed, the given or a random client seed, nonce 0).';
revoke all on function public.rotate_spinner_seed(text) from public, anon, authenticated, service_role;
grant execute on function public.rotate_spinner_seed(text) to authenticated;
grant execute on function public.rotate_spinner_seed(text) to service_role;

create or replace function public.admin_record_spin_request(p_user_id uuid, p_reference text) returns public.spin_request
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  acct public.user_account_data%rowtype;
  ref text := btrim(coalesce(p_reference, ''));
  grant_id bigint;
begin
  if char_length(ref) not between 1 and 100 then
    raise exception 'Give the postal request a reference of 1 to 100 characters (for example the date it arrived)'
      using errcode = '22023', hint = 'invalid_input', detail = 'reference';
  end if;
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  insert into public.spinner_grants (user_id, reference, created_by) values (p_user_id, ref, admin_id)
  returning id into grant_id;
  perform private.log_activity('spinner.postal_request', p_user_id, jsonb_build_object('grant_id', grant_id, 'reference', ref));
  perform private.queue_mail(p_user_id, 'spinner_postal_request', 'Your LabSpinner postal request',
    'We received your postal request (' || ref || ') and added 1 spin credit to your account. '
    || 'It has the same odds as every other spin: spin it at /labspinner.');
  return row(grant_id, p_user_id, ref, private.spin_credits_row(p_user_id))::public.spin_request;
end;
$$;
comment on function public.admin_record_spin_request(uuid,text) is 'Admins: records a postal LabSpinner request (the free route) for a player: one spin credit, a confirmation e-mail, audited (spinner.postal_request).';
revoke all on function public.admin_record_spin_request(uuid,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_record_spin_request(uuid,text) to authenticated;
grant execute on function public.admin_record_spin_request(uuid,text) to service_role;

create or replace function public.reveal_spinner_spin(p_spin_id bigint) returns public.spin_reveal
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  sp public.spinner_spins%rowtype;
  seed public.spinner_seeds%rowtype;
  next_seed public.spinner_seeds%rowtype;
begin
  -- The same lock as spin_wheel and rotate_spinner_seed: no spin lands on a pair while it is revealed.
  perform 1 from public.user_account_data a where a.id = uid for update;
  select * into sp from public.spinner_spins s where s.id = p_spin_id and s.user_id = uid;
  if not found then
    -- Another player's spin reads as no spin at all: nothing says it exists.
    raise exception 'Spin not found' using errcode = 'PT404', hint = 'spin_not_found';
  end if;
  select * into seed from public.spinner_seeds s where s.id = sp.seed_id;
  if seed.revealed_at is null then
    -- Its pair is the active one: reveal it and start the next, keeping the client seed the player has.
    update public.spinner_seeds set revealed_at = now() where id = seed.id returning * into seed;
    next_seed := private.active_spinner_seed(uid);
    update public.spinner_seeds set client_seed = seed.client_seed where id = next_seed.id returning * into next_seed;
  else
    next_seed := private.active_spinner_seed(uid);
  end if;
  return row(private.spin_row(sp), private.seed_row(seed), private.wheel_row(sp.wheel_id),
             private.seed_row(next_seed))::public.spin_reveal;
end;
$$;
comment on function public.reveal_spinner_spin(bigint) is 'The caller''s own spin with its seed pair revealed (rotating the active pair first when the spin used it; the new pair keeps the client seed, nonce 0), its wheel version and the new active pair: what "Reveal and check this spin" recomputes in the browser. Another player''s spin is spin_not_found.';
revoke all on function public.reveal_spinner_spin(bigint) from public, anon, authenticated, service_role;
grant execute on function public.reveal_spinner_spin(bigint) to authenticated;
grant execute on function public.reveal_spinner_spin(bigint) to service_role;
