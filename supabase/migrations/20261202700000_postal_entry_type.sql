-- The postal entry's answer, declared (issue 24 item 3, fifth batch, part four): the entry, its ticket numbers and
-- the instant wins its tickets won. public.admin_record_postal_entry answers it (next migration).
create type public.instant_win_award as (ticket_number integer, kind public.instant_win_kind, prize text, credit_amount numeric(12,2));
comment on type public.instant_win_award is 'An instant win one entry''s ticket won as it was made: the ticket, the prize''s kind and title, its credit (credit prizes only).';

create type public.postal_entry_recorded as (entry_id uuid, ticket_numbers integer[], tickets integer, instant_wins public.instant_win_award[]);
comment on type public.postal_entry_recorded is 'admin_record_postal_entry(): the new postal entry, its ticket numbers and how many, and the instant wins they won.';
