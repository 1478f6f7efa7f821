-- Declared result shapes (issue 24, item 3), the fifth batch: the admin's finished competitions and their money, a
-- prize's status change, an instant win delivered, the draw cron's outcome and the public entry list. The types, by
-- hand (the generator writes functions, never types).

create type public.competition_history_row as (id uuid, slug text, title text, status public.competition_status, closes_at timestamp with time zone, draw_at timestamp with time zone, finished_at timestamp with time zone, ticket_price numeric(12,2), total_tickets integer, tickets_sold integer, postal_tickets integer, revenue numeric, refunded_total numeric, prize_value numeric(12,2), cash_alternative numeric(12,2), prize_choice public.prize_choice, prize_status public.prize_status, draw_id uuid, winner_display_name text, prize_cost numeric, net numeric);
comment on type public.competition_history_row is 'One finished competition (drawn, closed or cancelled) in the admin history: its dates, tickets, revenue, refunds, prize cost (drawn only) and net.';

create type public.competition_history_totals as (competitions integer, revenue numeric, refunded_total numeric, prize_cost numeric, net numeric);
comment on type public.competition_history_totals is 'The admin history''s totals over every finished competition.';

create type public.competition_history as (rows public.competition_history_row[], totals public.competition_history_totals);
comment on type public.competition_history is 'The admin history: finished competitions, most recently finished first, and their totals.';

create type public.prize_status_change as (draw_id uuid, prize_status public.prize_status, prize_status_updated_at timestamp with time zone);
comment on type public.prize_status_change is 'A prize moved to a status: the draw, its status and when it last changed.';

create type public.instant_win_delivered as (id uuid, status text, delivered_at timestamp with time zone);
comment on type public.instant_win_delivered is 'An instant win marked delivered: its id, status and when.';

create type public.drawn_competition as (competition_id uuid, draw_id uuid);
comment on type public.drawn_competition is 'A competition the draw cron drew, and its draw.';

create type public.due_draws as (drawn public.drawn_competition[], closed uuid[]);
comment on type public.due_draws is 'What one run of the draw cron did: the competitions it drew and those it closed for want of tickets.';

create type public.entry_list_summary as (id uuid, slug text, title text, status public.competition_status, closes_at timestamp with time zone, postal_deadline timestamp with time zone, draw_at timestamp with time zone, total_tickets integer, tickets_sold integer, postal_tickets integer);
comment on type public.entry_list_summary is 'The competition an entry list belongs to: its dates and ticket counts.';

create type public.entry_list_draw as (id uuid, algorithm text, ticket_list_hash text);
comment on type public.entry_list_draw is 'The draw over an entry list: its algorithm and the hash of the ticket list it drew from.';

create type public.entry_list_row as (number integer, ticket_id uuid, entrant text, town text, route text);
comment on type public.entry_list_row is 'One ticket of a public entry list: its number and id, the entrant''s public name and town (or "Postal entry"), and its route (online or postal).';

create type public.entry_list_page as (competition public.entry_list_summary, draw public.entry_list_draw, ticket_count integer, rows public.entry_list_row[], has_before boolean, has_after boolean);
comment on type public.entry_list_page is 'One page of a public entry list: the competition, its draw once drawn, every ticket''s count, the page''s rows and whether there are pages before and after.';
