-- ============================================================================
-- Shapes from the database (issue 24, item 3): the closed sets become SQL enums and the
-- functions with a fixed result shape return declared composite types, so `npm run db:types`
-- carries both into TypeScript (Database["public"]["Enums"] and ["CompositeTypes"]) instead of
-- check constraints copied by hand into unions and zod objects.
--   * Enums, not lookup tables: every set here only ever grows with the code that handles the new
--     value (a value is never removed, which enums cannot do), and an enum is one type the
--     generator names, where a lookup table would be one more join and a foreign key per column.
--   * Enum values are declared in the order the code lists them (the order is the enum's sort
--     order; nothing sorts on these columns by their text).
--   * Functions that take one of these sets as a `text` argument keep `text`: a bad value must go
--     on answering its stable refusal code, not 22P02. They cast inside, after their own check.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- The enums
-- ----------------------------------------------------------------------------
create type public.user_role as enum ('user', 'admin', 'super_admin');
comment on type public.user_role is 'An account''s role: a player, an admin, or a super admin (who also manages admins).';
create type public.kyc_status as enum ('none', 'pending', 'verified', 'rejected');
comment on type public.kyc_status is 'Where an account''s identity check stands.';
create type public.mail_status as enum ('queued', 'sent', 'failed');
comment on type public.mail_status is 'Where a message of the mail outbox stands.';
create type public.ledger_kind as enum (
  'top_up', 'bonus', 'entry', 'refund', 'top_up_reversal', 'admin_adjustment', 'spinner_prize', 'debit');
comment on type public.ledger_kind is 'What moved credit: each row of the credit ledger has one.';
create type public.competition_status as enum ('draft', 'live', 'sold_out', 'closed', 'drawn', 'cancelled');
comment on type public.competition_status is 'A competition''s stored status: draft -> live -> sold_out / closed -> drawn, or cancelled.';
create type public.entry_kind as enum ('paid', 'postal');
comment on type public.entry_kind is 'How an entry was made: paid with credit, or the free postal route.';
create type public.entry_status as enum ('active', 'refunded', 'void');
comment on type public.entry_status is 'Whether an entry''s tickets still count.';
create type public.draw_trigger as enum ('sold_out', 'close_time', 'draw_time');
comment on type public.draw_trigger is 'What made a draw happen.';
create type public.prize_status as enum ('awaiting_claim', 'claimed', 'verified', 'delivered');
comment on type public.prize_status is 'A prize''s fulfilment step: awaiting_claim -> claimed -> verified -> delivered.';
create type public.top_up_status as enum (
  'pending', 'credited', 'failed', 'expired', 'refused_card_cap', 'refunded', 'partially_refunded');
comment on type public.top_up_status is 'Where a top-up stands with the payment provider.';
create type public.break_kind as enum ('break', 'self_exclusion', 'closed');
comment on type public.break_kind is 'What stops a player playing: a break, self-exclusion, or a closed account.';
create type public.complaint_status as enum ('received', 'acknowledged', 'resolved');
comment on type public.complaint_status is 'Where a complaint stands.';
create type public.flag_kind as enum ('limit_reached', 'limit_raises', 'large_top_ups', 'top_up_after_break');
comment on type public.flag_kind is 'The sign of possible harm a player protection flag records.';
create type public.flag_status as enum ('open', 'reviewed');
comment on type public.flag_status is 'Whether an admin has reviewed a player protection flag.';
create type public.intervention_kind as enum ('note', 'contacted', 'restricted', 'lifted', 'closed');
comment on type public.intervention_kind is 'What an admin did about a player''s protection.';

-- ----------------------------------------------------------------------------
-- The columns. A check constraint, default, partial index or policy that names a column is
-- stored with `'…'::text` literals, which an enum column cannot compare with: each is dropped
-- before the column changes type and made again, word for word, after.
-- ----------------------------------------------------------------------------
alter table public.user_account_data drop constraint user_account_data_role_check,
  drop constraint user_account_data_kyc_status_check,
  alter column role drop default, alter column kyc_status drop default;
alter table public.user_account_data
  alter column role type public.user_role using role::public.user_role,
  alter column role set default 'user',
  alter column kyc_status type public.kyc_status using kyc_status::public.kyc_status,
  alter column kyc_status set default 'none';

drop index public.mail_outbox_queued_idx;
drop index public.mail_outbox_failed_idx;
alter table public.mail_outbox drop constraint mail_outbox_status_check, alter column status drop default;
alter table public.mail_outbox
  alter column status type public.mail_status using status::public.mail_status,
  alter column status set default 'queued';
create index mail_outbox_queued_idx on public.mail_outbox (id) where status = 'queued';
create index mail_outbox_failed_idx on public.mail_outbox (created_at) where status = 'failed';

drop index public.credit_ledger_top_up_created_idx;
alter table public.credit_ledger drop constraint credit_ledger_kind_check;
alter table public.credit_ledger alter column kind type public.ledger_kind using kind::public.ledger_kind;
create index credit_ledger_top_up_created_idx on public.credit_ledger (created_at) where kind = 'top_up';

drop policy "competitions: published, or admins" on public.competitions;
drop index public.competitions_due_draw_idx;
alter table public.competitions drop constraint competitions_status_check,
  drop constraint competitions_check4, drop constraint competitions_dates_fixed_check,
  alter column status drop default;
alter table public.competitions
  alter column status type public.competition_status using status::public.competition_status,
  alter column status set default 'draft',
  add constraint competitions_check4 check (status = 'draft' or seed_commitment is not null),
  add constraint competitions_dates_fixed_check
    check (status = 'draft' or (postal_deadline is not null and draw_at is not null));
create index competitions_due_draw_idx on public.competitions (draw_at) where status in ('live', 'sold_out', 'closed');
create policy "competitions: published, or admins" on public.competitions
  for select to anon, authenticated using (status <> 'draft' or (select public.is_admin()));

drop index public.entries_paid_created_idx;
alter table public.entries drop constraint entries_kind_check, drop constraint entries_check,
  drop constraint entries_status_check, alter column status drop default;
alter table public.entries
  alter column kind type public.entry_kind using kind::public.entry_kind,
  alter column status type public.entry_status using status::public.entry_status,
  alter column status set default 'active',
  add constraint entries_check check (kind = 'paid' or amount = 0);
create index entries_paid_created_idx on public.entries (created_at) where kind = 'paid';

alter table public.draws drop constraint draws_trigger_check, drop constraint draws_prize_status_check,
  drop constraint draws_prize_fulfilment_steps, alter column prize_status drop default;
alter table public.draws
  alter column trigger type public.draw_trigger using trigger::public.draw_trigger,
  alter column prize_status type public.prize_status using prize_status::public.prize_status,
  alter column prize_status set default 'awaiting_claim',
  add constraint draws_prize_fulfilment_steps check (
    case prize_status
      when 'awaiting_claim' then claimed_at is null and verified_at is null and delivered_at is null
      when 'claimed' then claimed_at is not null and verified_at is null and delivered_at is null
      when 'verified' then claimed_at is not null and verified_at is not null and delivered_at is null
      when 'delivered' then claimed_at is not null and verified_at is not null and delivered_at is not null
                            and proof_of_delivery is not null
    end);
comment on constraint draws_prize_fulfilment_steps on public.draws is 'Each prize status has its dates: claimed has claimed_at; verified also verified_at; delivered also delivered_at and the proof reference. Awaiting claim has none.';

alter table public.top_ups drop constraint top_ups_status_check, drop constraint top_ups_check,
  alter column status drop default;
