// get_entry_quote, get_my_entries and get_my_prizes return declared types now (docs/decisions/007,
// the fourth batch): public.entry_quote (its block a public.refusal), setof public.my_entry (competition
// and draw nested) and setof public.my_prize (competition and story nested). The old bodies (30-competitions.sql
// before 20261201200001) run here word for word beside the new functions for the same callers, through a
// competition's life (bought, a wrong answer, sold out, drawn, claimed, consented, verified, delivered) and for
// players who cannot play (pending, rejected, on a break) or have nothing yet, and both answers are compared as JSON.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, claimsOf, dbPerFile, eachPage, type Caller } from "./support";

const db = dbPerFile();

const OLD_BODIES = `
create schema old;
create function old.get_entry_quote(p_competition_id uuid) returns jsonb
language plpgsql set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
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
    'skill_retry_at', case when c.skill_question is not null then private.skill_answer_retry_at(uid, c.id) end,
    'block', private.play_block(uid));
end;
$$;

create function old.get_my_entries() returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
        'entry_id', e.id,
        'kind', e.kind,
        'quantity', e.quantity,
        'amount', e.amount,
        'status', e.status,
        'created_at', e.created_at,
        'ticket_numbers', to_jsonb(private.entry_ticket_numbers(e.id)),
        'competition', jsonb_build_object(
          'id', c.id, 'slug', c.slug, 'title', c.title, 'status', c.status, 'image', c.images[1],
          'closes_at', c.closes_at, 'total_tickets', c.total_tickets, 'tickets_sold', c.tickets_sold),
        'draw', (select jsonb_build_object(
                   'id', d.id, 'winning_number', d.winning_number, 'drawn_at', d.drawn_at,
                   'won', d.winning_ticket_id in (select t.id from public.tickets t where t.entry_id = e.id),
                   'prize_description', c.prize_description,
                   'cash_alternative', c.cash_alternative,
                   'prize_choice', case when d.winner_user_id = e.user_id
                                         and d.winning_ticket_id in (select t.id from public.tickets t where t.entry_id = e.id)
                                        then d.prize_choice end,
                   'prize_status', d.prize_status)
                 from public.draws d where d.competition_id = c.id)
      ) order by e.created_at desc, e.id), '[]'::jsonb)
    from public.entries e
    join public.competitions c on c.id = e.competition_id
    where e.user_id = private.require_user());
end;
$$;

create function old.get_my_prizes() returns jsonb
language plpgsql stable set search_path = '' as $$
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

create function old.admin_list_instant_win_fulfilment() returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  perform private.require_admin();
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', w.id, 'competition_title', c.title, 'slug', c.slug, 'prize', p.title, 'kind', p.kind,
             'ticket_number', w.ticket_number, 'display_name', w.display_name, 'user_id', w.user_id,
             'email', u.email, 'postal_name', pe.name, 'postal_address', pe.address,
             'status', w.status, 'won_at', w.won_at, 'delivered_at', w.delivered_at)
             order by w.won_at desc), '[]'::jsonb)
      from public.instant_wins w
      join public.competitions c on c.id = w.competition_id
      join public.instant_win_prizes p on p.id = w.prize_id
      left join auth.users u on u.id = w.user_id
      left join public.postal_entries pe on pe.entry_id = w.entry_id
     where w.status <> 'awarded');
end;
$$;

create function old.get_my_ledger_page(p_kind text DEFAULT NULL::text, p_month date DEFAULT NULL::date, p_before bigint DEFAULT NULL::bigint, p_limit integer DEFAULT 50)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
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

create function old.competition_json(p_id uuid, p_admin boolean default false) returns jsonb
language plpgsql stable set search_path = '' as $$
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
      'ticket_numbering', c.ticket_numbering,
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

create function old.ticket_bundles(c public.competitions) returns jsonb
language sql stable set search_path = '' as $$
  -- The entry form's quick picks (components/competitions/entry-panel.tsx) that one person may buy now.
  select coalesce(jsonb_agg(jsonb_build_object('tickets', q, 'cost', c.ticket_price * q) order by q), '[]'::jsonb)
    from unnest(array[1, 5, 10, 25]) q
   where q <= least(c.max_tickets_per_user, c.total_tickets - c.tickets_sold)
$$;

create function old.list_competitions(p_status text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  if p_status is not null and p_status not in ('live', 'sold_out', 'closed', 'drawn', 'cancelled') then
    raise exception 'Unknown status: %', p_status using errcode = '22023', hint = 'invalid_input';
  end if;
  return coalesce((
    select jsonb_agg(old.competition_json(c.id)
                     order by (c.status = 'live') desc,
                              case when c.status = 'live' then c.closes_at end asc,
                              c.closes_at desc)
      from public.competitions c
     where c.status <> 'draft' and (p_status is null or c.status = p_status::public.competition_status)), '[]'::jsonb);
end;
$function$;

create function old.get_competition(p_slug text) returns jsonb
language plpgsql stable set search_path = '' as $$
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
  return old.competition_json(c.id)
      || jsonb_build_object('my_tickets', to_jsonb(mine), 'bundles', old.ticket_bundles(c));
end;
$$;

create function old.admin_list_competitions() returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  perform private.require_admin();
  return coalesce((select jsonb_agg(old.competition_json(c.id, true) order by c.created_at desc)
                     from public.competitions c), '[]'::jsonb);
end;
$$;

create function old.admin_get_competition(p_id uuid) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  result jsonb;
begin
  perform private.require_admin();
  result := old.competition_json(p_id, true);
  if result is null then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  return result;
end;
$$;

create function old.prize_fulfilment_json(p_draw_id uuid) returns jsonb
language sql stable set search_path = '' as $$
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

create function old.admin_competition_detail(p_id uuid) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  perform private.require_admin();
  select * into c from public.competitions where id = p_id;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  return jsonb_build_object(
    'competition', old.competition_json(p_id, true),
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
          'ticket_numbers', to_jsonb(private.entry_ticket_numbers(e.id)),
          'status', e.status,
          'recorded_by', r.name,
          'created_at', pe.created_at) order by e.first_ticket), '[]'::jsonb)
      from public.postal_entries pe
      join public.entries e on e.id = pe.entry_id
      left join public.profiles p on p.id = pe.user_id
      left join public.profiles r on r.id = pe.recorded_by
      where pe.competition_id = p_id),
    'fulfilment', (select old.prize_fulfilment_json(d.id) from public.draws d where d.competition_id = p_id));
end;
$$;

create function old.admin_list_prize_fulfilment(p_status text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  perform private.require_admin();
  if p_status is not null and private.prize_step_index(p_status) is null then
    raise exception 'Prize status must be awaiting claim, claimed, verified or delivered' using errcode = '22023', hint = 'invalid_input';
  end if;
  return coalesce((
    select jsonb_agg(old.prize_fulfilment_json(d.id)
                     order by private.prize_step_index(d.prize_status::text), d.drawn_at desc)
      from public.draws d
     where p_status is null or d.prize_status = p_status::public.prize_status), '[]'::jsonb);
end;
$function$;

create function old.admin_competition_history() returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  rows jsonb;
begin
  perform private.require_admin();
  select coalesce(jsonb_agg(x.row order by x.finished_at desc, x.id), '[]'::jsonb)
    into rows
    from (select c.id,
                 coalesce(d.drawn_at, c.cancelled_at, c.closed_at, c.draw_at, c.closes_at) as finished_at,
                 jsonb_build_object(
                   'id', c.id, 'slug', c.slug, 'title', c.title, 'status', c.status,
                   'closes_at', c.closes_at, 'draw_at', c.draw_at,
                   'finished_at', coalesce(d.drawn_at, c.cancelled_at, c.closed_at, c.draw_at, c.closes_at),
                   'ticket_price', c.ticket_price,
                   'total_tickets', c.total_tickets,
                   'tickets_sold', c.tickets_sold,
                   'postal_tickets', c.postal_tickets,
                   'revenue', m.revenue,
                   'refunded_total', m.refunded,
                   'prize_value', c.prize_value,
                   'cash_alternative', c.cash_alternative,
                   'prize_choice', d.prize_choice,
                   'prize_status', d.prize_status,
                   'draw_id', d.id,
                   'winner_display_name', d.winner_display_name,
                   'prize_cost', pc.cost,
                   'net', m.revenue - pc.cost) as row
            from public.competitions c
            left join public.draws d on d.competition_id = c.id
            cross join lateral (
              select coalesce(sum(e.amount) filter (where e.kind = 'paid' and e.status = 'active'), 0) as revenue,
                     coalesce(sum(e.amount) filter (where e.status = 'refunded'), 0) as refunded
                from public.entries e where e.competition_id = c.id) m
            -- Only a drawn competition has a prize to pay: its value, or the cash the winner chose.
            cross join lateral (
              select case when d.id is null then 0::numeric(12, 2)
                          when d.prize_choice = 'cash' and c.cash_alternative is not null then c.cash_alternative
                          else c.prize_value end as cost) pc
           where c.status in ('drawn', 'closed', 'cancelled')) x;
  return jsonb_build_object(
    'rows', rows,
    'totals', jsonb_build_object(
      'competitions', jsonb_array_length(rows),
      'revenue', (select coalesce(sum((r ->> 'revenue')::numeric), 0) from jsonb_array_elements(rows) r),
      'refunded_total', (select coalesce(sum((r ->> 'refunded_total')::numeric), 0) from jsonb_array_elements(rows) r),
      'prize_cost', (select coalesce(sum((r ->> 'prize_cost')::numeric), 0) from jsonb_array_elements(rows) r),
      'net', (select coalesce(sum((r ->> 'net')::numeric), 0) from jsonb_array_elements(rows) r)));
end;
$$;

create function old.entry_list_rows(p_competition_id uuid, p_from integer, p_to integer, p_limit integer, p_descending boolean)
returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  page jsonb;
begin
  -- Two queries rather than one ordered by a case expression, so both walk the ticket-number index.
  with chunk as (
    select x.number, x.id, x.user_id, x.entry_id from (
      select t.number, t.id, t.user_id, t.entry_id from public.tickets t
       where t.competition_id = p_competition_id and t.number > p_from and t.number < p_to and not p_descending
       order by t.number limit p_limit) x
    union all
    select y.number, y.id, y.user_id, y.entry_id from (
      select t.number, t.id, t.user_id, t.entry_id from public.tickets t
       where t.competition_id = p_competition_id and t.number > p_from and t.number < p_to and p_descending
       order by t.number desc limit p_limit) y
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'number', c.number, 'ticket_id', c.id,
           'entrant', case when e.kind = 'postal' then 'Postal entry'
                           else private.public_name(p.name, coalesce(p.show_initials_only, false)) end,
           'town', case when e.kind = 'postal' or coalesce(p.show_initials_only, false) then null else p.town end,
           'route', case when e.kind = 'postal' then 'postal' else 'online' end)
           order by c.number), '[]'::jsonb)
    into page
    from chunk c
    join public.entries e on e.id = c.entry_id
    left join public.profiles p on p.id = c.user_id;
  return page;
end;
$$;

create function old.get_entry_list(
  p_slug text, p_after integer default null, p_before integer default null, p_ticket integer default null,
  p_limit integer default 50
) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  c public.competitions := private.entry_list_competition(p_slug);
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  rows jsonb;
  first_no integer;
  last_no integer;
begin
  if p_ticket is not null then
    rows := old.entry_list_rows(c.id, p_ticket - 1, p_ticket + 1, 1, false);
  elsif p_before is not null then
    rows := old.entry_list_rows(c.id, 0, p_before, page_size, true);
  else
    rows := old.entry_list_rows(c.id, coalesce(p_after, 0), 2147483647, page_size, false);
  end if;
  first_no := (rows -> 0 ->> 'number')::integer;
  last_no := (rows -> -1 ->> 'number')::integer;
  return jsonb_build_object(
    'competition', jsonb_build_object(
      'id', c.id, 'slug', c.slug, 'title', c.title, 'status', c.status, 'closes_at', c.closes_at,
      'postal_deadline', c.postal_deadline, 'draw_at', c.draw_at, 'total_tickets', c.total_tickets,
      'tickets_sold', c.tickets_sold, 'postal_tickets', c.postal_tickets),
    'draw', (select jsonb_build_object('id', d.id, 'algorithm', d.algorithm, 'ticket_list_hash', d.ticket_list_hash)
               from public.draws d where d.competition_id = c.id),
    'ticket_count', c.tickets_sold + c.postal_tickets,
    'rows', rows,
    'has_before', first_no is not null and exists (select 1 from public.tickets t where t.competition_id = c.id and t.number < first_no),
    'has_after', last_no is not null and exists (select 1 from public.tickets t where t.competition_id = c.id and t.number > last_no));
end;
$$;

create function old.run_due_draws() returns jsonb
language plpgsql set search_path = '' as $$
declare
  r record;
  draw_id uuid;
  drawn jsonb := '[]'::jsonb;
  closed jsonb := '[]'::jsonb;
begin
  if not private.is_service_role() then
    perform private.require_admin();
  end if;
  -- skip locked: a competition another caller is working on is left to it; the
  -- next run picks up anything still due.
  for r in
    select c.id from public.competitions c
     where c.draw_at <= now()
       and (c.status in ('live', 'sold_out')
            or (c.status = 'closed' and exists (select 1 from public.tickets t where t.competition_id = c.id)))
       and not exists (select 1 from public.draws d where d.competition_id = c.id)
     order by c.draw_at
     for update skip locked
  loop
    draw_id := private.draw_competition(r.id, 'draw_time');
    if draw_id is not null then
      drawn := drawn || jsonb_build_object('competition_id', r.id, 'draw_id', draw_id);
    else
      closed := closed || to_jsonb(r.id);
    end if;
  end loop;
  return jsonb_build_object('drawn', drawn, 'closed', closed);
end;
$$;

create function old.instant_wins_json(p_competition_id uuid, p_admin boolean default false) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'commitment', c.instant_win_commitment,
    'algorithm', 'labcash-instant-win-v1',
    'ticket_count', c.total_tickets,
    'prizes', coalesce((select jsonb_agg(jsonb_build_object(
                 'position', p.position, 'kind', p.kind, 'title', p.title, 'credit_amount', p.credit_amount,
                 'quantity', p.quantity,
                 'won', (select count(*) from public.instant_wins w where w.prize_id = p.id)) order by p.position)
               from public.instant_win_prizes p where p.competition_id = c.id), '[]'::jsonb),
    'wins', coalesce((select jsonb_agg(jsonb_build_object(
                 'ticket_number', w.ticket_number, 'winning_number', w.winning_number, 'prize_position', p.position,
                 'prize', p.title, 'display_name', w.display_name, 'ticket_id', w.ticket_id, 'won_at', w.won_at)
                 order by w.won_at, w.ticket_number)
               from public.instant_wins w join public.instant_win_prizes p on p.id = w.prize_id
              where w.competition_id = c.id), '[]'::jsonb),
    'seed_hex', d.seed_hex,
    'numbers', case when d.seed_hex is not null then
                 (select coalesce(jsonb_agg(jsonb_build_object('slot', n.slot, 'number', n.number, 'prize_position', p.position)
                                  order by n.slot), '[]'::jsonb)
                    from public.instant_win_numbers n join public.instant_win_prizes p on p.id = n.prize_id
                   where n.competition_id = c.id) end)
  from public.competitions c
  left join public.draws d on d.competition_id = c.id
  where c.id = p_competition_id and (p_admin or c.status <> 'draft')
$$;

create function old.get_instant_wins(p_slug text) returns jsonb
language sql stable set search_path = '' as $$
  select old.instant_wins_json(c.id, public.is_admin()) from public.competitions c where c.slug = p_slug
$$;

create function old.get_ticket_list_csv(p_slug text, p_after integer default 0, p_limit integer default 100000) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  c public.competitions := private.entry_list_competition(p_slug);
  chunk integer := least(greatest(coalesce(p_limit, 100000), 1), 100000);
  after_no integer := greatest(coalesce(p_after, 0), 0);
  last_no integer;
begin
  select max(x.number) into last_no
    from (select t.number from public.tickets t where t.competition_id = c.id and t.number > after_no
           order by t.number limit chunk) x;
  return jsonb_build_object(
    'csv', case when after_no = 0 then 'ticket_number,ticket_id' || E'\n' else '' end
           || private.ticket_list_lines(c.id, after_no, chunk),
    'last_number', last_no,
    'done', last_no is null or not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number > last_no));
end;
$$;

create function old.get_entrants_csv(p_slug text, p_after integer default 0, p_limit integer default 100000) returns jsonb
language plpgsql stable set search_path = '' as $$
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
  return jsonb_build_object(
    'csv', case when after_no = 0 then 'ticket_number,ticket_id,entrant,town,route' || E'\n' else '' end || lines,
    'last_number', last_no,
    'done', last_no is null or not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number > last_no));
end;
$$;

create function old.admin_competition_entries_csv(p_id uuid, p_after integer default 0, p_limit integer default 10000)
returns jsonb
language plpgsql stable set search_path = '' as $$
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
  return jsonb_build_object(
    'csv', case when after_no = 0
                then 'entry_id,created_at,route,status,first_ticket,last_ticket,tickets,amount,user_id,name,email,postal_address,postcode' || E'\n'
                else '' end || lines,
    'last_number', last_no,
    'done', last_no is null
            or not exists (select 1 from public.entries e where e.competition_id = p_id and e.first_ticket > last_no));
end;
$$;

create function old.set_my_winner_story_consent(p_draw_id uuid, p_consent boolean) returns jsonb
language plpgsql set search_path = '' as $$
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

create function old.admin_record_winner_story_consent(p_draw_id uuid, p_consent boolean, p_note text)
returns jsonb
language plpgsql set search_path = '' as $$
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

create function old.admin_set_winner_story(p_draw_id uuid, p_photo_path text, p_photo_alt text, p_quote text)
returns jsonb
language plpgsql set search_path = '' as $$
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

create function old.admin_remove_winner_story(p_draw_id uuid) returns jsonb
language plpgsql set search_path = '' as $$
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

create function old.admin_record_postal_entry(
  p_competition_id uuid, p_user_id uuid, p_name text, p_address text, p_answer text
) returns jsonb
language plpgsql set search_path = '' as $$
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
      format(E'We have received your free postal entry to %s.\\n\\nYour ticket numbers: %s (%s %s, the same chance per ticket as a paid one)\\n\\n'
             'The draw is on %s. It is verifiable: its seed commitment is %s.',
             c.title, private.ticket_numbers_text(numbers), tickets,
             case when tickets = 1 then 'ticket' else 'tickets' end,
             to_char(c.draw_at at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI'), c.seed_commitment));
  end if;
  perform private.log_activity('competition.postal_entry', c.id,
    jsonb_build_object('entry_id', new_entry, 'user_id', p_user_id, 'first_ticket', numbers[1], 'tickets', tickets));
  return jsonb_build_object(
    'entry_id', new_entry,
    'ticket_numbers', to_jsonb(numbers),
    'tickets', tickets,
    'instant_wins', private.award_instant_wins(new_entry));
end;
$$;
`;

