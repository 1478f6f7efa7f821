-- ----------------------------------------------------------------------------
-- A wrong skill answer costs a wait (issue 21, item 6.2)
-- ----------------------------------------------------------------------------
-- A wrong answer used to cost nothing and could be retried at once, so the question (code of practice: a
-- genuine test of skill) could be beaten by trying every option. Now a wrong answer closes the question to
-- that player, for that competition, for skill_answer_cooldown_minutes (a setting, default 10; 0 turns it
-- off), whatever they answer in the meantime (skill_answer_cooldown, saying when they can try again).
--
-- The wrong attempt must outlive the refusal: a refusal that raises rolls back everything its transaction
-- wrote. So public.enter_competition runs the purchase in a sub-transaction; when that raises
-- answer_incorrect it keeps the miss (in the outer transaction, which commits) and returns the refusal as
-- its result, {"refused": {code, message, retry_at}}, instead of raising. Every other refusal still
-- raises as before. The app turns the result back into the same DbError (lib/data/competitions.ts).
-- get_entry_quote says until when (skill_retry_at), so the entry form can say so instead of offering itself.

insert into public.app_settings (key, value) values ('skill_answer_cooldown_minutes', '10'::jsonb)
on conflict (key) do nothing;

create table public.skill_answer_misses (
  user_id uuid not null references auth.users (id) on delete cascade,
  competition_id uuid not null references public.competitions (id) on delete cascade,
  missed_at timestamptz not null default now(),
  misses integer not null default 1 check (misses >= 1),
  primary key (user_id, competition_id)
);
alter table public.skill_answer_misses enable row level security;
create index skill_answer_misses_competition_idx on public.skill_answer_misses (competition_id);
revoke all on table public.skill_answer_misses from anon, authenticated;
grant all on table public.skill_answer_misses to service_role;
comment on table public.skill_answer_misses is 'The last wrong skill answer of each player in each competition (and how many so far): the question is closed to them until missed_at + skill_answer_cooldown_minutes. Written by public.enter_competition, read through functions only.';