alter table public.top_ups
  alter column status type public.top_up_status using status::public.top_up_status,
  alter column status set default 'pending',
  add constraint top_ups_check check (status = 'pending' or status in ('failed', 'expired') or payment_id is not null);

alter table public.player_protections drop constraint player_protections_break_kind_check;
alter table public.player_protections alter column break_kind type public.break_kind using break_kind::public.break_kind;

alter table public.complaints drop constraint complaints_status_check, drop constraint complaints_check,
  alter column status drop default;
alter table public.complaints
  alter column status type public.complaint_status using status::public.complaint_status,
  alter column status set default 'received',
  add constraint complaints_check check (status <> 'resolved' or (response is not null and resolved_at is not null));

alter table public.player_flags drop constraint player_flags_kind_check, drop constraint player_flags_status_check,
  drop constraint player_flags_check, alter column status drop default;
alter table public.player_flags
  alter column kind type public.flag_kind using kind::public.flag_kind,
  alter column status type public.flag_status using status::public.flag_status,
  alter column status set default 'open',
  add constraint player_flags_check check (status = 'open' or (reviewed_at is not null and review_note is not null));

alter table public.player_interventions drop constraint player_interventions_kind_check;
alter table public.player_interventions
  alter column kind type public.intervention_kind using kind::public.intervention_kind;

-- ----------------------------------------------------------------------------
-- Functions that compared or wrote these columns with text: the latest bodies, each with a
-- cast where a checked text argument meets an enum column (or an enum meets a text result).
-- ----------------------------------------------------------------------------
create or replace function public.mark_mail_failed(p_id bigint, p_error text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
  -- Five attempts, then the row is failed for an admin to see.
  update public.mail_outbox
     set status = (case when attempts >= 5 then 'failed' else 'queued' end)::public.mail_status,
         claimed_at = null, error = left(p_error, 1000)
   where id = p_id and status = 'queued';
end;
$function$;

create or replace function private.post_ledger(p_user uuid, p_kind text, p_amount numeric, p_reason text, p_reference text, p_transaction_amount numeric DEFAULT NULL::numeric)
 RETURNS numeric
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
  values (p_user, p_kind::public.ledger_kind, p_amount, new_balance, p_reason, p_reference, p_transaction_amount, auth.uid());
  return new_balance;
end;
$function$;

create or replace function public.list_competitions(p_status text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if p_status is not null and p_status not in ('live', 'sold_out', 'closed', 'drawn', 'cancelled') then
    raise exception 'Unknown status: %', p_status using errcode = '22023', hint = 'invalid_input';
  end if;
  return coalesce((
    select jsonb_agg(private.competition_json(c.id)
                     order by (c.status = 'live') desc,
                              case when c.status = 'live' then c.closes_at end asc,
                              c.closes_at desc)
      from public.competitions c
     where c.status <> 'draft' and (p_status is null or c.status = p_status::public.competition_status)), '[]'::jsonb);
end;
$function$;

create or replace function public.admin_cancel_competition(p_id uuid, p_reason text)
 RETURNS jsonb
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
  return jsonb_build_object('competition', private.competition_json(p_id, true),
                            'refunded_entries', refunded_entries, 'refunded_total', refunded_total);
end;
$function$;

create or replace function public.get_my_ledger_page(p_kind text DEFAULT NULL::text, p_month date DEFAULT NULL::date, p_before bigint DEFAULT NULL::bigint, p_limit integer DEFAULT 50)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  uid uuid := private.require_user();
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  from_at timestamptz := private.month_start(p_month::timestamp at time zone 'Europe/London');
  -- The next month's start, found from inside it, so the clock change cannot shift it.
  to_at timestamptz := private.month_start(from_at + interval '32 days');
  page_rows jsonb;
  last_id bigint;
  more boolean;
begin
  perform private.ledger_filter_check(p_kind);
  select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'kind', x.kind, 'amount', x.amount, 'balance_after', x.balance_after,
                                               'reason', x.reason, 'reference', x.reference, 'created_at', x.created_at)
                            order by x.id desc), '[]'::jsonb),
         min(x.id)
    into page_rows, last_id
    from (select l.* from public.credit_ledger l
           where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
             and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))
             and (p_before is null or l.id < p_before)
           order by l.id desc limit page_size) x;
  more := last_id is not null and exists (
    select 1 from public.credit_ledger l
     where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
       and (from_at is null or (l.created_at >= from_at and l.created_at < to_at)) and l.id < last_id);
  return jsonb_build_object(
    'rows', page_rows,
    'next_before', case when more then last_id end,
    'totals', (select jsonb_build_object('count', count(*),
                                         'credits_in', coalesce(sum(l.amount) filter (where l.amount > 0), 0),
                                         'credits_out', coalesce(-sum(l.amount) filter (where l.amount < 0), 0),
                                         'net', coalesce(sum(l.amount), 0))
                 from public.credit_ledger l
                where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
                  and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))));
end;
$function$;

create or replace function public.get_my_ledger_csv(p_kind text DEFAULT NULL::text, p_month date DEFAULT NULL::date)
 RETURNS text
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  uid uuid := private.require_user();
  from_at timestamptz := private.month_start(p_month::timestamp at time zone 'Europe/London');
  to_at timestamptz := private.month_start(from_at + interval '32 days');
begin
  perform private.ledger_filter_check(p_kind);
  return E'date,kind,amount,balance_after,reference,reason\n'
    || coalesce((select string_agg(
                   to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ',' || l.kind || ','
                   || to_char(l.amount, 'FM999999999990.00') || ',' || to_char(l.balance_after, 'FM999999999990.00') || ','
                   || private.csv_field(l.reference) || ',' || private.csv_field(l.reason) || E'\n',
                   '' order by l.id)
                   from public.credit_ledger l
                  where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
                    and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))), '')
    || 'total,,' || to_char(coalesce((select sum(l.amount) from public.credit_ledger l
                                       where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
                                         and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))), 0),
                            'FM999999999990.00') || E',,,\n';
end;
$function$;

create or replace function public.admin_list_prize_fulfilment(p_status text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  perform private.require_admin();
  if p_status is not null and private.prize_step_index(p_status) is null then
    raise exception 'Prize status must be awaiting claim, claimed, verified or delivered' using errcode = '22023', hint = 'invalid_input';
  end if;
  return coalesce((
    select jsonb_agg(private.prize_fulfilment_json(d.id)
                     order by private.prize_step_index(d.prize_status::text), d.drawn_at desc)
      from public.draws d
     where p_status is null or d.prize_status = p_status::public.prize_status), '[]'::jsonb);
end;
$function$;

create or replace function public.admin_list_users(p_search text DEFAULT NULL::text, p_role text DEFAULT NULL::text, p_approval text DEFAULT NULL::text, p_kyc text DEFAULT NULL::text, p_cursor text DEFAULT NULL::text, p_limit integer DEFAULT 25, p_flagged boolean DEFAULT NULL::boolean)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 100);
  search text := nullif(trim(p_search), '');
  pattern text;
  search_id uuid;
  cursor_at timestamptz;
  cursor_id uuid;
  page_rows jsonb;
  fetched integer;
  next_cursor text;
