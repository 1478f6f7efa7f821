-- Declared result shapes (issue 24, item 3), the fourth batch: the player's ledger page and the instant wins an
-- admin delivers. The types, by hand (the generator writes functions, never types).

create type public.ledger_row as (id bigint, kind public.ledger_kind, amount numeric(12,2), balance_after numeric(12,2), reason text, reference text, created_at timestamp with time zone);
comment on type public.ledger_row is 'One row of the caller''s credit ledger, as their credits page shows it.';

create type public.ledger_totals as (count bigint, credits_in numeric, credits_out numeric, net numeric);
comment on type public.ledger_totals is 'Totals of a ledger filter: rows, credits in, credits out (a positive figure) and net = in - out.';

create type public.ledger_page as (rows public.ledger_row[], next_before bigint, totals public.ledger_totals);
comment on type public.ledger_page is 'One page of the caller''s credit ledger, newest first (next_before is the id to pass for the next page, or null on the last), with the totals of the whole filter.';

create type public.instant_win_to_deliver as (id uuid, competition_title text, slug text, prize text, kind text, ticket_number integer, display_name text, user_id uuid, email text, postal_name text, postal_address text, status text, won_at timestamp with time zone, delivered_at timestamp with time zone);
comment on type public.instant_win_to_deliver is 'An instant win an admin delivers by hand: the competition, the prize and its kind, the ticket, who won it with their e-mail or the letter''s name and address, its status and dates.';