create function private.skill_answer_cooldown() returns interval
language sql stable set search_path = '' as $$
  select make_interval(mins => coalesce((private.setting('skill_answer_cooldown_minutes') #>> '{}')::integer, 10))
$$;
comment on function private.skill_answer_cooldown() is 'How long a wrong skill answer closes the question to the player (the skill_answer_cooldown_minutes setting; 10 minutes when unset).';

create function private.skill_answer_retry_at(p_user uuid, p_competition_id uuid) returns timestamptz
language sql stable set search_path = '' as $$
  select m.missed_at + private.skill_answer_cooldown()
    from public.skill_answer_misses m
   where m.user_id = p_user and m.competition_id = p_competition_id
     and m.missed_at + private.skill_answer_cooldown() > now()
$$;
comment on function private.skill_answer_retry_at(uuid, uuid) is 'When the player may answer this competition''s question again after a wrong answer, or null when they may now.';

create function private.london_time_text(p_at timestamptz) returns text
language sql stable set search_path = '' as $$
  -- HH:MM in the UK, with the date in front when it is not today there.
  select case
    when (p_at at time zone 'Europe/London')::date = (now() at time zone 'Europe/London')::date
      then to_char(p_at at time zone 'Europe/London', 'HH24:MI')
    else to_char(p_at at time zone 'Europe/London', 'HH24:MI "on" FMDD FMMonth YYYY')
  end
$$;
comment on function private.london_time_text(timestamptz) is 'A moment as players read it: HH:MM in Europe/London, with the date after it when it is not today.';

-- ----------------------------------------------------------------------------
-- The setting, beside the others on /admin/settings: the existing key list and checks are kept (renamed,
-- unchanged) and extended here, so whatever they hold stays.
-- ----------------------------------------------------------------------------
alter function private.settings_keys() rename to settings_keys_core;
alter function private.setting_checked(text, jsonb) rename to setting_checked_core;
comment on function private.settings_keys_core() is 'The settings of the screen before the skill-answer wait (private.settings_keys adds it).';
comment on function private.setting_checked_core(text, jsonb) is 'The checks of every setting but the skill-answer wait (private.setting_checked adds it).';

create function private.settings_keys() returns text[]
language sql immutable set search_path = '' as $$
  select private.settings_keys_core() || array['skill_answer_cooldown_minutes']
$$;
comment on function private.settings_keys() is 'The settings the admin settings screen reads and writes (admin_get_settings, admin_update_settings), in screen order.';

create function private.setting_checked(p_key text, p_value jsonb) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  minutes numeric;
begin
  if p_key is distinct from 'skill_answer_cooldown_minutes' then
    return private.setting_checked_core(p_key, p_value);
  end if;
  if p_value is null or jsonb_typeof(p_value) <> 'number' then
    raise exception 'The wait after a wrong answer must be a whole number of minutes'
      using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  minutes := (p_value #>> '{}')::numeric;
  if minutes <> trunc(minutes) or minutes < 0 or minutes > 1440 then
    raise exception 'The wait after a wrong answer must be a whole number of minutes from 0 to 1440 (0: no wait)'
      using errcode = '22023', hint = 'invalid_input', detail = p_key;
  end if;
  return to_jsonb(minutes::integer);
end;
$$;
comment on function private.setting_checked(text, jsonb) is 'One setting''s new value checked for its key (type, range, shape) and normalised; invalid_input with a message naming the setting otherwise (the key in DETAIL).';

-- ----------------------------------------------------------------------------
-- Entering: the wait is checked before the answer
-- ----------------------------------------------------------------------------
create or replace function private.enter_competition_for(p_user uuid, p_competition_id uuid, p_quantity integer, p_answer text)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  p public.player_protections;
  held integer;
  cost numeric(12, 2);
  left_this_month numeric(12, 2);
  sold integer;
  first_no integer;
  new_entry uuid := gen_random_uuid();
  new_balance numeric(12, 2);
  block jsonb;
  receipt_head text;
  receipt_tail text;
  retry_at timestamptz;
begin
  if p_quantity is null or p_quantity < 1 then
    raise exception 'Choose at least one ticket' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- Lock order: the gate, the account, the competition row (see the header).
  perform private.share_competition_gate(p_competition_id);
  -- The account lock queues a player's concurrent entries, postal entries, top-ups and
  -- protection changes, so the cap count, a break that lands meanwhile and the monthly sums
  -- below are exact.
  select * into acct from public.user_account_data a where a.id = p_user for update;
  if not found then
    perform private.create_account_rows(p_user);
    select * into acct from public.user_account_data a where a.id = p_user for update;
  end if;
  if acct.rejected_at is not null and not acct.approved then
    raise exception 'Your account was not approved, so you cannot enter competitions' using errcode = 'P0001', hint = 'approval_rejected';
  end if;
  if not acct.approved then
    raise exception 'Your account is awaiting approval' using errcode = 'P0001', hint = 'approval_pending';
  end if;

  -- Read without a lock: under the gate the terms (price, cap, question) cannot change
  -- before this commits; the count of tickets sold is settled by the counter update below.
  select * into c from public.competitions where id = p_competition_id;
  perform private.refuse_unless_open_for_entry(c);
  if c.skill_question is not null and nullif(btrim(coalesce(p_answer, '')), '') is null then
    raise exception 'Answer the question to enter' using errcode = 'P0001', hint = 'answer_required';
  end if;
  -- A wrong answer (recorded by public.enter_competition) closes the question to this player for
  -- skill_answer_cooldown_minutes, whatever they answer now.
  if c.skill_question is not null then
    retry_at := private.skill_answer_retry_at(p_user, c.id);
    if retry_at is not null then
      raise exception 'You gave a wrong answer. You can try again at %', private.london_time_text(retry_at)
        using errcode = 'P0001', hint = 'skill_answer_cooldown';
    end if;
  end if;
  if not private.answer_is_correct(c, p_answer) then
    raise exception 'That answer is not correct' using errcode = 'P0001', hint = 'answer_incorrect';
  end if;

  -- The per-person cap counts every ticket the player holds, online and postal.
  select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = p_user;
  if held >= c.max_tickets_per_user then
    raise exception 'You already have the maximum of % tickets for this competition', c.max_tickets_per_user using errcode = 'P0001', hint = 'cap_reached';
  end if;
  if held + p_quantity > c.max_tickets_per_user then
    raise exception 'You can buy at most % more tickets for this competition', c.max_tickets_per_user - held using errcode = 'P0001', hint = 'cap_exceeded';
  end if;
  if c.tickets_sold + p_quantity > c.total_tickets then
    raise exception 'Only % tickets left', c.total_tickets - c.tickets_sold using errcode = 'P0001', hint = 'not_enough_tickets';
  end if;

  cost := c.ticket_price * p_quantity;
  block := private.play_block(p_user);
  if block is not null then
    perform private.raise_refusal(block ->> 'code', block ->> 'message');
  end if;
  p := private.protections_of(p_user);
  if p.monthly_limit is not null then
    left_this_month := greatest(p.monthly_limit - private.month_spent(p_user), 0);
    if cost > left_this_month then
      raise exception 'This entry would take you over your monthly limit: % left this month', private.format_gbp(left_this_month)
        using errcode = 'P0001', hint = 'monthly_limit_reached';
    end if;
  end if;
  if acct.credits < cost then
    raise exception 'Not enough credit: you need % more', private.format_gbp(cost - acct.credits) using errcode = 'P0001', hint = 'insufficient_credit';
  end if;

  -- The debit, the totals, the audit row and most of the receipt, before the competition row.
  new_balance := private.post_ledger(p_user, 'entry', -cost,
    format('Entry: %s (%s %s)', c.title, p_quantity, case when p_quantity = 1 then 'ticket' else 'tickets' end),
    'entry:' || new_entry);
  update public.user_account_data
     set total_spent = total_spent + cost, total_entries = total_entries + p_quantity, updated_at = now()
   where id = p_user;
  perform private.log_activity('competition.entered', c.id,
    jsonb_build_object('entry_id', new_entry, 'quantity', p_quantity, 'amount', cost, 'user_id', p_user));
  receipt_head := format(E'Thank you for entering %s.\n\nYour ticket numbers: ', c.title);
  receipt_tail := format(E'\nTickets: %s at %s each\nTotal: %s\nCredit left: %s\n\n'
                         'The draw is on %s. It is verifiable: its seed commitment is %s.',
    p_quantity, private.format_gbp(c.ticket_price), private.format_gbp(cost), private.format_gbp(new_balance),
    to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI'), c.seed_commitment);

  -- The competition row, last: the counter takes the tickets only if they are still there
  -- and the competition is still live, and its new value numbers them. The last ticket ends
  -- online sales at once; the draw still waits for its time (code of practice 1.9, 2.4).
  -- Entries take turns in the counter queue first, so the row is never contended by them.
  perform private.queue_for_competition_counter(c.id);
  update public.competitions
     set tickets_sold = tickets_sold + p_quantity, updated_at = now(),
         status = case when tickets_sold + p_quantity = total_tickets then 'sold_out' else status end,
         closed_at = case when tickets_sold + p_quantity = total_tickets then now() else closed_at end
   where id = c.id and status = 'live' and tickets_sold + p_quantity <= total_tickets
  returning tickets_sold into sold;
  if not found then
    -- Sold out, or too few left, or closed (drawn) since the read above: say which.
    select * into c from public.competitions where id = p_competition_id;
    perform private.refuse_unless_open_for_entry(c);
    raise exception 'Only % tickets left', c.total_tickets - c.tickets_sold using errcode = 'P0001', hint = 'not_enough_tickets';
  end if;
  first_no := sold - p_quantity + 1;
  insert into public.entries (id, competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
  values (new_entry, c.id, p_user, 'paid', p_quantity, c.ticket_price, cost, first_no);
  insert into public.tickets (competition_id, number, entry_id, user_id)
  select c.id, n, new_entry, p_user from generate_series(first_no, first_no + p_quantity - 1) n;
  perform private.queue_mail(p_user, 'entry_receipt', 'Your entry: ' || c.title,
    receipt_head || private.ticket_numbers_text(first_no, p_quantity) || receipt_tail);

  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(array(select generate_series(first_no, first_no + p_quantity - 1))),
    'balance', new_balance);
end;
$$;
comment on function private.enter_competition_for(uuid, uuid, integer, text) is 'Buys p_quantity tickets for p_user in one transaction (approval, protections, open check, skill answer, per-user cap over both routes, tickets left, monthly spend limit, credit through the ledger, numbers in purchase order, totals, receipt). Locks the competition''s gate (shared), the account, and the competition row last (the counter update that numbers the tickets). The last ticket ends online sales (sold_out); the draw waits for its time.';

-- ----------------------------------------------------------------------------
-- Keeping a miss: from a direct entry, and from an entry paid for by a top-up
-- ----------------------------------------------------------------------------
create function private.record_skill_miss(p_user uuid, p_competition_id uuid) returns void
language sql security definer set search_path = '' as $$
  insert into public.skill_answer_misses as m (user_id, competition_id, missed_at)
  values (p_user, p_competition_id, now())
  on conflict (user_id, competition_id) do update set missed_at = excluded.missed_at, misses = m.misses + 1
$$;
comment on function private.record_skill_miss(uuid, uuid) is 'Records a wrong skill answer of p_user in p_competition_id now (the question closes to them for skill_answer_cooldown_minutes).';

-- confirm_top_up enters the competition a top-up was for inside its own sub-transaction and keeps a
-- refusal in the top-up's entry_error_code; a wrong answer there is a miss too, or one top-up per
-- possible answer would find the right one.
create function private.top_up_entry_missed() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.record_skill_miss(new.user_id, (new.purpose ->> 'competition_id')::uuid);
  return new;
end;
$$;
comment on function private.top_up_entry_missed() is 'Trigger: a top-up whose entry was refused for a wrong answer records the miss.';
create trigger top_up_entry_missed
  after update of entry_error_code on public.top_ups
  for each row when (new.entry_error_code = 'answer_incorrect' and old.entry_error_code is distinct from 'answer_incorrect')
  execute function private.top_up_entry_missed();

-- ----------------------------------------------------------------------------
-- The player's entry: a wrong answer is kept, and answered as a result
-- ----------------------------------------------------------------------------
create or replace function public.enter_competition(p_competition_id uuid, p_quantity integer, p_answer text default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  err_hint text;
  retry_at timestamptz;
begin
  -- One attempt at a time per player and competition, held to commit: a second answer sent at the same
  -- moment waits here and then sees the first one's miss (the account lock inside the sub-transaction
  -- is released when a wrong answer rolls it back, so it cannot do this).
  perform pg_advisory_xact_lock(hashtextextended('skill-answer:' || uid::text || ':' || p_competition_id::text, 0));
  begin
    return private.enter_competition_for(uid, p_competition_id, p_quantity, p_answer);
  exception when sqlstate 'P0001' then
    get stacked diagnostics err_hint = pg_exception_hint;
    if err_hint is distinct from 'answer_incorrect' then
      raise;
    end if;
  end;
  -- The wrong answer: the sub-transaction above undid whatever the purchase had done; the miss is kept.
  perform private.record_skill_miss(uid, p_competition_id);
  retry_at := private.skill_answer_retry_at(uid, p_competition_id);
  return jsonb_build_object('refused', jsonb_build_object(
    'code', 'answer_incorrect',
    'message', 'That answer is not correct.'
               || case when retry_at is null then '' else ' You can try again at ' || private.london_time_text(retry_at) end,
    'retry_at', retry_at));
end;
$$;
comment on function public.enter_competition(uuid, integer, text) is 'Signed-in, approved players: buys p_quantity tickets (private.enter_competition_for), refusing with a raised error and its code; except a wrong skill answer, which is recorded (skill_answer_misses: the question closes to the player for skill_answer_cooldown_minutes, refused as skill_answer_cooldown) and returned as {"refused": {"code": "answer_incorrect", message, retry_at}} so the record commits.';

-- ----------------------------------------------------------------------------
-- The quote says until when the question is closed
-- ----------------------------------------------------------------------------
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
                              from generate_series(1, quoted) q), '[]'::jsonb),
    'skill_retry_at', case when c.skill_question is not null then private.skill_answer_retry_at(uid, c.id) end);
end;
$$;
comment on function public.get_entry_quote(uuid) is 'Signed-in users: what the competition page shows before entering: credit balance, approval, tickets held, how many more the per-user cap and the tickets left allow, for each quantity up to 1000 (costs[i] and shortfalls[i] are for i + 1 tickets) the cost and the credit still missing, and skill_retry_at: until when a wrong skill answer closes the question to them (null when it does not). enter_competition() re-checks everything.';
