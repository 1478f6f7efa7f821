-- "Not found" answers 404 (issue "Hardening"). These functions raised SQLSTATE P0002 (no_data_found)
-- for an unknown competition, user, draw, top-up, complaint or flag, and PostgREST (hosted, and the
-- embedded gateway alike) answers P0002 with HTTP 500, as if the server had failed. PostgREST answers
-- a SQLSTATE of the form PTxxx with HTTP status xxx, so they now raise PT404. The message and the
-- hint (the code the app switches on: competition_not_found, user_not_found, draw_not_found,
-- top_up_not_found, complaint_not_found, flag_not_found) are unchanged, and nothing in the SQL or the
-- app reads the SQLSTATE. A handler that catches `others` still catches PT404.
--
-- One more "not found" raised P0001 (an HTTP 400): private.mail_compose_check's unknown competition
-- for an entrants mail. It raises PT404 too, so every *_not_found code is a 404.
--
-- Each function below is its latest definition (the file it comes from is named above it) with
-- the "not found" errcode replaced by 'PT404' and nothing else changed; comments and grants are kept
-- by `create or replace`. tests/db/not-found.test.ts fails if any function raises P0002 again, or a
-- *_not_found code with anything but PT404.

-- ----------------------------------------------------------------------------
-- From 20261123100000_accounts_and_roles.sql
-- ----------------------------------------------------------------------------
create or replace function public.admin_approve_user(p_user_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
begin
  update public.user_account_data
     set approved = true, approved_at = now(), approved_by = admin_id,
         rejected_at = null, rejection_reason = null, updated_at = now()
   where id = p_user_id;
  if not found then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  perform private.log_activity('user.approved', p_user_id);
  perform private.queue_mail(p_user_id, 'account_approved', 'Your LabCash account is approved',
    'Good news: your LabCash account has been approved. You can now add credit and enter competitions.');
  return private.account_json(p_user_id);
end;
$$;

create or replace function public.admin_reject_user(p_user_id uuid, p_reason text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
begin
  if p_reason is null or char_length(trim(p_reason)) not between 3 and 500 then
    raise exception 'Give a reason between 3 and 500 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if exists (select 1 from public.user_account_data a where a.id = p_user_id and a.role <> 'user') then
    raise exception 'Admins cannot be rejected: a super admin must change their role first' using errcode = 'P0001', hint = 'admin_not_rejectable';
  end if;
  update public.user_account_data
     set approved = false, approved_at = null, approved_by = null,
         rejected_at = now(), rejection_reason = trim(p_reason), updated_at = now()
   where id = p_user_id;
  if not found then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  perform private.log_activity('user.rejected', p_user_id, jsonb_build_object('reason', trim(p_reason), 'by', admin_id));
  return private.account_json(p_user_id);
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261123100400_credits_ledger.sql
-- ----------------------------------------------------------------------------
create or replace function private.post_ledger(
  p_user uuid, p_kind text, p_amount numeric, p_reason text, p_reference text,
  p_transaction_amount numeric default null
) returns numeric
language plpgsql security definer set search_path = '' as $$
declare
  new_balance numeric(12, 2);
begin
  if p_amount is null or p_amount = 0 or p_amount <> round(p_amount, 2) then
    raise exception 'Amount must be a non-zero number of pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.user_account_data
     set credits = credits + p_amount, updated_at = now()
   where id = p_user
  returning credits into new_balance;
  if not found then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  insert into public.credit_ledger (user_id, kind, amount, balance_after, reason, reference, transaction_amount, created_by)
  values (p_user, p_kind, p_amount, new_balance, p_reason, p_reference, p_transaction_amount, auth.uid());
  return new_balance;
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261123100500_competitions_and_tickets.sql
-- ----------------------------------------------------------------------------
create or replace function public.admin_get_competition(p_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  result jsonb;
begin
  perform private.require_admin();
  result := private.competition_json(p_id, true);
  if result is null then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  return result;
end;
$$;

create or replace function public.get_competition(p_slug text) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  uid uuid := auth.uid();
  mine integer[];
begin
  select * into c from public.competitions where slug = lower(btrim(p_slug));
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if uid is not null then
    select coalesce(array_agg(t.number order by t.number), '{}') into mine
      from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  end if;
  return private.competition_json(c.id) || jsonb_build_object('my_tickets', to_jsonb(mine));
end;
$$;

create or replace function public.get_entry_quote(p_competition_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  held integer;
  cap_left integer;
  tickets_left integer;
  balance numeric(12, 2);
  quoted integer;
begin
  select * into c from public.competitions where id = p_competition_id;
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  select * into acct from public.user_account_data a where a.id = uid;
  balance := coalesce(acct.credits, 0);
  select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  cap_left := greatest(c.max_tickets_per_user - held, 0);
  tickets_left := greatest(c.total_tickets - c.tickets_sold, 0);
  -- Prices for every quantity the selector can offer, capped so the answer stays small.
  quoted := least(cap_left, tickets_left, 1000);
  return jsonb_build_object(
    'balance', balance,
    'approved', coalesce(acct.approved, false),
    'rejected', acct.rejected_at is not null and not coalesce(acct.approved, false),
    'held', held,
    'cap_left', cap_left,
    'tickets_left', tickets_left,
    'costs', coalesce((select jsonb_agg(c.ticket_price * q order by q) from generate_series(1, quoted) q), '[]'::jsonb),
    'shortfalls', coalesce((select jsonb_agg(greatest(c.ticket_price * q - balance, 0) order by q)
                              from generate_series(1, quoted) q), '[]'::jsonb));
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261123100600_draws.sql
-- ----------------------------------------------------------------------------
create or replace function public.admin_update_prize_status(p_draw_id uuid, p_status text) returns jsonb
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_admin();
  if p_status is null or p_status not in ('awaiting_claim', 'verified', 'delivered') then
    raise exception 'Prize status must be awaiting_claim, verified or delivered' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.draws set prize_status = p_status, prize_status_updated_at = now() where id = p_draw_id;
  if not found then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  perform private.log_activity('prize.status_changed', p_draw_id, jsonb_build_object('status', p_status));
  return (select jsonb_build_object('draw_id', d.id, 'prize_status', d.prize_status, 'prize_status_updated_at', d.prize_status_updated_at)
            from public.draws d where d.id = p_draw_id);
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261123110000_payments_and_play.sql
-- ----------------------------------------------------------------------------
create or replace function public.attach_checkout_session(p_top_up_id uuid, p_session_id text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  t public.top_ups%rowtype;
begin
  perform private.require_server();
  if p_session_id is null or char_length(p_session_id) not between 1 and 255 then
    raise exception 'A checkout session id is required' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into t from public.top_ups where id = p_top_up_id for update;
  if not found then
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
  end if;
  if t.checkout_session_id is not null and t.checkout_session_id <> p_session_id then
    raise exception 'This top-up already has another checkout session' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.top_ups set checkout_session_id = p_session_id, updated_at = now() where id = p_top_up_id;
end;
$$;

create or replace function public.create_top_up(p_amount numeric, p_provider text, p_purpose jsonb default null) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  quote jsonb;
  purpose jsonb;
  new_id uuid;
begin
  if p_provider is null or p_provider not in ('stripe', 'test') then
    raise exception 'Payment provider must be stripe or test' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_purpose is not null then
    begin
      if jsonb_typeof(p_purpose) is distinct from 'object'
         or jsonb_typeof(p_purpose -> 'competition_id') is distinct from 'string'
         or jsonb_typeof(p_purpose -> 'quantity') is distinct from 'number'
         or (p_purpose ->> 'quantity')::numeric <> (p_purpose ->> 'quantity')::integer
         or (p_purpose ->> 'quantity')::integer not between 1 and 1000000
         or coalesce(jsonb_typeof(p_purpose -> 'answer'), 'null') not in ('string', 'null')
         or char_length(coalesce(p_purpose ->> 'answer', '')) > 300 then
        raise exception 'The purpose must be {competition_id, quantity, answer}' using errcode = '22023', hint = 'invalid_input';
      end if;
      purpose := jsonb_build_object('competition_id', (p_purpose ->> 'competition_id')::uuid,
                                    'quantity', (p_purpose ->> 'quantity')::integer,
                                    'answer', p_purpose ->> 'answer');
    exception when invalid_text_representation or numeric_value_out_of_range then
      raise exception 'The purpose must be {competition_id, quantity, answer}' using errcode = '22023', hint = 'invalid_input';
    end;
    if not exists (select 1 from public.competitions c where c.id = (purpose ->> 'competition_id')::uuid and c.status <> 'draft') then
      raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
    end if;
  end if;
  perform private.create_account_rows(uid);
  -- Lock the account: a player's concurrent top-ups queue here, so each sees the ones before it.
  perform 1 from public.user_account_data a where a.id = uid for update;
  quote := private.top_up_quote(uid, p_amount);
  if quote -> 'refusal' <> 'null'::jsonb then
    perform private.raise_refusal(quote -> 'refusal' ->> 'code', quote -> 'refusal' ->> 'message');
  end if;
  insert into public.top_ups (user_id, amount, bonus, provider, purpose)
  values (uid, p_amount, (quote ->> 'bonus')::numeric, p_provider, purpose)
  returning id into new_id;
  perform private.log_activity('top_up.created', new_id, jsonb_build_object('amount', p_amount, 'provider', p_provider));
  return jsonb_build_object('id', new_id, 'amount', p_amount, 'bonus', (quote ->> 'bonus')::numeric,
                            'credit', (quote ->> 'credit')::numeric, 'status', 'pending');
end;
$$;

create or replace function public.fail_top_up(p_top_up_id uuid, p_status text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  t public.top_ups%rowtype;
begin
  perform private.require_server();
  if p_status is null or p_status not in ('failed', 'expired') then
    raise exception 'Status must be failed or expired' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into t from public.top_ups where id = p_top_up_id for update;
  if not found then
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
  end if;
  if t.status = 'pending' then
    update public.top_ups set status = p_status, updated_at = now() where id = t.id;
    perform private.log_activity('top_up.' || p_status, t.id, '{}'::jsonb);
    t.status := p_status;
  end if;
  return jsonb_build_object('status', t.status, 'top_up_id', t.id);
end;
$$;

create or replace function public.get_top_up(p_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  t public.top_ups%rowtype;
begin
  select * into t from public.top_ups where id = p_id and user_id = uid;
  if not found then
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
  end if;
  return jsonb_build_object(
    'id', t.id,
    'status', t.status,
    'amount', t.amount,
    'bonus', t.bonus,
    'credit', t.amount + t.bonus,
    'funding', t.funding,
    'provider', t.provider,
    'balance', coalesce((select a.credits from public.user_account_data a where a.id = uid), 0),
    'created_at', t.created_at,
    'credited_at', t.credited_at,
    'refusal_reason', t.refusal_message,
    'refusal_reason_code', case when t.status = 'refused_card_cap' then 'card_cap_exceeded' end,
    'purpose', t.purpose,
    'entry', (select jsonb_build_object(
                'entry_id', e.id,
                'ticket_numbers', to_jsonb(array(select generate_series(e.first_ticket, e.first_ticket + e.quantity - 1))),
                'competition_slug', c.slug)
                from public.entries e join public.competitions c on c.id = e.competition_id
               where e.id = t.entry_id),
    'entry_error', case when t.entry_error_code is not null
                        then jsonb_build_object('code', t.entry_error_code, 'message', t.entry_error_message) end);
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261123120000_fair_play.sql
-- ----------------------------------------------------------------------------
create or replace function private.draw_competition(p_id uuid, p_trigger text default 'draw_time') returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  the_seed bytea;
  list_hash bytea;
  ext bytea;
  ticket_total integer;
  result record;
  winner public.tickets%rowtype;
  holder_name text;
  holder_town text;
  initials_only boolean := false;
  new_draw uuid;
begin
  -- The row lock makes racing callers (cron runs, an admin) queue; whoever comes
  -- second finds the competition drawn and does nothing.
  select * into c from public.competitions where id = p_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if c.status not in ('live', 'sold_out', 'closed') or exists (select 1 from public.draws d where d.competition_id = p_id) then
    return null;
  end if;
  if now() < c.draw_at then
    raise exception 'This competition is drawn on %', to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI')
      using errcode = 'P0001', hint = 'draw_not_due';
  end if;
  select count(*) into ticket_total from public.tickets t where t.competition_id = p_id;
  if ticket_total = 0 then
    update public.competitions set status = 'closed', closed_at = coalesce(closed_at, now()), updated_at = now() where id = p_id;
    perform private.log_activity('competition.closed', p_id, jsonb_build_object('tickets', 0));
    return null;
  end if;

  select s.seed into the_seed from public.competition_seeds s where s.competition_id = p_id;
  if the_seed is null or extensions.digest(the_seed, 'sha256') <> decode(c.seed_commitment, 'hex') then
    raise exception 'The draw seed of this competition is missing or does not match its commitment' using errcode = 'P0001', hint = 'draw_seed_mismatch';
  end if;
  list_hash := private.ticket_list_hash_v2(p_id);
  ext := case when c.external_randomness is not null then decode(c.external_randomness ->> 'value_hex', 'hex') end;
  select * into result from private.draw_derive(the_seed, p_id, list_hash, ext, ticket_total);

  select * into winner from public.tickets t where t.competition_id = p_id order by t.number offset result.winning_number - 1 limit 1;
  if winner.user_id is not null then
    select p.name, p.town, p.show_initials_only into holder_name, holder_town, initials_only
      from public.profiles p where p.id = winner.user_id;
  end if;
  if holder_name is null then
    select pe.name into holder_name from public.postal_entries pe where pe.entry_id = winner.entry_id;
  end if;

  insert into public.draws (competition_id, algorithm, trigger, ticket_count, ticket_list_hash, seed_commitment, seed_hex,
                            external_randomness, external_hex, counter, winning_position, winning_number, winning_ticket_id,
                            winner_user_id, winner_display_name, winner_town)
  values (p_id, 'labcash-draw-v2', 'draw_time', ticket_total, encode(list_hash, 'hex'), c.seed_commitment,
          encode(the_seed, 'hex'), c.external_randomness, encode(ext, 'hex'), result.counter, result.winning_number,
          winner.number, winner.id, winner.user_id, private.public_name(holder_name, coalesce(initials_only, false)),
          case when coalesce(initials_only, false) then null else holder_town end)
  returning id into new_draw;

  update public.competitions
     set status = 'drawn', closed_at = coalesce(closed_at, now()), updated_at = now()
   where id = p_id;

  if winner.user_id is not null then
    perform private.queue_mail(winner.user_id, 'competition_won', 'You won: ' || c.title,
      format(E'Congratulations! Your ticket #%s won %s.\n\nPrize: %s\n\n%s'
             'Claim it from your entries: %s/account/entries\nYou can check the draw yourself: %s/winners/%s',
             winner.number, c.title, c.prize_description,
             case when c.cash_alternative is not null
                  then 'You may take ' || private.format_gbp(c.cash_alternative) || E' cash instead: choose when you claim.\n\n'
                  else '' end,
             private.setting('site_url') #>> '{}', private.setting('site_url') #>> '{}', new_draw));
  end if;
  perform private.log_activity('competition.drawn', p_id,
    jsonb_build_object('draw_id', new_draw, 'winning_number', winner.number, 'tickets', ticket_total, 'trigger', p_trigger));
  return new_draw;
end;
$$;

create or replace function private.entry_list_competition(p_slug text) returns public.competitions
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where slug = lower(btrim(coalesce(p_slug, '')));
  if not found or c.status = 'draft' then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if c.status = 'cancelled' then
    raise exception 'This competition was cancelled, so it has no entry list' using errcode = 'P0001', hint = 'entry_list_not_available';
  end if;
  if not private.entry_list_open(c) then
    raise exception 'The entry list is published when online sales end, on %',
      to_char(c.closes_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI')
      using errcode = 'P0001', hint = 'entry_list_not_available';
  end if;
  return c;
end;
$$;

create or replace function public.admin_publish_competition(p_id uuid, p_external_randomness jsonb default null) returns jsonb
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
  -- The dates are fixed from here on (admin_update_competition refuses to change them).
  update public.competitions
     set status = 'live', seed_commitment = encode(extensions.digest(the_seed, 'sha256'), 'hex'),
         postal_deadline = deadline, draw_at = coalesce(c.draw_at, deadline),
         external_randomness = p_external_randomness, published_at = now(), updated_at = now()
   where id = p_id;
  perform private.log_activity('competition.published', p_id,
    jsonb_build_object('external_randomness', p_external_randomness ->> 'source',
                       'closes_at', c.closes_at, 'postal_deadline', deadline, 'draw_at', coalesce(c.draw_at, deadline)));
  return private.competition_json(p_id, true);
end;
$$;

create or replace function public.admin_update_complaint(p_id uuid, p_status text, p_response text default null) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  prev public.complaints%rowtype;
  answer text := nullif(btrim(coalesce(p_response, '')), '');
  updated public.complaints%rowtype;
begin
  if p_status is null or p_status not in ('acknowledged', 'resolved') then
    raise exception 'Status must be acknowledged or resolved' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_status = 'resolved' and (answer is null or char_length(answer) not between 10 and 5000) then
    raise exception 'Write the final answer (10 to 5000 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into prev from public.complaints where id = p_id for update;
  if not found then
    raise exception 'Complaint not found' using errcode = 'PT404', hint = 'complaint_not_found';
  end if;
  if prev.status = 'resolved' then
    raise exception 'This complaint has been answered already' using errcode = 'P0001', hint = 'edit_not_allowed';
  end if;
  update public.complaints
     set status = p_status,
         acknowledged_at = coalesce(acknowledged_at, now()),
         resolved_at = case when p_status = 'resolved' then now() end,
         response = case when p_status = 'resolved' then answer else response end,
         handled_by = admin_id, updated_at = now()
   where id = p_id
   returning * into updated;
  if prev.user_id is not null then
    perform private.queue_mail(prev.user_id, 'complaint_' || p_status,
      case when p_status = 'resolved' then 'Our answer to your complaint ' else 'We are looking into your complaint ' end || prev.reference,
      case when p_status = 'resolved'
           then format(E'%s\n\nIf you are not happy with this answer, you can take it to %s (%s), free of charge.',
                       answer, private.setting('dispute_resolution_body') ->> 'name', private.setting('dispute_resolution_body') ->> 'url')
           else format('We have your complaint %s and will give you our final answer by %s.', prev.reference,
                       to_char(prev.respond_by at time zone 'Europe/London', 'FMDD FMMonth YYYY')) end);
  end if;
  perform private.log_activity('complaint.' || p_status, p_id, jsonb_build_object('reference', prev.reference));
  return private.complaint_json(updated, true);
end;
$$;

create or replace function public.claim_prize(p_draw_id uuid, p_choice text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  d public.draws%rowtype;
  cash numeric(12, 2);
  title text;
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
  if d.prize_status <> 'awaiting_claim' then
    raise exception 'Your claim has been verified, so the choice can no longer change' using errcode = 'P0001', hint = 'claim_closed';
  end if;
  update public.draws set prize_choice = p_choice, claimed_at = now() where id = p_draw_id;
  perform private.log_activity('prize.claimed', p_draw_id, jsonb_build_object('choice', p_choice, 'user_id', uid));
  perform private.queue_mail(uid, 'prize_claimed', 'Your claim: ' || title,
    format(E'Thank you: we have your claim for %s.\n\nYou chose %s.\n\nWe will check your identity and arrange delivery; '
           'you can change your choice until then.',
           title, case when p_choice = 'cash' then private.format_gbp(cash) || ' cash' else 'the prize' end));
  return (select jsonb_build_object('draw_id', x.id, 'prize_choice', x.prize_choice, 'claimed_at', x.claimed_at)
            from public.draws x where x.id = p_draw_id);
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261123130100_admin_competitions.sql
-- ----------------------------------------------------------------------------
create or replace function public.admin_competition_detail(p_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  perform private.require_admin();
  select * into c from public.competitions where id = p_id;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  return jsonb_build_object(
    'competition', private.competition_json(p_id, true),
    -- competition_json gives the effective dates; a draft's null ones mean "the default at publish".
    'stored_dates', jsonb_build_object('postal_deadline', c.postal_deadline, 'draw_at', c.draw_at),
    'figures', (select jsonb_build_object(
        'online_tickets', c.tickets_sold,
        'postal_tickets', c.postal_tickets,
        'paid_entries', count(*) filter (where e.kind = 'paid' and e.status = 'active'),
        'postal_entries', count(*) filter (where e.kind = 'postal' and e.status = 'active'),
        'players', count(distinct e.user_id) filter (where e.status = 'active'),
        'revenue', coalesce(sum(e.amount) filter (where e.kind = 'paid' and e.status = 'active'), 0),
        'refunded_entries', count(*) filter (where e.status = 'refunded'),
        'refunded_total', coalesce(sum(e.amount) filter (where e.status = 'refunded'), 0),
        'void_postal_entries', count(*) filter (where e.status = 'void'))
      from public.entries e where e.competition_id = p_id),
    'postal_entries', (select coalesce(jsonb_agg(jsonb_build_object(
          'entry_id', e.id,
          'name', pe.name,
          'address', pe.address,
          'postcode', pe.postcode,
          'user_id', pe.user_id,
          'email', p.email,
          'answer', pe.answer,
          'tickets', e.quantity,
          'ticket_numbers', to_jsonb(array(select generate_series(e.first_ticket, e.first_ticket + e.quantity - 1))),
          'status', e.status,
          'recorded_by', r.name,
          'created_at', pe.created_at) order by e.first_ticket), '[]'::jsonb)
      from public.postal_entries pe
      join public.entries e on e.id = pe.entry_id
      left join public.profiles p on p.id = pe.user_id
      left join public.profiles r on r.id = pe.recorded_by
      where pe.competition_id = p_id),
    'fulfilment', (select private.prize_fulfilment_json(d.id) from public.draws d where d.competition_id = p_id));
end;
$$;

create or replace function public.admin_competition_entries_csv(p_id uuid, p_after integer default 0, p_limit integer default 10000)
returns jsonb
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
             (x.first_ticket + x.quantity - 1)::text,
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
  return jsonb_build_object(
    'csv', case when after_no = 0
                then 'entry_id,created_at,route,status,first_ticket,last_ticket,tickets,amount,user_id,name,email,postal_address,postcode' || E'\n'
                else '' end || lines,
    'last_number', last_no,
    'done', last_no is null
            or not exists (select 1 from public.entries e where e.competition_id = p_id and e.first_ticket > last_no));
end;
$$;

create or replace function public.admin_update_prize_fulfilment(p_draw_id uuid, p_status text, p_note text default null,
                                                     p_proof_of_delivery text default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  prev public.draws%rowtype;
  note text := nullif(btrim(coalesce(p_note, '')), '');
  proof text := nullif(btrim(coalesce(p_proof_of_delivery, '')), '');
begin
  perform private.require_admin();
  if p_status is null or p_status not in ('awaiting_claim', 'verified', 'delivered') then
    raise exception 'Prize status must be awaiting claim, verified or delivered' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(note) > 2000 then
    raise exception 'Keep the note to 2000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(proof) > 200 then
    raise exception 'Keep the proof-of-delivery reference to 200 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into prev from public.draws where id = p_draw_id for update;
  if not found then
    raise exception 'Draw not found' using errcode = 'PT404', hint = 'draw_not_found';
  end if;
  if p_status = 'delivered' and prev.prize_status = 'awaiting_claim' then
    raise exception 'Verify the winner''s claim (their identity) before marking the prize delivered'
      using errcode = 'P0001', hint = 'prize_not_verified';
  end if;
  if p_status = 'delivered' and proof is null then
    raise exception 'Give the proof-of-delivery reference (a tracking number, signed receipt or bank transfer reference)'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.draws
     set prize_status = p_status,
         prize_status_updated_at = case when p_status <> prev.prize_status then now() else prize_status_updated_at end,
         verified_at = case when p_status = 'awaiting_claim' then null
                            when prev.prize_status = 'awaiting_claim' then now()
                            else verified_at end,
         delivered_at = case when p_status = 'delivered' then coalesce(delivered_at, now()) end,
         fulfilment_note = note,
         proof_of_delivery = proof
   where id = p_draw_id;
  perform private.log_activity('prize.fulfilment', p_draw_id, jsonb_build_object(
    'competition_id', prev.competition_id,
    'from', prev.prize_status, 'to', p_status,
    'note_changed', note is distinct from prev.fulfilment_note,
    'proof_of_delivery', proof));
  return private.prize_fulfilment_json(p_draw_id);
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261123130200_admin_users.sql
-- ----------------------------------------------------------------------------
create or replace function private.admin_user_target(p_user_id uuid, p_lock boolean default false) returns public.user_account_data
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data%rowtype;
begin
  if p_lock then
    select * into acct from public.user_account_data a where a.id = p_user_id for update;
  else
    select * into acct from public.user_account_data a where a.id = p_user_id;
  end if;
  if not found then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  return acct;
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261123130300_admin_settings.sql
-- ----------------------------------------------------------------------------
create or replace function public.admin_get_complaint(p_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.complaints%rowtype;
begin
  perform private.require_admin();
  select * into c from public.complaints where id = p_id;
  if not found then
    raise exception 'Complaint not found' using errcode = 'PT404', hint = 'complaint_not_found';
  end if;
  return private.complaint_json(c, true)
    || jsonb_build_object('handled_by_name', (select p.name from public.profiles p where p.id = c.handled_by));
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261123130400_admin_mail.sql
-- ----------------------------------------------------------------------------
create or replace function private.mail_compose_check(p_kind text, p_segment text, p_competition_id uuid,
                                           p_subject text, p_body text)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_subject text := btrim(coalesce(p_subject, ''));
  v_body text := btrim(replace(coalesce(p_body, ''), E'\r\n', E'\n'));
begin
  if p_kind is null or p_kind not in ('marketing', 'service') then
    raise exception 'Choose marketing or a service notice' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_segment is null or p_segment not in ('all_players', 'competition_entrants', 'no_recent_entry') then
    raise exception 'Choose who the mail goes to' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_segment = 'competition_entrants' then
    if p_competition_id is null then
      raise exception 'Choose the competition whose entrants get the mail' using errcode = '22023', hint = 'invalid_input';
    end if;
    if not exists (select 1 from public.competitions c where c.id = p_competition_id) then
      raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
    end if;
  end if;
  if char_length(v_subject) not between 3 and 120 then
    raise exception 'The subject must be 3 to 120 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if v_subject ~ '[\r\n]' then
    raise exception 'The subject must be one line' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(v_body) not between 20 and 5000 then
    raise exception 'The message must be 20 to 5,000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261123130500_player_protection.sql
-- ----------------------------------------------------------------------------
create or replace function public.admin_review_player_flag(p_flag_id uuid, p_note text, p_intervention text default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  f public.player_flags%rowtype;
  note text := btrim(replace(coalesce(p_note, ''), E'\r\n', E'\n'));
  intervention uuid;
begin
  if char_length(note) not between 3 and 2000 then
    raise exception 'Write a note of 3 to 2000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_intervention is not null and p_intervention not in ('note', 'contacted', 'restricted', 'lifted', 'closed') then
    raise exception 'The intervention must be a note, contacted, restricted, lifted or closed' using errcode = '22023', hint = 'invalid_input';
  end if;
  select * into f from public.player_flags where id = p_flag_id for update;
  if not found then
    raise exception 'No such flag' using errcode = 'PT404', hint = 'flag_not_found';
  end if;
  if f.status = 'reviewed' then
    raise exception 'This flag was already reviewed' using errcode = 'P0001', hint = 'flag_already_reviewed';
  end if;
  if p_intervention is not null then
    intervention := private.record_intervention(admin_id, f.user_id, p_intervention, note, f.id);
  end if;
  update public.player_flags
     set status = 'reviewed', reviewed_by = admin_id, reviewed_at = now(), review_note = note
   where id = f.id;
  perform private.log_activity('protection.flag_reviewed', f.user_id,
    jsonb_build_object('flag_id', f.id, 'kind', f.kind, 'note', note, 'intervention', p_intervention));
  return private.player_flag_json(f.id);
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261123160000_purchase_concurrency.sql
-- ----------------------------------------------------------------------------
create or replace function private.refuse_unless_open_for_entry(c public.competitions) returns void
language plpgsql stable set search_path = '' as $$
begin
  if c.id is null or c.status = 'draft' then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if c.status = 'cancelled' then
    raise exception 'This competition has been cancelled' using errcode = 'P0001', hint = 'competition_cancelled';
  elsif c.status = 'sold_out' or (c.status = 'drawn' and c.tickets_sold >= c.total_tickets) then
    raise exception 'This competition has sold out' using errcode = 'P0001', hint = 'competition_sold_out';
  elsif c.status in ('closed', 'drawn') then
    raise exception 'This competition has closed' using errcode = 'P0001', hint = 'competition_closed';
  elsif c.status <> 'live' then
    raise exception 'This competition is not open for entries' using errcode = 'P0001', hint = 'competition_not_open';
  elsif now() < c.opens_at then
    raise exception 'Entries open on %', to_char(c.opens_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI')
      using errcode = 'P0001', hint = 'competition_not_yet_open';
  elsif now() >= c.closes_at then
    raise exception 'This competition has closed' using errcode = 'P0001', hint = 'competition_closed';
  elsif c.tickets_sold >= c.total_tickets then
    raise exception 'This competition has sold out' using errcode = 'P0001', hint = 'competition_sold_out';
  end if;
end;
$$;

create or replace function public.admin_cancel_competition(p_id uuid, p_reason text) returns jsonb
language plpgsql security definer set search_path = '' as $$
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
     set status = case when kind = 'paid' then 'refunded' else 'void' end, refunded_at = now()
   where competition_id = p_id and status = 'active';
  update public.competitions
     set status = 'cancelled', cancelled_at = now(), cancel_reason = btrim(p_reason), updated_at = now()
   where id = p_id;
  perform private.log_activity('competition.cancelled', p_id,
    jsonb_build_object('reason', btrim(p_reason), 'refunded_entries', refunded_entries, 'refunded_total', refunded_total));
  return jsonb_build_object('competition', private.competition_json(p_id, true),
                            'refunded_entries', refunded_entries, 'refunded_total', refunded_total);
end;
$$;

create or replace function public.admin_record_postal_entry(
  p_competition_id uuid, p_user_id uuid, p_name text, p_address text, p_answer text
) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  c public.competitions%rowtype;
  the_postcode text := private.uk_postcode(p_address);
  held integer;
  tickets integer;
  first_no integer;
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

  -- Numbered after the whole online pool, so postal entries never take an online ticket.
  first_no := c.total_tickets + c.postal_tickets + 1;
  insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
  values (c.id, p_user_id, 'postal', tickets, 0, 0, first_no)
  returning id into new_entry;
  insert into public.tickets (competition_id, number, entry_id, user_id)
  select c.id, n, new_entry, p_user_id from generate_series(first_no, first_no + tickets - 1) n;
  insert into public.postal_entries (competition_id, entry_id, user_id, name, address, postcode, answer, recorded_by)
  values (c.id, new_entry, p_user_id, btrim(p_name), btrim(p_address), the_postcode, p_answer, admin_id);
  update public.competitions set postal_tickets = postal_tickets + tickets, updated_at = now() where id = c.id;
  if p_user_id is not null then
    update public.user_account_data set total_entries = total_entries + tickets, updated_at = now() where id = p_user_id;
    perform private.queue_mail(p_user_id, 'entry_receipt', 'Your postal entry: ' || c.title,
      format(E'We have received your free postal entry to %s.\n\nYour ticket numbers: %s (%s %s, the same chance per ticket as a paid one)\n\n'
             'The draw is on %s. It is verifiable: its seed commitment is %s.',
             c.title, private.ticket_numbers_text(first_no, tickets), tickets,
             case when tickets = 1 then 'ticket' else 'tickets' end,
             to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI'), c.seed_commitment));
  end if;
  perform private.log_activity('competition.postal_entry', c.id,
    jsonb_build_object('entry_id', new_entry, 'user_id', p_user_id, 'first_ticket', first_no, 'tickets', tickets));
  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(array(select generate_series(first_no, first_no + tickets - 1))),
    'tickets', tickets);
end;
$$;

create or replace function public.admin_update_competition(p_id uuid, p jsonb) returns jsonb
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
           updated_at = now()
     where id = p_id;
  exception when unique_violation then
    raise exception 'The address "%" is already used by another competition', c.slug using errcode = '22023', hint = 'slug_taken';
  end;
  perform private.log_activity('competition.updated', p_id, jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p) k)));
  return private.competition_json(p_id, true);
end;
$$;

-- ----------------------------------------------------------------------------
-- From 20261126110100_money_arguments_everywhere.sql
-- ----------------------------------------------------------------------------
create or replace function public.confirm_top_up(p_top_up_id uuid, p_payment_id text, p_funding text, p_amount_paid numeric)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  t public.top_ups%rowtype;
  balance numeric(12, 2);
  message text;
  r record;
  entry jsonb;
  err_hint text;
  err_message text;
begin
  perform private.require_server();
  if p_payment_id is null or char_length(p_payment_id) not between 1 and 255 then
    raise exception 'A payment id is required' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_funding is null or p_funding not in ('debit', 'credit', 'prepaid', 'wallet', 'unknown') then
    raise exception 'Funding must be debit, credit, prepaid, wallet or unknown' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_amount_paid is null or not private.is_pounds(p_amount_paid) or p_amount_paid <= 0 then
    raise exception 'The amount paid must be more than zero, in pounds and pence' using errcode = '22023', hint = 'invalid_input';
  end if;

  perform private.payment_lock(p_payment_id);
  -- The row lock makes a replayed, duplicated or concurrent confirmation wait, then see
  -- this one's outcome and credit nothing.
  select * into t from public.top_ups where id = p_top_up_id for update;
  if not found then
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
  end if;
  if t.payment_id is not null then
    if t.payment_id <> p_payment_id then
      raise exception 'This top-up was already paid by another payment' using errcode = 'P0001', hint = 'payment_mismatch';
    end if;
    return jsonb_build_object(
      'status', case t.status when 'refused_card_cap' then 'refund_required'
                              when 'refunded' then 'refunded' else 'already_credited' end,
      'top_up_id', t.id,
      'balance', (select a.credits from public.user_account_data a where a.id = t.user_id),
      'message', t.refusal_message,
      'message_code', case when t.status = 'refused_card_cap' then 'card_cap_exceeded' end);
  end if;
  if exists (select 1 from public.top_ups o where o.payment_id = p_payment_id) then
    raise exception 'This payment already paid for another top-up' using errcode = 'P0001', hint = 'payment_mismatch';
  end if;
  if p_amount_paid <> t.amount then
    raise exception 'The amount paid (%) is not the amount of the top-up (%)', private.format_gbp(p_amount_paid), private.format_gbp(t.amount)
      using errcode = 'P0001', hint = 'payment_mismatch';
  end if;

  -- Lock order: the competition's entry gate (when the top-up pays for an entry), then the
  -- account, as entering does; the competition row itself is locked last, by the entry.
  if t.purpose is not null then
    perform private.share_competition_gate((t.purpose ->> 'competition_id')::uuid);
  end if;
  perform private.create_account_rows(t.user_id);
  perform 1 from public.user_account_data a where a.id = t.user_id for update;

  if p_funding = 'credit' then
    begin
      perform private.require_within_card_cap(t.user_id, t.amount);
    exception when raise_exception then
      -- The money is already taken, so the refusal is recorded (and refunded by the
      -- adapter) instead of failing the confirmation.
      get stacked diagnostics message = message_text, err_hint = pg_exception_hint;
      if err_hint is distinct from 'card_cap_exceeded' then
        raise;
      end if;
      update public.top_ups
         set status = 'refused_card_cap', payment_id = p_payment_id, funding = p_funding, refusal_message = message, updated_at = now()
       where id = t.id;
      perform private.log_activity('top_up.refused_card_cap', t.id, jsonb_build_object('amount', t.amount));
      for r in select id from public.top_up_refunds where payment_id = p_payment_id and applied_at is null order by id loop
        perform private.apply_top_up_refund(r.id);
      end loop;
      return jsonb_build_object('status', 'refund_required', 'top_up_id', t.id,
        'balance', (select a.credits from public.user_account_data a where a.id = t.user_id),
        'message', message, 'message_code', 'card_cap_exceeded');
    end;
  end if;

  -- Credited even when the top-up had been marked failed or expired: the money was taken.
  update public.top_ups
     set status = 'credited', payment_id = p_payment_id, funding = p_funding, credited_at = now(), updated_at = now()
   where id = t.id;
  balance := private.post_ledger(t.user_id, 'top_up', t.amount,
    'Top-up by ' || case p_funding when 'debit' then 'debit card' when 'credit' then 'credit card'
                                   when 'prepaid' then 'prepaid card' when 'wallet' then 'wallet' else 'card' end,
    'top_up:' || t.id, t.amount);
  if t.bonus > 0 then
    balance := private.post_ledger(t.user_id, 'bonus', t.bonus, 'Top-up bonus', 'top_up:' || t.id);
  end if;
  perform private.queue_mail(t.user_id, 'top_up_receipt', 'Your LabCash top-up receipt',
    format(E'Thank you for your top-up.\n\nAmount paid: %s\nBonus credit: %s\nPaid by: %s\nCredit balance: %s\nReference: top_up:%s',
           private.format_gbp(t.amount), private.format_gbp(t.bonus),
           case p_funding when 'debit' then 'debit card' when 'credit' then 'credit card'
                          when 'prepaid' then 'prepaid card' when 'wallet' then 'wallet' else 'card' end,
           private.format_gbp(balance), t.id));
  perform private.log_activity('top_up.credited', t.id,
    jsonb_build_object('amount', t.amount, 'bonus', t.bonus, 'funding', p_funding, 'was', t.status));

  -- A refund that arrived before this confirmation is applied now.
  for r in select id from public.top_up_refunds where payment_id = p_payment_id and applied_at is null order by id loop
    perform private.apply_top_up_refund(r.id);
  end loop;
  select * into t from public.top_ups where id = t.id;

  -- The entry the top-up was for: made in a sub-transaction, so a refusal (sold out
  -- meanwhile, say) keeps the credit and is recorded for the player to see.
  if t.purpose is not null and t.status = 'credited' then
    begin
      entry := private.enter_competition_for(t.user_id, (t.purpose ->> 'competition_id')::uuid,
                                             (t.purpose ->> 'quantity')::integer, t.purpose ->> 'answer');
      update public.top_ups set entry_id = (entry ->> 'entry_id')::uuid, updated_at = now() where id = t.id;
    exception when others then
      get stacked diagnostics err_hint = pg_exception_hint, err_message = message_text;
      update public.top_ups
         set entry_error_code = coalesce(nullif(err_hint, ''), 'unexpected'), entry_error_message = err_message, updated_at = now()
       where id = t.id;
    end;
  end if;

  return jsonb_build_object(
    'status', case when t.status = 'refunded' then 'refunded' else 'credited' end,
    'top_up_id', t.id,
    'balance', (select a.credits from public.user_account_data a where a.id = t.user_id));
end;
$$;