const NO_QUESTION = { skill_question: null, skill_options: null, skill_answer: null };

let admin: string;
beforeAll(async () => {
  await db().pg.exec(OLD_BODIES);
  admin = await db().createUser({ role: "super_admin", approved: true });
});

/** The old body's answer for `userId` (or another caller), as the same caller. */
const old = (userId: string | Caller, fn: string, args: unknown[] = []) =>
  db().oldAnswer(typeof userId === "string" ? asUser(userId) : userId, fn, args);

/** The new function's answer and the old body's as one caller compared (or both refusals' hints); the new answer. */
async function sameAnswer<T = unknown>(
  caller: Caller,
  fn: string,
  args: Record<string, unknown>,
  oldArgs: unknown[],
): Promise<T | null> {
  const now = await db().rpc<T>(caller, fn, args);
  const then = await old(caller, fn, oldArgs).then(
    (value) => ({ data: value, hint: null }),
    (e: { hint?: string }) => ({ data: null, hint: e.hint ?? null }),
  );
  expect({ data: now.error ? null : now.data, hint: now.error?.hint ?? null }).toEqual(then);
  return now.error ? null : now.data;
}

async function sameQuote(userId: string, competitionId: string): Promise<Record<string, unknown>> {
  const now = await db().call<Record<string, unknown>>(asUser(userId), "get_entry_quote", {
    p_competition_id: competitionId,
  });
  expect(now).toEqual(await old(userId, "get_entry_quote", [competitionId]));
  return now;
}

