-- Declared result shapes (issue 24, item 3), the fifth batch: an instant-win prize's kind (credit, spin or physical)
-- becomes an enum, with its words in lib/labels.ts; the check that listed the set goes (the enum is the set), the one
-- that ties credit to an amount is made again word for word. Then the instant-wins shape, by hand (the generator
-- writes functions, never types).

create type public.instant_win_kind as enum ('credit', 'spin', 'physical');
comment on type public.instant_win_kind is 'What an instant-win prize is: credit (an amount), a LabSpinner spin, or a physical prize an admin delivers.';

alter table public.instant_win_prizes drop constraint instant_win_prizes_kind_check, drop constraint instant_win_prizes_check;
alter table public.instant_win_prizes
  alter column kind type public.instant_win_kind using kind::public.instant_win_kind,
  add constraint instant_win_prizes_check check ((kind = 'credit') = (credit_amount is not null));

alter type public.instant_win_to_deliver alter attribute kind type public.instant_win_kind;

create type public.instant_win_prize as (position integer, kind public.instant_win_kind, title text, credit_amount numeric(12,2), quantity integer, won bigint);
comment on type public.instant_win_prize is 'One instant-win prize of a competition, in the order its numbers are dealt: its kind, title, credit amount (credit only), how many and how many are won.';

create type public.instant_win as (ticket_number integer, winning_number integer, prize_position integer, prize text, display_name text, ticket_id uuid, won_at timestamp with time zone);
comment on type public.instant_win is 'One instant win so far: the ticket, the winning number it matched, the prize and the winner''s public name.';

create type public.instant_win_number as (slot integer, number integer, prize_position integer);
comment on type public.instant_win_number is 'One winning number, revealed after the draw: its slot in the derivation and the prize it carries.';

create type public.competition_instant_wins as (commitment text, algorithm text, ticket_count integer, prizes public.instant_win_prize[], wins public.instant_win[], seed_hex text, numbers public.instant_win_number[]);
comment on type public.competition_instant_wins is 'A competition''s instant wins: the commitment, algorithm and ticket count, the prizes, the wins so far, and after the draw the seed and every winning number (null before).';