begin
  perform private.require_admin();
  if char_length(search) > 200 then
    raise exception 'Search for at most 200 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_role is not null and p_role not in ('user', 'admin', 'super_admin') then
    raise exception 'Unknown role: %', p_role using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_approval is not null and p_approval not in ('approved', 'pending', 'rejected', 'deleted') then
    raise exception 'Unknown approval state: %', p_approval using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_kyc is not null and p_kyc not in ('none', 'pending', 'verified', 'rejected') then
    raise exception 'Unknown KYC status: %', p_kyc using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The cursor is what next_cursor said: the last row's created_at (seconds since the epoch, a dot,
  -- six digits of microseconds: exact, no floating point) and its id.
  if p_cursor is not null then
    if p_cursor !~ '^[0-9]{1,12}\.[0-9]{6}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'That page link is not valid' using errcode = '22023', hint = 'invalid_input';
    end if;
    cursor_at := to_timestamp(split_part(split_part(p_cursor, ':', 1), '.', 1)::bigint)
                 + split_part(split_part(p_cursor, ':', 1), '.', 2)::integer * interval '1 microsecond';
    cursor_id := split_part(p_cursor, ':', 2)::uuid;
  end if;
  if search ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    search_id := search::uuid;
  elsif search is not null then
    pattern := '%' || replace(replace(replace(search, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;

  select coalesce(jsonb_agg(private.admin_user_row(r.id) order by r.created_at desc, r.id desc)
                    filter (where r.n <= page_size), '[]'::jsonb),
         count(*)
    into page_rows, fetched
    from (select a.id, a.created_at, row_number() over (order by a.created_at desc, a.id desc) as n
            from public.user_account_data a
            join public.profiles p on p.id = a.id
           where (search is null or a.id = search_id or p.name ilike pattern or p.email ilike pattern)
             and (p_role is null or a.role = p_role::public.user_role)
             and (p_kyc is null or a.kyc_status = p_kyc::public.kyc_status)
             -- Flagged: with a player-protection flag awaiting review (player_flags, *_player_protection.sql).
             and (p_flagged is null
                  or p_flagged = exists (select 1 from public.player_flags f where f.user_id = a.id and f.status = 'open'))
             and (p_approval is null
                  or (p_approval = 'deleted' and a.deleted_at is not null)
                  or (p_approval = 'approved' and a.deleted_at is null and a.approved)
                  or (p_approval = 'rejected' and a.deleted_at is null and not a.approved and a.rejected_at is not null)
                  or (p_approval = 'pending' and a.deleted_at is null and not a.approved and a.rejected_at is null))
             and (cursor_at is null or (a.created_at, a.id) < (cursor_at, cursor_id))
           order by a.created_at desc, a.id desc
           limit page_size + 1) r;

  if fetched > page_size then
    select (extract(epoch from date_trunc('second', a.created_at)))::bigint || '.'
           || lpad((extract(microseconds from a.created_at)::bigint % 1000000)::text, 6, '0') || ':' || a.id
      into next_cursor
      from public.user_account_data a
     where a.id = ((page_rows -> (page_size - 1)) ->> 'id')::uuid;
  end if;
  return jsonb_build_object('rows', page_rows, 'next_cursor', next_cursor);
end;
$function$;

create or replace function public.admin_update_user(p_user_id uuid, p_name text, p_approval text, p_kyc_status text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  admin_id uuid := private.require_admin();
  acct public.user_account_data;
  old_name text;
  new_name text := trim(p_name);
  old_approval text;
  changes jsonb := '{}'::jsonb;
begin
  if new_name is null or char_length(new_name) not between 1 and 100 then
    raise exception 'Name must be between 1 and 100 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_approval is null or p_approval not in ('approved', 'pending') then
    raise exception 'Approval must be approved or pending (reject with a reason on the approvals screen)'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_kyc_status is null or p_kyc_status not in ('none', 'pending', 'verified', 'rejected') then
    raise exception 'KYC status must be none, pending, verified or rejected' using errcode = '22023', hint = 'invalid_input';
  end if;
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  select p.name into old_name from public.profiles p where p.id = p_user_id;
  old_approval := case when acct.approved then 'approved' when acct.rejected_at is not null then 'rejected' else 'pending' end;

  if p_approval = 'pending' and old_approval = 'approved' and acct.role <> 'user' then
    raise exception 'Admins cannot be unapproved: a super admin must change their role first'
      using errcode = 'P0001', hint = 'admin_not_rejectable';
  end if;

  if new_name <> old_name then
    update public.profiles set name = new_name, updated_at = now() where id = p_user_id;
    changes := changes || jsonb_build_object('name', jsonb_build_object('old', old_name, 'new', new_name));
  end if;
  -- A rejected account left at "pending" stays rejected; only a change of state is written.
  if p_approval = 'approved' and old_approval <> 'approved' then
    update public.user_account_data
       set approved = true, approved_at = now(), approved_by = admin_id, rejected_at = null, rejection_reason = null,
           updated_at = now()
     where id = p_user_id;
    changes := changes || jsonb_build_object('approval', jsonb_build_object('old', old_approval, 'new', 'approved'));
    perform private.queue_mail(p_user_id, 'account_approved', 'Your LabCash account is approved',
      'Good news: your LabCash account has been approved. You can now add credit and enter competitions.');
  elsif p_approval = 'pending' and old_approval = 'approved' then
    update public.user_account_data
       set approved = false, approved_at = null, approved_by = null, updated_at = now()
     where id = p_user_id;
    changes := changes || jsonb_build_object('approval', jsonb_build_object('old', old_approval, 'new', 'pending'));
  end if;
  if p_kyc_status <> acct.kyc_status::text then
    update public.user_account_data
       set kyc_status = p_kyc_status::public.kyc_status,
           is_verified = p_kyc_status = 'verified',
           verified_at = case when p_kyc_status = 'verified' then now() end,
           updated_at = now()
     where id = p_user_id;
    changes := changes || jsonb_build_object('kyc_status', jsonb_build_object('old', acct.kyc_status, 'new', p_kyc_status));
  end if;
  if changes <> '{}'::jsonb then
    perform private.log_activity('user.updated', p_user_id, changes);
  end if;
  return private.admin_user_row(p_user_id) || jsonb_build_object('changes', changes);
end;
$function$;

create or replace function public.admin_set_user_role(p_user_id uuid, p_role text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  admin_id uuid := private.require_super_admin();
  acct public.user_account_data;
begin
  if p_role is null or p_role not in ('user', 'admin', 'super_admin') then
    raise exception 'Role must be user, admin or super_admin' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_user_id = admin_id then
    raise exception 'You cannot change your own role' using errcode = '42501', hint = 'self_change_refused';
  end if;
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  if p_role <> acct.role::text then
    -- An admin is always approved: the approval redirect would otherwise shut them out of /admin.
    update public.user_account_data
       set role = p_role::public.user_role,
           approved = approved or p_role <> 'user',
           approved_at = case when not approved and p_role <> 'user' then now() else approved_at end,
           approved_by = case when not approved and p_role <> 'user' then admin_id else approved_by end,
           rejected_at = case when p_role <> 'user' then null else rejected_at end,
           rejection_reason = case when p_role <> 'user' then null else rejection_reason end,
           updated_at = now()
     where id = p_user_id;
    perform private.log_activity('user.role_changed', p_user_id,
      jsonb_build_object('role', jsonb_build_object('old', acct.role, 'new', p_role)));
  end if;
  return private.admin_user_row(p_user_id);
end;
$function$;

create or replace function public.admin_list_player_flags(p_status text DEFAULT 'open'::text, p_limit integer DEFAULT 100)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_status text := coalesce(p_status, 'open');
  page_size integer := least(greatest(coalesce(p_limit, 100), 1), 500);
begin
  perform private.require_admin();
  if v_status not in ('open', 'reviewed') then
    raise exception 'Status must be open or reviewed' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The queue is always current: anything new since the cron's last run is raised first.
  perform private.raise_player_flags();
  return (select coalesce(jsonb_agg(private.player_flag_json(f.id)
                                    order by case when v_status = 'open' then f.raised_at end,
                                             f.reviewed_at desc), '[]'::jsonb)
            from (select x.id, x.raised_at, x.reviewed_at from public.player_flags x
                   where x.status = v_status::public.flag_status
                   order by case when v_status = 'open' then x.raised_at end, x.reviewed_at desc
                   limit page_size) f);
end;
$function$;

create or replace function public.admin_list_mail_outbox(p_campaign_id uuid DEFAULT NULL::uuid, p_status text DEFAULT NULL::text, p_before bigint DEFAULT NULL::bigint, p_limit integer DEFAULT 50)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  page_rows jsonb;
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  if p_status is not null and p_status not in ('queued', 'sent', 'failed') then
    raise exception 'Status must be queued, sent or failed' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- One row more than the page shows says whether there is an older page.
  select coalesce(jsonb_agg(to_jsonb(r) - 'n' order by r.id desc) filter (where r.n <= page_size), '[]'::jsonb),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select m.id, m.to_email, m.to_user, p.name as to_name, m.kind, m.subject, m.status, m.transport,
                 m.attempts, m.error, m.created_at, m.sent_at, m.campaign_id,
                 row_number() over (order by m.id desc) as n
            from public.mail_outbox m
            left join public.profiles p on p.id = m.to_user
           where (p_campaign_id is null or m.campaign_id = p_campaign_id)
             and (p_status is null or m.status = p_status::public.mail_status)
             and (p_before is null or m.id < p_before)
           order by m.id desc
           limit page_size + 1) r;
  return jsonb_build_object(
    'rows', page_rows,
    'next_before', case when fetched > page_size then last_id end,
    'campaign', case when p_campaign_id is not null then private.mail_campaign_json(p_campaign_id) end);
end;
$function$;

create or replace function private.record_intervention(p_admin uuid, p_user_id uuid, p_kind text, p_note text, p_flag_id uuid)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  acct public.user_account_data;
  note text := btrim(replace(coalesce(p_note, ''), E'\r\n', E'\n'));
  p public.player_protections;
  new_id uuid;
begin
  if p_kind is null or p_kind not in ('note', 'contacted', 'restricted', 'lifted', 'closed') then
    raise exception 'The intervention must be a note, contacted, restricted, lifted or closed' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(note) not between 3 and 2000 then
    raise exception 'Write a note of 3 to 2000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_user_id = p_admin then
    raise exception 'You cannot record an intervention on your own account' using errcode = '42501', hint = 'self_change_refused';
  end if;
  -- The account lock, as top-ups, entries and the player's own protection changes take it.
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  insert into public.player_protections (user_id) values (p_user_id) on conflict (user_id) do nothing;
  select * into p from public.player_protections where user_id = p_user_id for update;
  case p_kind
    when 'restricted' then
      update public.player_protections set restricted_at = coalesce(restricted_at, now()), updated_at = now()
       where user_id = p_user_id;
    when 'lifted' then
      if p.restricted_at is null then
        raise exception 'This player is not restricted' using errcode = 'P0001', hint = 'not_restricted';
      end if;
      update public.player_protections set restricted_at = null, updated_at = now() where user_id = p_user_id;
    when 'closed' then
      -- As close_account does it: for good; sign-in and history stay.
      update public.player_protections
         set break_kind = 'closed', closed_at = coalesce(closed_at, now()), updated_at = now()
       where user_id = p_user_id;
    else
      null;
  end case;
  insert into public.player_interventions (user_id, kind, note, flag_id, created_by)
  values (p_user_id, p_kind::public.intervention_kind, note, p_flag_id, p_admin)
  returning id into new_id;
  perform private.log_activity('protection.intervention', p_user_id,
    jsonb_build_object('intervention_id', new_id, 'kind', p_kind, 'note', note, 'flag_id', p_flag_id));
  return new_id;
end;
$function$;

create or replace function public.fail_top_up(p_top_up_id uuid, p_status text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
    update public.top_ups set status = p_status::public.top_up_status, updated_at = now() where id = t.id;
    perform private.log_activity('top_up.' || p_status, t.id, '{}'::jsonb);
    t.status := p_status;
  end if;
  return jsonb_build_object('status', t.status, 'top_up_id', t.id);
end;
$function$;

create or replace function private.prize_move(p_draw_id uuid, p_status text, p_proof text)
 RETURNS draws
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;

create or replace function private.protection_state(p player_protections)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select case
    when p.closed_at is not null then 'closed'
    when p.break_until is not null and p.break_until > now() then p.break_kind::text
    else 'active'
  end
$function$;

create or replace function private.competition_phase(c competitions, p_now timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select case
    when c.status in ('draft', 'cancelled', 'drawn') then c.status::text
    when c.status = 'live' and p_now < c.opens_at then 'upcoming'
    when c.status = 'live' and p_now < c.closes_at and c.tickets_sold < c.total_tickets then 'live'
    when p_now < c.postal_deadline then 'postal_window'
    when p_now < c.draw_at or c.tickets_sold + c.postal_tickets > 0 then 'awaiting_draw'
    else 'closed'
  end;
$function$;

-- ----------------------------------------------------------------------------
-- Declared result shapes. A function that returns one of these types answers the same JSON through
-- PostgREST as its jsonb version did (one composite: an object; a set: an array, [] when empty; to_json
-- renders numeric, integers and timestamptz as to_jsonb did), and `npm run db:types` names its fields.
-- Postgres cannot mark a composite's field not null, so the generated types say `| null` on each;
-- lib/data names the fields the SQL always fills (lib/data/rpc.ts `declared`) and checks them.
-- Changing a return type needs drop and create: each function is made again with its comment and
-- exactly its grants.
-- ----------------------------------------------------------------------------

-- Winners -------------------------------------------------------------------
create type public.winner_summary as (
  draw_id uuid, competition_id uuid, slug text, title text, prize_description text, prize_value numeric(12, 2),
  image text, winner_display_name text, winner_town text, winning_number integer, ticket_count integer,
  drawn_at timestamptz, prize_status public.prize_status, delivered_at timestamptz);
comment on type public.winner_summary is 'One draw as the public winners page lists it (list_winners).';

drop function public.list_winners();
create function public.list_winners() returns setof public.winner_summary
language sql stable security definer set search_path = '' as $$
  select d.id, c.id, c.slug, c.title, c.prize_description, c.prize_value, c.images[1], d.winner_display_name,
         d.winner_town, d.winning_number, d.ticket_count, d.drawn_at, d.prize_status, d.delivered_at
    from public.draws d
    join public.competitions c on c.id = d.competition_id
   order by d.drawn_at desc
$$;
comment on function public.list_winners() is 'Public: every draw, newest first: prize, winner''s first name and initial and town (if given), winning ticket, draw time, id for the verification page, and the prize''s progress (status, delivery date; never the winner''s address or the proof).';
grant execute on function public.list_winners() to anon, authenticated, service_role;

-- Complaints ----------------------------------------------------------------
create type public.complaint as (
  id uuid, reference text, status public.complaint_status, subject text, related_reference text, details text,
  acknowledge_by timestamptz, respond_by timestamptz, acknowledged_at timestamptz, resolved_at timestamptz,
  response text, created_at timestamptz);
comment on type public.complaint is 'A complaint as its player sees it: reference, status, deadlines and our answer.';

create type public.admin_complaint as (
  id uuid, reference text, status public.complaint_status, subject text, related_reference text, details text,
  acknowledge_by timestamptz, respond_by timestamptz, acknowledged_at timestamptz, resolved_at timestamptz,
  response text, created_at timestamptz,
  user_id uuid, email text, name text, overdue boolean);
comment on type public.admin_complaint is 'A complaint as the admin queue lists it: the player''s fields, the complainant and whether a deadline has passed unanswered.';

create type public.admin_complaint_detail as (
  id uuid, reference text, status public.complaint_status, subject text, related_reference text, details text,
  acknowledge_by timestamptz, respond_by timestamptz, acknowledged_at timestamptz, resolved_at timestamptz,
  response text, created_at timestamptz,
  user_id uuid, email text, name text, overdue boolean, handled_by_name text);
comment on type public.admin_complaint_detail is 'One complaint for an admin: the queue''s fields and who handled it.';

create function private.complaint_row(c public.complaints) returns public.complaint
language sql stable set search_path = '' as $$
  select c.id, c.reference, c.status, c.subject, c.related_reference, c.details, c.acknowledge_by, c.respond_by,
         c.acknowledged_at, c.resolved_at, c.response, c.created_at
$$;
comment on function private.complaint_row(public.complaints) is 'A complaint as its player sees it.';

create function private.admin_complaint_row(c public.complaints) returns public.admin_complaint
language sql stable set search_path = '' as $$
  select c.id, c.reference, c.status, c.subject, c.related_reference, c.details, c.acknowledge_by, c.respond_by,
         c.acknowledged_at, c.resolved_at, c.response, c.created_at,
         c.user_id,
         (select p.email from public.profiles p where p.id = c.user_id),
         (select p.name from public.profiles p where p.id = c.user_id),
         c.status <> 'resolved' and ((c.status = 'received' and now() > c.acknowledge_by) or now() > c.respond_by)
$$;
comment on function private.admin_complaint_row(public.complaints) is 'A complaint as the admin queue lists it: with the complainant''s name and e-mail and whether a deadline has passed unanswered.';

drop function public.submit_complaint(text, text, text);
create function public.submit_complaint(p_subject text, p_reference text, p_details text) returns public.complaint
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  subject text := btrim(coalesce(p_subject, ''));
  related text := nullif(btrim(coalesce(p_reference, '')), '');
  details text := btrim(coalesce(p_details, ''));
  new_row public.complaints%rowtype;
begin
  if char_length(subject) not between 3 and 120 then
    raise exception 'Give a subject between 3 and 120 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if related is not null and char_length(related) > 100 then
    raise exception 'The reference must be at most 100 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(details) not between 20 and 5000 then
    raise exception 'Describe the problem in 20 to 5000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The account lock queues one player's submissions, so the daily count below is exact.
  perform private.create_account_rows(uid);
  perform 1 from public.user_account_data a where a.id = uid for update;
  if (select count(*) from public.complaints c where c.user_id = uid and c.created_at > now() - interval '24 hours') >= 3 then
    raise exception 'You have sent 3 complaints in the last 24 hours: we will answer each of them. Please wait before sending another, or e-mail us'
      using errcode = 'P0001', hint = 'rate_limited';
  end if;
  insert into public.complaints (user_id, subject, related_reference, details, acknowledge_by, respond_by)
  values (uid, subject, related, details, private.add_working_days(now(), 2), now() + interval '28 days')
  returning * into new_row;
  perform private.queue_mail(uid, 'complaint_received', 'Your complaint ' || new_row.reference || ': ' || subject,
    format(E'We have received your complaint.\n\nReference: %s\nSubject: %s\n\nWe will acknowledge it by %s and give you our '
           'final answer by %s. If you are not happy with our answer, you can take it to %s (%s), free of charge.',
           new_row.reference, subject,
           to_char(new_row.acknowledge_by at time zone 'Europe/London', 'FMDD FMMonth YYYY'),
           to_char(new_row.respond_by at time zone 'Europe/London', 'FMDD FMMonth YYYY'),
           private.setting('dispute_resolution_body') ->> 'name', private.setting('dispute_resolution_body') ->> 'url'));
  perform private.log_activity('complaint.submitted', new_row.id, jsonb_build_object('reference', new_row.reference));
  return private.complaint_row(new_row);
end;
$$;
comment on function public.submit_complaint(text, text, text) is 'Signed-in users: records a complaint (subject, optional competition or payment reference, details), at most 3 a day, and mails a confirmation with the reference and the deadlines.';
grant execute on function public.submit_complaint(text, text, text) to authenticated;

drop function public.get_my_complaints();
create function public.get_my_complaints() returns setof public.complaint
language sql stable security definer set search_path = '' as $$
  select r.*
    from public.complaints c
   cross join lateral private.complaint_row(c) r
   where c.user_id = private.require_user()
   order by c.created_at desc
$$;
comment on function public.get_my_complaints() is 'The caller''s complaints, newest first, with status, deadlines and our answer.';
grant execute on function public.get_my_complaints() to authenticated;

drop function public.admin_list_complaints(text);
create function public.admin_list_complaints(p_status text default null) returns setof public.admin_complaint
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  if p_status is not null and p_status not in ('received', 'acknowledged', 'resolved') then
    raise exception 'Unknown status: %', p_status using errcode = '22023', hint = 'invalid_input';
  end if;
  return query
    select r.*
      from public.complaints c
     cross join lateral private.admin_complaint_row(c) r
     where p_status is null or c.status = p_status::public.complaint_status
     order by c.status = 'resolved', c.respond_by;
end;
$$;
comment on function public.admin_list_complaints(text) is 'Admins: complaints (optionally one status), open ones first by answer deadline, with the complainant and an overdue flag.';
grant execute on function public.admin_list_complaints(text) to authenticated;

drop function public.admin_get_complaint(uuid);
create function public.admin_get_complaint(p_id uuid) returns public.admin_complaint_detail
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.complaints%rowtype;
  r public.admin_complaint;
begin
  perform private.require_admin();
  select * into c from public.complaints where id = p_id;
  if not found then
    raise exception 'Complaint not found' using errcode = 'PT404', hint = 'complaint_not_found';
  end if;
  r := private.admin_complaint_row(c);
  return (r.id, r.reference, r.status, r.subject, r.related_reference, r.details, r.acknowledge_by, r.respond_by,
          r.acknowledged_at, r.resolved_at, r.response, r.created_at, r.user_id, r.email, r.name, r.overdue,
          (select p.name from public.profiles p where p.id = c.handled_by))::public.admin_complaint_detail;
end;
$$;
comment on function public.admin_get_complaint(uuid) is 'Admins: one complaint as the queue lists it (complainant, overdue flag) plus who handled it (handled_by_name); complaint_not_found for an unknown id.';
grant execute on function public.admin_get_complaint(uuid) to authenticated;

drop function public.admin_update_complaint(uuid, text, text);
create function public.admin_update_complaint(p_id uuid, p_status text, p_response text default null)
returns public.admin_complaint
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
     set status = p_status::public.complaint_status,
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
  return private.admin_complaint_row(updated);
end;
$$;
comment on function public.admin_update_complaint(uuid, text, text) is 'Admins: acknowledges a complaint or resolves it with the final answer; the complainant is mailed; audited.';
grant execute on function public.admin_update_complaint(uuid, text, text) to authenticated;

-- Every complaint result above has its declared type now.
drop function private.complaint_json(public.complaints, boolean);

-- Responsible play ------------------------------------------------------------
-- A player's state is derived (private.protection_state: closed, else a running break's kind, else active),
-- a closed set all the same: its own enum, so the protections type can name it.
create type public.protection_state as enum ('active', 'break', 'self_exclusion', 'closed');
comment on type public.protection_state is 'What a player may do now: play (active), or not during a break or self-exclusion, or ever again (closed).';

create type public.protections as (
  monthly_limit numeric, pending_limit numeric, pending_limit_from timestamptz,
  month_topped_up numeric, month_credited numeric, month_held numeric, month_spent numeric,
  monthly_remaining numeric, state public.protection_state, break_until timestamptz, closed_at timestamptz,
  limit_increase_delay_hours numeric);
comment on type public.protections is 'A player''s protections: the monthly limit (and a pending increase), this month''s figures, what is left, and their state.';

-- The latest protections_json body (20261127110100_true_month_figures), as a row.
create function private.protections_row(p_user uuid) returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections := private.protections_of(p_user);
  topped_up numeric := private.month_topped_up(p_user);
  spent numeric := private.month_spent(p_user);
  state public.protection_state := private.protection_state(p);
begin
  return (
    p.monthly_limit,
    p.pending_limit,
    p.pending_limit_from,
    -- What the limit counts: credited and still-open checkouts together.
    topped_up,
    private.month_credited(p_user),
    private.month_held(p_user),
    spent,
    -- One figure for both things the limit caps: what may still go in and be spent this month.
    case when p.monthly_limit is null then null else greatest(p.monthly_limit - greatest(topped_up, spent), 0) end,
    state,
    case when state in ('break', 'self_exclusion') then p.break_until end,
    p.closed_at,
    (private.setting('limit_increase_delay_hours'))::numeric)::public.protections;
end;
$$;
comment on function private.protections_row(uuid) is 'A player''s protections as get_my_protections returns them: month_credited (paid) and month_held (open checkouts) are shown; month_topped_up, their sum, is what the limit counts.';

-- admin_get_user nests them in its jsonb.
create or replace function private.protections_json(p_user uuid) returns jsonb
language sql security definer set search_path = '' as $$
  select to_jsonb(private.protections_row(p_user))
$$;
comment on function private.protections_json(uuid) is 'private.protections_row as jsonb, for results that nest it.';

drop function private.start_block(uuid, text, timestamptz);
create function private.start_block(p_user uuid, p_kind text, p_until timestamptz) returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  p public.player_protections;
begin
  -- The account lock, as top-ups and entries take it: one in progress finishes first.
  perform private.create_account_rows(p_user);
  perform 1 from public.user_account_data a where a.id = p_user for update;
  insert into public.player_protections (user_id) values (p_user) on conflict (user_id) do nothing;
  select * into p from public.player_protections where user_id = p_user for update;
  if p.closed_at is not null then
    raise exception 'Your account is closed' using errcode = 'P0001', hint = 'account_closed';
  end if;
  -- Never shortened or weakened: a block can only be extended, or made stronger.
  update public.player_protections
     set break_until = greatest(case when break_until > now() then break_until end, p_until),
         break_kind = (case when break_until > now() and break_kind = 'self_exclusion' then 'self_exclusion' else p_kind end)::public.break_kind,
         updated_at = now()
   where user_id = p_user;
  perform private.log_activity('protections.' || p_kind, p_user, jsonb_build_object('until', p_until));
  return private.protections_row(p_user);
end;
$$;
comment on function private.start_block(uuid, text, timestamptz) is 'Starts or extends a break or self-exclusion; never shortens one or turns a self-exclusion into a break.';

drop function public.get_my_protections();
create function public.get_my_protections() returns public.protections
language plpgsql security definer set search_path = '' as $$
begin
  return private.protections_row(private.require_user_first_step());
end;
$$;
comment on function public.get_my_protections() is 'Signed-in users: their monthly limit (and pending increase), money put in and spent this month, what is left, and their state (active, break, self_exclusion, closed).';
grant execute on function public.get_my_protections() to authenticated;

drop function public.set_monthly_limit(numeric);
create function public.set_monthly_limit(p_limit numeric) returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  p public.player_protections;
  delay numeric := (private.setting('limit_increase_delay_hours'))::numeric;
begin
  if p_limit is not null and (not private.is_pounds(p_limit) or p_limit < 0 or p_limit > 1000000) then
    raise exception 'The limit must be an amount in pounds and pence from £0 to £1,000,000, or none' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  perform 1 from public.user_account_data a where a.id = uid for update;
  insert into public.player_protections (user_id) values (uid) on conflict (user_id) do nothing;
  p := private.protections_of(uid);
  if p_limit is not null and (p.monthly_limit is null or p_limit <= p.monthly_limit) then
    -- A decrease (or a first limit) protects the player, so it applies at once.
    update public.player_protections
       set monthly_limit = p_limit, pending_limit = null, pending_limit_from = null, limit_set_at = now(), updated_at = now()
     where user_id = uid;
  elsif p.monthly_limit is null then
    -- No limit, and none asked for: nothing to wait for.
    update public.player_protections
       set pending_limit = null, pending_limit_from = null, limit_set_at = now(), updated_at = now()
     where user_id = uid;
  else
    -- An increase, or removing the limit, waits for the cooling-off.
    update public.player_protections
       set pending_limit = p_limit, pending_limit_from = now() + make_interval(secs => delay * 3600),
           limit_set_at = now(), updated_at = now()
     where user_id = uid;
  end if;
  perform private.log_activity('protections.limit', uid, jsonb_build_object('limit', p_limit));
  return private.protections_row(uid);
end;
$$;
comment on function public.set_monthly_limit(numeric) is 'Signed-in users: sets the monthly limit (null for none; £0 allowed). A decrease applies at once; an increase or removal waits limit_increase_delay_hours.';
grant execute on function public.set_monthly_limit(numeric) to authenticated;

drop function public.take_break(text);
create function public.take_break(p_period text) returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_period is null or p_period not in ('1 week', '1 month', '3 months') then
    raise exception 'A break lasts 1 week, 1 month or 3 months' using errcode = '22023', hint = 'invalid_input';
  end if;
  return private.start_block(uid, 'break', now() + p_period::interval);
end;
$$;
comment on function public.take_break(text) is 'Signed-in users: a break from top-ups, entries and marketing mail for 1 week, 1 month or 3 months; it cannot be ended early.';
grant execute on function public.take_break(text) to authenticated;

drop function public.self_exclude(integer);
create function public.self_exclude(p_months integer) returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_months is null or p_months < 6 or p_months > 120 then
    raise exception 'Self-exclusion lasts from 6 months to 10 years' using errcode = '22023', hint = 'invalid_input';
  end if;
  return private.start_block(uid, 'self_exclusion', now() + make_interval(months => p_months));
end;
$$;
comment on function public.self_exclude(integer) is 'Signed-in users: self-exclusion for p_months (6 to 120); it cannot be ended early.';
grant execute on function public.self_exclude(integer) to authenticated;

drop function public.close_account();
create function public.close_account() returns public.protections
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  perform private.create_account_rows(uid);
  perform 1 from public.user_account_data a where a.id = uid for update;
  insert into public.player_protections (user_id) values (uid) on conflict (user_id) do nothing;
  update public.player_protections
     set break_kind = 'closed', closed_at = coalesce(closed_at, now()), updated_at = now()
   where user_id = uid;
  perform private.log_activity('protections.closed', uid, '{}'::jsonb);
  return private.protections_row(uid);
end;
$$;
comment on function public.close_account() is 'Signed-in users: closes the account for good (sign-in and history stay; top-ups, entries and marketing stop). Cannot be undone.';
grant execute on function public.close_account() to authenticated;

-- Marketing consent -----------------------------------------------------------
create type public.consent_source as enum ('sign_up', 'profile', 'unsubscribe_link', 'not_asked');
comment on type public.consent_source is 'Where a marketing consent choice was made; not_asked: set off by a migration for an account that was never asked.';

alter table public.marketing_consents drop constraint marketing_consents_source_check;
alter table public.marketing_consents alter column source type public.consent_source using source::public.consent_source;

create or replace function private.record_marketing_consent(p_user uuid, p_given boolean, p_source text,
  p_wording text default null) returns void
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set email_notifications = p_given, updated_at = now() where id = p_user;
  insert into public.marketing_consents (user_id, given, wording, source)
  values (p_user, p_given, coalesce(p_wording, private.marketing_consent_wording()), p_source::public.consent_source);
end;
$$;

create type public.marketing_consent as (given boolean, "at" timestamptz, wording text, source public.consent_source);
comment on type public.marketing_consent is 'A player''s marketing consent now: given, and the time, wording and source of their last choice (null when none is recorded).';

drop function public.get_my_marketing_consent();
drop function public.set_my_marketing_consent(boolean);
drop function private.marketing_consent_json(uuid);
create function private.marketing_consent_row(p_user uuid) returns public.marketing_consent
language sql stable security definer set search_path = '' as $$
  select coalesce(p.email_notifications, false), c.created_at, c.wording, c.source
  from public.profiles p
  left join lateral (select mc.created_at, mc.wording, mc.source from public.marketing_consents mc
                      where mc.user_id = p.id order by mc.id desc limit 1) c on true
  where p.id = p_user
$$;
comment on function private.marketing_consent_row(uuid) is 'A player''s marketing consent now: given, and when, on what wording and where the last choice was made (null when none is recorded).';

create function public.get_my_marketing_consent() returns public.marketing_consent
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  perform private.create_account_rows(uid);
  return private.marketing_consent_row(uid);
end;
$$;
comment on function public.get_my_marketing_consent() is 'The caller''s marketing consent: given, and the time, wording and source of their last choice.';
grant execute on function public.get_my_marketing_consent() to authenticated;

create function public.set_my_marketing_consent(p_given boolean) returns public.marketing_consent
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_given is null then
    raise exception 'Choose whether we may e-mail you about new competitions and results' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  if p_given is distinct from (select p.email_notifications from public.profiles p where p.id = uid) then
    perform private.record_marketing_consent(uid, p_given, 'profile');
  end if;
  return private.marketing_consent_row(uid);
end;
$$;
comment on function public.set_my_marketing_consent(boolean) is 'The caller gives (true) or withdraws (false) marketing consent in one call, recorded with time, wording and source profile; returns the consent now.';
grant execute on function public.set_my_marketing_consent(boolean) to authenticated;

-- ----------------------------------------------------------------------------
-- More closed sets: mail campaigns and transport, payments, prizes and operations. As above, each
-- check constraint or partial index that names a column is made again after it changes type.
-- ----------------------------------------------------------------------------
create type public.mail_kind as enum ('marketing', 'service');
comment on type public.mail_kind is 'What a mail campaign is: marketing (needs consent, held back during breaks) or a service notice.';
create type public.mail_segment as enum ('all_players', 'competition_entrants', 'no_recent_entry');
comment on type public.mail_segment is 'Who a mail campaign is for.';
create type public.mail_transport as enum ('smtp', 'outbox');
comment on type public.mail_transport is 'How a message left: by SMTP, or kept in the outbox (no SMTP_URL).';
create type public.alert_kind as enum ('draw_overdue', 'cron_stale', 'webhook_failing', 'payment_needs_person', 'webhook_refused');
comment on type public.alert_kind is 'What an operations alert is about.';
create type public.webhook_status as enum ('handled', 'failed', 'mismatch');
comment on type public.webhook_status is 'What became of a payment provider''s event.';
create type public.payment_issue as enum ('mismatch', 'owed');
comment on type public.payment_issue is 'A payment that needs a person: one that does not match its top-up, or money owed after a refund.';
create type public.prize_choice as enum ('prize', 'cash');
comment on type public.prize_choice is 'What a winner chose: the prize, or its cash alternative.';
create type public.payment_provider as enum ('stripe', 'test');
comment on type public.payment_provider is 'Who took a top-up''s payment: Stripe, or the labelled test checkout.';
create type public.card_funding as enum ('debit', 'credit', 'prepaid', 'wallet', 'unknown');
comment on type public.card_funding is 'How the card that paid a top-up is funded (credit cards are refused).';
create type public.auth_refusal as enum ('sign_in', 'sign_in_limited', 'code', 'code_limited');
comment on type public.auth_refusal is 'A refused sign-in or two-step code, and whether a rate limit refused it.';

alter table public.mail_campaigns drop constraint mail_campaigns_kind_check,
  drop constraint mail_campaigns_segment_check, drop constraint mail_campaigns_check;
alter table public.mail_campaigns
  alter column kind type public.mail_kind using kind::public.mail_kind,
  alter column segment type public.mail_segment using segment::public.mail_segment,
  add constraint mail_campaigns_check check ((segment = 'competition_entrants') = (competition_id is not null));

alter table public.mail_outbox drop constraint mail_outbox_transport_check;
alter table public.mail_outbox alter column transport type public.mail_transport using transport::public.mail_transport;

alter table public.ops_alerts drop constraint ops_alerts_kind_check;
alter table public.ops_alerts alter column kind type public.alert_kind using kind::public.alert_kind;

drop index public.webhook_deliveries_open_idx;
alter table public.webhook_deliveries drop constraint webhook_deliveries_status_check;
alter table public.webhook_deliveries
  alter column status type public.webhook_status using status::public.webhook_status;
create index webhook_deliveries_open_idx on public.webhook_deliveries (last_seen_at desc) where status <> 'handled';

alter table public.payment_resolutions drop constraint payment_resolutions_kind_check;
alter table public.payment_resolutions alter column kind type public.payment_issue using kind::public.payment_issue;

alter table public.draws drop constraint draws_prize_choice_check;
alter table public.draws alter column prize_choice type public.prize_choice using prize_choice::public.prize_choice;

alter table public.top_ups drop constraint top_ups_provider_check, drop constraint top_ups_funding_check;
alter table public.top_ups
  alter column provider type public.payment_provider using provider::public.payment_provider,
  alter column funding type public.card_funding using funding::public.card_funding;

alter table public.auth_refusal_counts drop constraint auth_refusal_counts_kind_check;
alter table public.auth_refusal_counts alter column kind type public.auth_refusal using kind::public.auth_refusal;

-- The functions that wrote these columns with text, each with the cast after its own check.
create or replace function public.mark_mail_sent(p_id bigint, p_transport text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
  if p_transport not in ('smtp', 'outbox') then
    raise exception 'Transport must be smtp or outbox' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.mail_outbox
     set status = 'sent', sent_at = now(), transport = p_transport::public.mail_transport, error = null
   where id = p_id and status = 'queued';
end;
$function$;

create or replace function public.confirm_top_up(p_top_up_id uuid, p_payment_id text, p_funding text, p_amount_paid numeric)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
         set status = 'refused_card_cap', payment_id = p_payment_id, funding = p_funding::public.card_funding, refusal_message = message, updated_at = now()
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
     set status = 'credited', payment_id = p_payment_id, funding = p_funding::public.card_funding, credited_at = now(), updated_at = now()
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
$function$;

create or replace function public.create_top_up(p_amount numeric, p_provider text, p_purpose jsonb DEFAULT NULL::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
  values (uid, p_amount, (quote ->> 'bonus')::numeric, p_provider::public.payment_provider, purpose)
  returning id into new_id;
  perform private.log_activity('top_up.created', new_id, jsonb_build_object('amount', p_amount, 'provider', p_provider));
  return jsonb_build_object('id', new_id, 'amount', p_amount, 'bonus', (quote ->> 'bonus')::numeric,
                            'credit', (quote ->> 'credit')::numeric, 'status', 'pending');
end;
$function$;

create or replace function public.admin_send_mail(p_kind text, p_segment text, p_competition_id uuid, p_subject text, p_body text, p_request_id uuid DEFAULT NULL::uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  admin_id uuid := private.require_admin();
  v_competition uuid := case when p_segment = 'competition_entrants' then p_competition_id end;
  v_subject text;
  v_body text;
  v_campaign uuid;
  v_mail bigint;
  v_token text;
  r record;
  queued integer := 0;
begin
  perform private.mail_compose_check(p_kind, p_segment, v_competition, p_subject, p_body);
  v_subject := btrim(p_subject);
  v_body := btrim(replace(p_body, E'\r\n', E'\n'));

  -- A second submit of the same compose screen (double click, resubmitted page) sends nothing more.
  insert into public.mail_campaigns (kind, segment, competition_id, subject, body_text, sent_by, request_id)
  values (p_kind::public.mail_kind, p_segment::public.mail_segment, v_competition, v_subject, v_body, admin_id, p_request_id)
  on conflict (request_id) do nothing
  returning id into v_campaign;
  if v_campaign is null then
    select c.id into v_campaign from public.mail_campaigns c where c.request_id = p_request_id;
    return private.mail_campaign_json(v_campaign) || jsonb_build_object('already_sent', true);
  end if;

  -- One outbox row per recipient; a marketing mail gets its own unsubscribe token, in its footer and header.
  for r in select m.user_id, m.name, m.email
             from private.mail_recipients(p_kind, p_segment, v_competition) m
            order by m.user_id loop
    v_token := case when p_kind = 'marketing' then private.new_unsubscribe_token(r.user_id) end;
    insert into public.mail_outbox (to_email, to_user, kind, subject, body_text, campaign_id, list_unsubscribe)
    values (r.email, r.user_id, p_kind, v_subject,
            private.mail_render_with_link(p_kind, r.name, v_body, private.unsubscribe_url(v_token, false)),
            v_campaign, private.unsubscribe_url(v_token, true))
    returning id into v_mail;
    if v_token is not null then
      update public.marketing_unsubscribe_tokens t set mail_id = v_mail
       where t.token_hash = extensions.digest(v_token, 'sha256');
    end if;
    queued := queued + 1;
  end loop;
  if queued = 0 then
    -- Nothing is kept: the campaign row goes with the refusal.
    raise exception 'Nobody in this segment may receive this mail now' using errcode = 'P0001', hint = 'no_recipients';
  end if;
  update public.mail_campaigns c set recipients = queued where c.id = v_campaign;

  perform private.log_activity('mail.sent', v_campaign,
    jsonb_build_object('kind', p_kind, 'segment', p_segment, 'competition_id', v_competition,
                       'subject', v_subject, 'recipients', queued));
  return private.mail_campaign_json(v_campaign) || jsonb_build_object('already_sent', false);
end;
$function$;

create or replace function public.claim_prize(p_draw_id uuid, p_choice text, p_delivery_address text DEFAULT NULL::text)
 RETURNS jsonb
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
  return (select jsonb_build_object('draw_id', x.id, 'prize_choice', x.prize_choice, 'claimed_at', x.claimed_at,
                                    'prize_status', x.prize_status, 'delivery_address', x.delivery_address)
            from public.draws x where x.id = p_draw_id);
end;
$function$;

create or replace function private.raise_alert(p_kind text, p_incident text, p_subject text, p_detail text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  new_id bigint;
  link text := coalesce(private.setting('site_url') #>> '{}', 'http://localhost:3000') || '/admin/system';
  sa record;
begin
  insert into public.ops_alerts (kind, incident, subject, detail)
  values (p_kind::public.alert_kind, p_incident, p_subject, p_detail)
  on conflict (incident) do nothing
  returning id into new_id;
  if new_id is null then
    return false;
  end if;
  for sa in
    select a.id from public.user_account_data a join auth.users u on u.id = a.id
     where a.role = 'super_admin' and u.email is not null
  loop
    perform private.queue_mail(sa.id, 'ops_alert', 'LabCash alert: ' || p_subject,
      p_detail || E'\n\nSee the System page: ' || link || E'\n\nYou get this because you are a super admin of LabCash.');
  end loop;
  return true;
end;
$function$;

create or replace function public.record_webhook_delivery(p_provider text, p_event_id text, p_event_type text, p_status text, p_http_status integer, p_error text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
  if p_status not in ('handled', 'failed', 'mismatch') or p_provider is distinct from 'stripe'
     or coalesce(char_length(p_event_id), 0) not between 1 and 255 then
    raise exception 'Not a webhook delivery' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.webhook_deliveries (provider, event_id, event_type, status, http_status, last_error)
  values (p_provider, p_event_id, left(coalesce(p_event_type, 'unknown'), 255), p_status::public.webhook_status, p_http_status, left(p_error, 500))
  on conflict (provider, event_id) do update
     set status = excluded.status, http_status = excluded.http_status, last_error = excluded.last_error,
         attempts = public.webhook_deliveries.attempts + 1, last_seen_at = now();
end;
$function$;

create or replace function public.record_auth_refusal(p_kind text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
  if p_kind not in ('sign_in', 'sign_in_limited', 'code', 'code_limited') then
    raise exception 'Not a kind of refusal' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.auth_refusal_counts (hour, kind, refusals)
  values (date_trunc('hour', now()), p_kind::public.auth_refusal, 1)
  on conflict (hour, kind) do update set refusals = public.auth_refusal_counts.refusals + 1;
  delete from public.auth_refusal_counts where hour < now() - interval '30 days';
end;
$function$;

create or replace function public.admin_resolve_payment(p_kind text, p_reference text, p_note text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  uid uuid;
  subject uuid;
begin
  uid := private.require_super_admin();
  if p_kind is null or p_reference is null
     or not exists (select 1 from private.payments_needing_person() p where p.kind = p_kind and p.reference = p_reference) then
    raise exception 'That payment does not need a person' using errcode = 'P0001', hint = 'payment_not_open';
  end if;
  if char_length(btrim(coalesce(p_note, ''))) not between 3 and 2000 then
    raise exception 'Say what was done, in 3 to 2000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.payment_resolutions (kind, reference, note, resolved_by)
  values (p_kind::public.payment_issue, p_reference, btrim(p_note), uid);
  update public.ops_alerts set acknowledged_at = now(), acknowledged_by = uid
   where incident = 'payment_' || p_kind || ':' || p_reference and acknowledged_at is null;
  if p_kind = 'owed' then
    select t.user_id into subject from public.top_ups t where t.id::text = p_reference;
  end if;
  perform private.log_activity('system.payment_resolved', subject,
    jsonb_build_object('kind', p_kind, 'reference', p_reference, 'note', btrim(p_note)));
end;
$function$;