async function sameEntriesAndPrizes(userId: string): Promise<{ entries: unknown[]; prizes: unknown[] }> {
  const entries = await db().call<unknown[]>(asUser(userId), "get_my_entries");
  expect(entries).toEqual(await old(userId, "get_my_entries"));
  const prizes = await db().call<Array<{ prize_status: string; competition: { title: string } }>>(
    asUser(userId),
    "get_my_prizes",
  );
  expect(prizes).toEqual(await old(userId, "get_my_prizes"));
  // The account dashboard's one read (get_my_dashboard) names the same prizes awaiting a claim, newest first.
  const dashboard = await db().call<{ unclaimed_prizes: string[] }>(asUser(userId), "get_my_dashboard");
  expect(dashboard.unclaimed_prizes).toEqual(
    prizes.filter((p) => p.prize_status === "awaiting_claim").map((p) => p.competition.title),
  );
  return { entries, prizes };
}

describe("the player's competition calls as declared types", () => {
  it("answer the entry quote as the jsonb version did: cap, sold out, a wrong answer, a break, pending and rejected", async () => {
    const buyer = await db().createPlayer({ credits: 20 });
    const asked = await db().createCompetition(admin, {
      ticket_price: 2.5,
      total_tickets: 40,
      max_tickets_per_user: 6,
    });
    const plain = await db().createCompetition(admin, { ticket_price: 0.99, total_tickets: 3, ...NO_QUESTION });

    expect(await sameQuote(buyer, asked)).toMatchObject({ cap_left: 6, block: null, skill_retry_at: null });
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: asked, p_quantity: 2, p_answer: "4" });
    await sameQuote(buyer, asked);
    // A wrong answer closes the question for a while: skill_retry_at is set.
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: asked, p_quantity: 1, p_answer: "5" });
    expect((await sameQuote(buyer, asked)).skill_retry_at).not.toBeNull();

    await sameQuote(buyer, plain);
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: plain, p_quantity: 3 });
    // Sold out: nothing left to price, so both arrays are empty.
    expect(await sameQuote(buyer, plain)).toMatchObject({ tickets_left: 0, costs: [], shortfalls: [] });

    const resting = await db().createPlayer({ credits: 5 });
    await db().call(asUser(resting), "take_break", { p_period: "1 week" });
    expect((await sameQuote(resting, asked)).block).toMatchObject({ code: "on_break" });

    const pending = await db().createUser();
    expect(await sameQuote(pending, asked)).toMatchObject({ approved: false, rejected: false });
    const rejected = await db().createUser();
    await db().sql("update public.user_account_data set rejected_at = now() where id = $1", [rejected]);
    expect(await sameQuote(rejected, asked)).toMatchObject({ approved: false, rejected: true });
  });

  it("answer entries and prizes as the jsonb versions did, from nothing through a prize delivered", async () => {
    const winner = await db().createPlayer({ credits: 30 });
    const other = await db().createPlayer({ credits: 30 });
    expect(await sameEntriesAndPrizes(winner)).toEqual({ entries: [], prizes: [] });

    const live = await db().createCompetition(admin, { ticket_price: 1.25, cash_alternative: 80 });
    await db().call(asUser(winner), "enter_competition", { p_competition_id: live, p_quantity: 2, p_answer: "4" });
    await db().call(asUser(other), "enter_competition", { p_competition_id: live, p_quantity: 1, p_answer: "4" });
    const { drawId } = await db().wonBy(admin, winner, { cash_alternative: 90 });

    const drawn = await sameEntriesAndPrizes(winner);
    expect(drawn.entries).toHaveLength(2);
    expect(drawn.prizes).toMatchObject([{ draw_id: drawId, prize_choice: null, story: null }]);
    await sameEntriesAndPrizes(other);

    await db().call(asUser(winner), "claim_prize", { p_draw_id: drawId, p_choice: "cash" });
    await sameEntriesAndPrizes(winner);
    await db().call(asUser(winner), "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: true });
    await db().call(asUser(admin), "admin_update_prize_fulfilment", { p_draw_id: drawId, p_status: "verified" });
    expect((await sameEntriesAndPrizes(winner)).prizes).toMatchObject([
      { prize_choice: "cash", prize_status: "verified", story: { consent: true, published: false } },
    ]);
    await db().call(asUser(admin), "admin_update_prize_fulfilment", {
      p_draw_id: drawId,
      p_status: "delivered",
      p_proof_of_delivery: "BACS 1234",
    });
    expect((await sameEntriesAndPrizes(winner)).prizes).toMatchObject([{ proof_of_delivery: "BACS 1234" }]);

    // The first competition drawn as well: one of its two entrants won it, and only the winner's entry says so.
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
      [live],
    );
    await db().call(asUser(admin), "run_due_draws");
    const won = (id: string) =>
      sameEntriesAndPrizes(id).then(({ entries }) =>
        (entries as { competition: { id: string }; draw: { won: boolean } | null }[])
          .filter((e) => e.competition.id === live)
          .map((e) => e.draw?.won),
      );
    expect([...(await won(winner)), ...(await won(other))].sort()).toEqual([false, true]);
  });
});

describe("the admin's instant wins to deliver as a declared type", () => {
  it("answers what the jsonb version did: nothing yet, prizes to deliver, one delivered, a postal entrant's", async () => {
    expect(await db().call(asUser(admin), "admin_list_instant_win_fulfilment")).toEqual([]);
    const prizes = async (prizeList: unknown[], fields: Record<string, unknown>) => {
      const id = await db().createCompetition(admin, { ...NO_QUESTION, ...fields }, false);
      await db().call(asUser(admin), "admin_set_instant_win_prizes", { p_competition_id: id, p_prizes: prizeList });
      await db().call(asUser(admin), "admin_publish_competition", { p_id: id });
      return id;
    };
    // Every ticket wins: two prints bought in one purchase, and a postal letter without an account.
    const prints = await prizes([{ kind: "physical", title: "A signed print", quantity: 2 }], { total_tickets: 2 });
    const player = await db().createPlayer({ credits: 10 });
    await db().call(asUser(player), "enter_competition", { p_competition_id: prints, p_quantity: 2 });
    const letters = await prizes([{ kind: "credit", credit_amount: 3, quantity: 2 }], { total_tickets: 2 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: letters,
      p_user_id: null,
      p_name: "Omar Farouk",
      p_address: "1 High St, Leeds LS1 1AA",
      p_answer: null,
    });

    // One purchase's wins share their moment, which neither version orders: compare them in id order within it.
    const inOrder = (list: unknown) =>
      (list as { id: string; won_at: string }[]).toSorted(
        (a, b) => Date.parse(b.won_at) - Date.parse(a.won_at) || a.id.localeCompare(b.id),
      );
    const same = async () => {
      const now = await db().call<{ id: string; won_at: string; postal_name: string | null }[]>(
        asUser(admin),
        "admin_list_instant_win_fulfilment",
      );
      expect(now.map((w) => w.won_at)).toEqual(inOrder(now).map((w) => w.won_at));
      expect(inOrder(now)).toEqual(inOrder(await old(admin, "admin_list_instant_win_fulfilment")));
      return now;
    };
    const listed = await same();
    expect(listed.map((w) => w.postal_name).sort()).toEqual(["Omar Farouk", null, null]);
    await db().call(asUser(admin), "admin_mark_instant_win_delivered", { p_id: listed[listed.length - 1].id });
    expect((await same()).filter((w) => (w as { status?: string }).status === "delivered")).toHaveLength(1);
  });
});

describe("get_my_ledger_page as a declared type", () => {
  it("answers every page, filter and total what the jsonb version did, and an empty filter the same", async () => {
    const player = await db().createPlayer({ credits: 40 });
    await db().call(asUser(admin), "admin_adjust_credit", {
      p_user_id: player,
      p_amount: -2.5,
      p_reason: "Correction",
    });
    const competition = await db().createCompetition(admin, { ticket_price: 1.2, ...NO_QUESTION });
    for (const quantity of [1, 3]) {
      await db().call(asUser(player), "enter_competition", { p_competition_id: competition, p_quantity: quantity });
    }
    const thisMonth = new Date().toISOString().slice(0, 8) + "01";
    for (const [kind, month] of [
      [null, null],
      ["entry", null],
      [null, thisMonth],
      ["top_up", "2020-01-01"],
    ] as const) {
      await eachPage<number>(async (before) => {
        const now: { next_before: number | null } = await db().call(asUser(player), "get_my_ledger_page", {
          p_kind: kind,
          p_month: month,
          p_before: before,
          p_limit: 2,
        });
        expect(now).toEqual(await old(player, "get_my_ledger_page", [kind, month, before, 2]));
        return now.next_before;
      });
    }
    const empty = await db().createPlayer();
    expect(await db().call(asUser(empty), "get_my_ledger_page")).toEqual(await old(empty, "get_my_ledger_page"));
  });
});

describe("the public competition calls as declared types", () => {
  it("answer the list, a page and the admin's competition JSON as the jsonb versions did, through a competition's life", async () => {
    const player = await db().createPlayer({ credits: 40 });
    const sameEverywhere = async () => {
      for (const status of [null, "live", "sold_out", "drawn", "cancelled"]) {
        expect(await db().call(anon, "list_competitions", status ? { p_status: status } : {})).toEqual(
          await old(anon, "list_competitions", [status]),
        );
      }
      const competitions = await db().sql<{ id: string; slug: string; status: string }>(
        "select id, slug, status from public.competitions order by created_at",
      );
      for (const c of competitions) {
        for (const caller of [anon, asUser(player), asUser(admin)]) {
          await sameAnswer(caller, "get_competition", { p_slug: c.slug }, [c.slug]);
        }
        // What every admin competition call answers is built on the same row.
        const [{ json, before }] = await db().sql<{ json: unknown; before: unknown }>(
          "select to_json(private.admin_competition_row($1)) as json, old.competition_json($1, true) as before",
          [c.id],
        );
        expect(json).toEqual(before);
      }
    };

    await db().createCompetition(admin, { title: "A draft", ticket_price: 2 }, false);
    const live = await db().createCompetition(admin, { ticket_price: 0.99, cash_alternative: 50 });
    const tiny = await db().createCompetition(admin, { ticket_price: 1, total_tickets: 3, ...NO_QUESTION });
    await db().call(asUser(player), "enter_competition", { p_competition_id: live, p_quantity: 7, p_answer: "4" });
    await db().call(asUser(player), "enter_competition", { p_competition_id: tiny, p_quantity: 3 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: live,
      p_user_id: null,
      p_name: "Lou Letter",
      p_address: "2 Low St, York YO1 1AA",
      p_answer: "4",
    });
    await sameEverywhere();

    const { drawId } = await db().wonBy(admin, player);
    await db().call(asUser(player), "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: true });
    await db().sql("update public.winner_stories set quote = 'Over the moon!' where draw_id = $1", [drawId]);
    const cancelled = await db().createCompetition(admin);
    await db().call(asUser(admin), "admin_cancel_competition", { p_id: cancelled, p_reason: "Supplier fell through" });
    await sameEverywhere();
    const drawn = (await db().call<{ draw: { story: unknown } | null }[]>(anon, "list_competitions", {
      p_status: "drawn",
    })) as { draw: { story: unknown } | null }[];
    expect(drawn[0]?.draw?.story).toMatchObject({ quote: "Over the moon!" });
  });
});

describe("the admin competition calls as declared types", () => {
  it("answer every admin competition call as the jsonb versions did, from a draft through sales, a draw and a cancellation", async () => {
    const player = await db().createPlayer({ credits: 60 });
    const adminJson = (id: string) => old(admin, "competition_json", [id, true]);
    const sameEverywhere = async () => {
      const listed = (await sameAnswer<{ id: string }[]>(asUser(admin), "admin_list_competitions", {}, [])) ?? [];
      for (const { id } of listed) {
        await sameAnswer(asUser(admin), "admin_get_competition", { p_id: id }, [id]);
        await sameAnswer(asUser(admin), "admin_competition_detail", { p_id: id }, [id]);
      }
      for (const status of [null, "awaiting_claim", "claimed", "verified", "delivered"]) {
        await sameAnswer(asUser(admin), "admin_list_prize_fulfilment", status ? { p_status: status } : {}, [status]);
      }
      return listed;
    };

    // Refusals alike: not an admin, an unknown competition.
    const unknown = "00000000-0000-4000-8000-000000000000";
    await sameAnswer(asUser(player), "admin_list_competitions", {}, []);
    await sameAnswer(asUser(admin), "admin_get_competition", { p_id: unknown }, [unknown]);
    await sameAnswer(asUser(admin), "admin_competition_detail", { p_id: unknown }, [unknown]);

    // What each change answers is the old JSON of the competition it leaves.
    const created = await db().call<{ id: string }>(asUser(admin), "admin_create_competition", {
      p: {
        title: "Declared draft",
        prize_description: "A bike",
        prize_value: 300,
        cash_alternative: 250,
        images: [],
        ticket_price: 1.5,
        total_tickets: 50,
        max_tickets_per_user: 10,
        closes_at: new Date(Date.now() + 5 * 86400_000).toISOString(),
        ...NO_QUESTION,
      },
    });
    expect(created).toEqual(await adminJson(created.id));
    const updated = await db().call(asUser(admin), "admin_update_competition", {
      p_id: created.id,
      p: { summary: "Now with a summary" },
    });
    expect(updated).toEqual(await adminJson(created.id));
    const published = await db().call(asUser(admin), "admin_publish_competition", {
      p_id: created.id,
      p_external_randomness: { source: "drand", value_hex: "ab".repeat(32), round: 7 },
    });
    expect(published).toMatchObject({ status: "live", external_randomness: { round: 7 } });
    expect(published).toEqual(await adminJson(created.id));
    await db().createCompetition(admin, { title: "Still a draft" }, false);
    expect((await sameEverywhere()).map((c) => c.id)).toContain(created.id);

    // Sales online and by post, then a draw with a claim and a published story.
    await db().call(asUser(player), "enter_competition", { p_competition_id: created.id, p_quantity: 3 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: created.id,
      p_user_id: player,
      p_name: "Pat Player",
      p_address: "3 Mid St, Hull HU1 1AA",
      p_answer: null,
    });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: created.id,
      p_user_id: null,
      p_name: "Lou Letter",
      p_address: "2 Low St, York YO1 1AA",
      p_answer: null,
    });
    const { drawId } = await db().wonBy(admin, player, { cash_alternative: 40 });
    await sameEverywhere();
    await db().call(asUser(player), "claim_prize", { p_draw_id: drawId, p_choice: "cash" });
    await db().call(asUser(player), "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: true });
    await db().sql("update public.winner_stories set quote = 'Brilliant' where draw_id = $1", [drawId]);
    const moved = await db().call(asUser(admin), "admin_update_prize_fulfilment", {
      p_draw_id: drawId,
      p_status: "verified",
      p_note: "Passport seen",
    });
    expect(moved).toMatchObject({ prize_status: "verified", story: { consent: true, quote: "Brilliant" } });
    expect(moved).toEqual(await old(admin, "prize_fulfilment_json", [drawId]));
    await sameEverywhere();

    // A cancellation refunds the paid entry and voids the postal ones.
    const cancelled = await db().call<{ competition: { id: string } }>(asUser(admin), "admin_cancel_competition", {
      p_id: created.id,
      p_reason: "Supplier fell through",
    });
    expect(cancelled).toEqual({
      competition: await adminJson(created.id),
      refunded_entries: 1,
      refunded_total: 4.5,
    });
    const detail = await sameAnswer(asUser(admin), "admin_competition_detail", { p_id: created.id }, [created.id]);
    expect(detail).toMatchObject({ figures: { refunded_entries: 1, void_postal_entries: 2 }, fulfilment: null });
    expect((detail as { postal_entries: unknown[] }).postal_entries).toHaveLength(2);
    await sameEverywhere();
  });
});

describe("the finished competitions, the draw cron, prize moves and the entry list as declared types", () => {
  it("answer as the jsonb versions did: a draw and a close by the cron, the history, a prize moved, a delivery, every entry-list page", async () => {
    const [buyer, shy] = [await db().createPlayer({ credits: 30 }), await db().createPlayer({ credits: 30 })];
    await db().call(asUser(shy), "set_initials_only", { p_initials_only: true });
    const sold = await db().createCompetition(admin, { ticket_price: 2, ...NO_QUESTION });
    const empty = await db().createCompetition(admin, NO_QUESTION);
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: sold, p_quantity: 3 });
    await db().call(asUser(shy), "enter_competition", { p_competition_id: sold, p_quantity: 2 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: sold,
      p_user_id: null,
      p_name: "Lou Letter",
      p_address: "2 Low St, York YO1 1AA",
      p_answer: null,
    });
    const { drawId } = await db().wonBy(admin, buyer, NO_QUESTION);
    await sameHistory();

    // The cron draws one and closes the other: the old body's answer (rolled back), then the new one's.
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = any($1)`,
      [[sold, empty]],
    );
    const before = await undone(admin, "run_due_draws");
    const ran = await db().call<{ drawn: { competition_id: string; draw_id: string }[] }>(
      asUser(admin),
      "run_due_draws",
    );
    const drawOf = await db().sql<{ id: string }>("select id from public.draws where competition_id = $1", [sold]);
    expect(before).toEqual({ drawn: [{ competition_id: sold, draw_id: expect.any(String) }], closed: [empty] });
    expect(ran).toEqual({ drawn: [{ competition_id: sold, draw_id: drawOf[0].id }], closed: [empty] });
    expect(await db().call(asUser(admin), "run_due_draws")).toEqual(await old(admin, "run_due_draws"));

    // A prize moved and an instant win delivered answer the old expressions over the rows they changed.
    const moved = await db().call(asUser(admin), "admin_update_prize_status", {
      p_draw_id: drawId,
      p_status: "claimed",
    });
    const [{ then: movedThen }] = await db().sql<{ then: unknown }>(
      `select jsonb_build_object('draw_id', d.id, 'prize_status', d.prize_status,
                                 'prize_status_updated_at', d.prize_status_updated_at) as then
         from public.draws d where d.id = $1`,
      [drawId],
    );
    expect(moved).toEqual(movedThen);
    // Instant wins may be at most half the live competitions: one more live first.
    await db().createCompetition(admin, NO_QUESTION);
    const mugs = await db().createCompetition(admin, { total_tickets: 1, ...NO_QUESTION }, false);
    await db().call(asUser(admin), "admin_set_instant_win_prizes", {
      p_competition_id: mugs,
      p_prizes: [{ kind: "physical", title: "A mug", quantity: 1 }],
    });
    await db().call(asUser(admin), "admin_publish_competition", { p_id: mugs });
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: mugs, p_quantity: 1 });
    const [{ id: winId }] = await db().sql<{ id: string }>(
      "select id from public.instant_wins where competition_id = $1",
      [mugs],
    );
    const delivered = await db().call(asUser(admin), "admin_mark_instant_win_delivered", { p_id: winId });
    const [{ then: deliveredThen }] = await db().sql<{ then: unknown }>(
      "select jsonb_build_object('id', w.id, 'status', w.status, 'delivered_at', w.delivered_at) as then from public.instant_wins w where w.id = $1",
      [winId],
    );
    expect(delivered).toEqual(deliveredThen);
    await sameHistory();

    // Every competition's entry list as anon, paged forwards two at a time, the page before the last number, one
    // ticket, and the refusals (a draft, one still selling, a cancelled one, an unknown slug) alike.
    const competitions = await db().sql<{ slug: string }>("select slug from public.competitions order by created_at");
    for (const { slug } of [...competitions, { slug: "no-such-competition" }]) {
      const sameList = (args: Record<string, unknown>, oldArgs: unknown[]) =>
        sameAnswer<{ rows: { number: number }[] }>(anon, "get_entry_list", { p_slug: slug, ...args }, [
          slug,
          ...oldArgs,
        ]);
      let last: number | null = null;
      await eachPage<number>(async (after) => {
        const page = await sameList({ p_after: after, p_limit: 2 }, [after, null, null, 2]);
        last = page?.rows.at(-1)?.number ?? last;
        return page?.rows.length === 2 ? page.rows[1].number : null;
      }, 600);
      if (last !== null) {
        await sameList({ p_before: last, p_limit: 3 }, [null, last, null, 3]);
        await sameList({ p_ticket: last }, [null, null, last, 50]);
      }
    }
    const list = await db().call<{ rows: { entrant: string; town: string | null; route: string }[] }>(
      anon,
      "get_entry_list",
      {
        p_slug: (await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [sold]))[0]
          .slug,
      },
    );
    expect(list.rows.map((r) => r.route)).toEqual(["online", "online", "online", "online", "online", "postal"]);
  });
});

/** An old body's answer as `userId`, its changes rolled back (for a call that changes what it answers about). */
async function undone(userId: string, fn: string, args: unknown[] = []): Promise<unknown> {
  await db().pg.exec("begin");
  try {
    await db().pg.query("select set_config('request.jwt.claims', $1, true)", [
      JSON.stringify(claimsOf(asUser(userId))),
    ]);
    const params = args.map((_, i) => `$${i + 1}`).join(", ");
    return (await db().pg.query<{ value: unknown }>(`select old.${fn}(${params}) as value`, args)).rows[0].value;
  } finally {
    await db().pg.exec("rollback");
  }
}

/** admin_competition_history as the admin and as a player (refused alike). */
async function sameHistory() {
  expect(await db().call(asUser(admin), "admin_competition_history")).toEqual(
    await old(admin, "admin_competition_history"),
  );
  const player = await db().createPlayer();
  const refused = await db().rpc(asUser(player), "admin_competition_history");
  await expect(old(player, "admin_competition_history")).rejects.toMatchObject({ hint: refused.error?.hint });
}

describe("instant wins as a declared type, their kind an enum", () => {
  it("answer what the jsonb versions did: set on a draft, hidden from others, published, won, and revealed by the draw", async () => {
    const player = await db().createPlayer({ credits: 50 });
    const wins = await db().createCompetition(admin, { total_tickets: 10, ticket_price: 1, ...NO_QUESTION }, false);
    const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [wins]);
    const sameEverywhere = async () => {
      for (const s of [slug, "no-such-competition"]) {
        for (const caller of [anon, asUser(player), asUser(admin)]) {
          expect(await db().call(caller, "get_instant_wins", { p_slug: s })).toEqual(
            await old(caller, "get_instant_wins", [s]),
          );
        }
      }
    };
    const set = await db().call(asUser(admin), "admin_set_instant_win_prizes", {
      p_competition_id: wins,
      p_prizes: [
        { kind: "credit", credit_amount: 2.5, quantity: 2 },
        { kind: "spin", quantity: 1 },
        { kind: "physical", title: "A mug", quantity: 7 },
      ],
    });
    expect(set).toMatchObject({
      prizes: [{ kind: "credit", title: "£2.50 credit" }, { kind: "spin" }, { kind: "physical" }],
    });
    expect(set).toEqual(await old(admin, "instant_wins_json", [wins, true]));
    // A kind outside the set is the function's own refusal, never the enum's 22P02.
    const refused = await db().rpc(asUser(admin), "admin_set_instant_win_prizes", {
      p_competition_id: wins,
      p_prizes: [{ kind: "voucher", quantity: 1 }],
    });
    expect(refused.error).toMatchObject({ code: "22023", hint: "invalid_input" });
    await sameEverywhere();

    await db().createCompetition(admin, NO_QUESTION);
    await db().call(asUser(admin), "admin_publish_competition", { p_id: wins });
    await sameEverywhere();
    await db().call(asUser(player), "enter_competition", { p_competition_id: wins, p_quantity: 10 });
    await sameEverywhere();
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
      [wins],
    );
    await db().call(asUser(admin), "run_due_draws");
    const revealed = await db().call<{ seed_hex: string | null; numbers: unknown[] | null }>(anon, "get_instant_wins", {
      p_slug: slug,
    });
    expect(revealed.seed_hex).not.toBeNull();
    expect(revealed.numbers).toHaveLength(10);
    await sameEverywhere();
  });
});

describe("the CSV chunks, a prize claim and the winner-story calls as declared types", () => {
  it("answer as the jsonb versions did: every chunk of the three CSVs, a claim and its change, consent and a story", async () => {
    const [winner, other] = [await db().createPlayer({ credits: 20 }), await db().createPlayer({ credits: 20 })];
    const { drawId } = await db().wonBy(admin, winner, { cash_alternative: 60, ...NO_QUESTION });
    // The CSVs over several buyers and a letter, once online sales have ended.
    const competitionId = await db().createCompetition(admin, NO_QUESTION);
    await db().call(asUser(winner), "enter_competition", { p_competition_id: competitionId, p_quantity: 3 });
    await db().call(asUser(other), "enter_competition", { p_competition_id: competitionId, p_quantity: 2 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: competitionId,
      p_user_id: null,
      p_name: "Lou Letter, Esq.",
      p_address: "2 Low St, York YO1 1AA",
      p_answer: null,
    });
    const [{ slug }] = await db().sql<{ slug: string }>(
      "update public.competitions set opens_at = now() - interval '1 day', closes_at = now() - interval '1 second' where id = $1 returning slug",
      [competitionId],
    );
    const draft = await db().createCompetition(admin, NO_QUESTION, false);

    // Every chunk, two lines at a time, and the refusals (unknown, a draft, not an admin) alike.
    const sameChunks = async (caller: Caller, fn: string, key: string) => {
      await eachPage<number>(async (after) => {
        const chunk = await sameAnswer<{ last_number: number | null; done: boolean }>(
          caller,
          fn,
          { [fn === "admin_competition_entries_csv" ? "p_id" : "p_slug"]: key, p_after: after ?? 0, p_limit: 2 },
          [key, after ?? 0, 2],
        );
        return chunk && !chunk.done ? chunk.last_number : null;
      });
    };
    for (const key of [slug, "no-such-competition"]) {
      await sameChunks(anon, "get_ticket_list_csv", key);
      await sameChunks(anon, "get_entrants_csv", key);
    }
    for (const id of [competitionId, draft, "00000000-0000-4000-8000-000000000000"]) {
      await sameChunks(asUser(admin), "admin_competition_entries_csv", id);
    }
    await sameChunks(asUser(winner), "admin_competition_entries_csv", competitionId);

    // A claim answers the old expression over the draw it leaves; a changed claim too.
    const claimedAs = async (choice: string, address: string | null) => {
      const now = await db().call(asUser(winner), "claim_prize", {
        p_draw_id: drawId,
        p_choice: choice,
        p_delivery_address: address,
      });
      const [{ then }] = await db().sql<{ then: unknown }>(
        `select jsonb_build_object('draw_id', x.id, 'prize_choice', x.prize_choice, 'claimed_at', x.claimed_at,
                                   'prize_status', x.prize_status, 'delivery_address', x.delivery_address) as then
           from public.draws x where x.id = $1`,
        [drawId],
      );
      expect(now).toEqual(then);
    };
    await claimedAs("cash", null);
    await claimedAs("prize", "4 Elm Row, Bath BA1 1AA");

    // Consent and the story: the old body's answer (rolled back), then the new one's, as the same caller.
    const same = async (userId: string, fn: string, args: Record<string, unknown>) => {
      const then = await undone(userId, fn, Object.values(args));
      expect(await db().call(asUser(userId), fn, args)).toEqual(then);
    };
    await same(winner, "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: true });
    await same(admin, "admin_set_winner_story", {
      p_draw_id: drawId,
      p_photo_path: "/media/winner-photos/0b0e7c36-3b44-4d0c-9a57-8b1f3f0f6f1a.jpg",
      p_photo_alt: "The winner",
      p_quote: "Lovely",
    });
    await same(admin, "admin_set_winner_story", {
      p_draw_id: drawId,
      p_photo_path: "",
      p_photo_alt: "",
      p_quote: "Still lovely",
    });
    const photo = "/media/winner-photos/5d1c2a8e-7f3b-4c6d-8e9f-0a1b2c3d4e5f.png";
    await same(admin, "admin_set_winner_story", {
      p_draw_id: drawId,
      p_photo_path: photo,
      p_photo_alt: "Again",
      p_quote: "",
    });
    // Removing answers the photo it took down.
    await same(admin, "admin_remove_winner_story", { p_draw_id: drawId });
    await same(admin, "admin_record_winner_story_consent", { p_draw_id: drawId, p_consent: false, p_note: "By phone" });
  });
});

describe("a postal entry as a declared type", () => {
  it("answers what the jsonb version did: linked or not, several tickets, instant wins won, and the refusals alike", async () => {
    const player = await db().createPlayer();
    // Every one of the ten numbers wins (two credits, a spin, seven mugs), so a postal ticket (numbered after the
    // pool, and matched to a number within it) wins too; at 25p a ticket, one stamp buys several.
    const wins = await db().createCompetition(
      admin,
      { total_tickets: 10, ticket_price: 0.25, max_tickets_per_user: 6, ...NO_QUESTION },
      false,
    );
    await db().call(asUser(admin), "admin_set_instant_win_prizes", {
      p_competition_id: wins,
      p_prizes: [
        { kind: "credit", credit_amount: 2.5, quantity: 2 },
        { kind: "spin", quantity: 1 },
        { kind: "physical", title: "A mug", quantity: 7 },
      ],
    });
    // Published after one without (at most half the live competitions may have instant wins).
    const plain = await db().createCompetition(admin);
    await db().call(asUser(admin), "admin_publish_competition", { p_id: wins });

    type Recorded = { entry_id: string; tickets: number; instant_wins: Array<{ kind: string }> };
    /** The new answer and the old body's from the same state: equal but for the entry's id, which is random. */
    const recorded = async (competitionId: string, userId: string | null, name: string, answer: string | null) => {
      const { now, old: then } = await db().oldBeside(asUser(admin), "admin_record_postal_entry", {
        p_competition_id: competitionId,
        p_user_id: userId,
        p_name: name,
        p_address: "14 Orchard Road, Harrogate HG1 2AB",
        p_answer: answer,
      });
      const entry = now as Recorded;
      expect({ ...(then as Recorded), entry_id: entry.entry_id }).toEqual(entry);
      const [made] = await db().sql<{ kind: string; quantity: number }>(
        "select kind::text, quantity from public.entries where id = $1",
        [entry.entry_id],
      );
      expect(made).toEqual({ kind: "postal", quantity: entry.tickets });
      return entry;
    };
    /** Both versions refuse with the same code. */
    const refusedAlike = async (caller: string, competitionId: string, name: string, answer: string | null) => {
      const args = {
        p_competition_id: competitionId,
        p_user_id: null,
        p_name: name,
        p_address: "14 Orchard Road, Harrogate HG1 2AB",
        p_answer: answer,
      };
      const refused = await db().rpc(asUser(caller), "admin_record_postal_entry", args);
      expect(refused.error?.hint).toBeTruthy();
      await expect(old(caller, "admin_record_postal_entry", Object.values(args))).rejects.toMatchObject({
        hint: refused.error?.hint,
      });
      return refused.error?.hint;
    };

    const unlinked = await recorded(wins, null, "Margaret Holt", null);
    expect(unlinked.tickets).toBeGreaterThan(1);
    expect(unlinked.instant_wins).toHaveLength(unlinked.tickets);
    // A linked account's wins are paid (credit, a spin) as the purchase path pays them.
    const linked = await recorded(wins, player, "Pat Player", null);
    expect(linked.instant_wins.length).toBeGreaterThan(0);
    // The same name and postcode again: what is left under the cap, then the cap itself.
    await recorded(wins, null, "margaret holt", null);
    expect(await refusedAlike(admin, wins, "Margaret Holt", null)).toBe("cap_reached");
    // No instant wins: an empty list; a wrong answer refused alike.
    expect((await recorded(plain, null, "Ruth Ellis", "4")).instant_wins).toEqual([]);
    expect(await refusedAlike(admin, plain, "Daniel Okafor", "5")).toBe("answer_incorrect");
    expect(await refusedAlike(player, plain, "Daniel Okafor", "4")).toBe("admin_required");
    expect(await refusedAlike(admin, "00000000-0000-4000-8000-000000000000", "Daniel Okafor", "4")).toBe(
      "competition_not_found",
    );
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() + interval '1 hour' where id = $1`,
      [plain],
    );
    expect(await refusedAlike(admin, plain, "Fiona Grant", "4")).toBe("postal_deadline_passed");
  });
});
