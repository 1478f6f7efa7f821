-- several prizes: the prizes after the first, a draws row per prize with the prize as drawn, and the types that now
-- name a prize's position (supabase/schemas/33-draws.sql and the files that read draws), with the admin history's
-- charity column, written by hand because it changes tables, constraints and types; the functions follow in the next
-- migration.

-- The prizes after the first, in order (2nd, 3rd…): the first prize is the competition's own (prize_description,
-- prize_value, cash_alternative), which every page that shows "the prize" keeps showing. Set with the competition
-- (admin_create_competition, admin_update_competition).
create table public.competition_prizes (
  competition_id uuid not null,
  position smallint not null,
  description text not null,
  value numeric(12,2) not null,
  cash_alternative numeric(12,2),
  constraint competition_prizes_pkey primary key (competition_id, position),
  constraint competition_prizes_competition_id_fkey foreign key (competition_id) references public.competitions(id) on delete cascade,
  constraint competition_prizes_position_check check (((position >= 2) AND (position <= 10))),
  constraint competition_prizes_description_check check (((char_length(description) >= 1) AND (char_length(description) <= 2000))),
  constraint competition_prizes_value_check check ((value >= (0)::numeric)),
  constraint competition_prizes_cash_alternative_check check (((cash_alternative IS NULL) OR (cash_alternative > (0)::numeric)))
);
alter table public.competition_prizes enable row level security;
comment on table public.competition_prizes is 'A competition''s prizes after the first (positions 2 to 10, in order), each with its value and any cash alternative; the first prize is the competition''s own columns. Each is drawn in turn from the same draw (public.draws.prize_position).';
revoke all on table public.competition_prizes from public, anon, authenticated, service_role;
grant all on table public.competition_prizes to service_role;

-- A draws row per prize, each with the prize as it was drawn: every draw so far was of one prize, the competition's.
alter table public.draws
  add column prize_position smallint default 1 not null,
  add column prize_description text,
  add column prize_value numeric(12,2),
  add column cash_alternative numeric(12,2);
update public.draws d
   set prize_description = c.prize_description, prize_value = c.prize_value, cash_alternative = c.cash_alternative
  from public.competitions c
 where c.id = d.competition_id;
alter table public.draws
  alter column prize_description set not null,
  alter column prize_value set not null,
  drop constraint draws_competition_id_key,
  add constraint draws_competition_prize_position_key unique (competition_id, prize_position),
  add constraint draws_winning_ticket_id_key unique (winning_ticket_id),
  add constraint draws_prize_position_check check (((prize_position >= 1) AND (prize_position <= 10)));
drop index public.draws_winning_ticket_idx;
comment on table public.draws is 'One row per prize of a drawn competition (unique per competition and position: a competition is drawn once; a ticket wins at most one prize), each with every input needed to recompute its winner, the seed included (it exists only after the draw), and the prize as it was when drawn.';
comment on column public.draws.prize_position is 'Which prize: 1 for the first (the competition''s own prize), then competition_prizes.position. Drawn in order from one counter stream (labcash-draw-v2).';
comment on column public.draws.counter is 'The counter whose hash picked this prize''s row: the first accepted counter for the first prize, each later prize the next accepted counter whose row no earlier prize took.';
grant select (prize_position, prize_description, prize_value, cash_alternative) on table public.draws to anon, authenticated;

alter type public.entry_draw add attribute prize_position smallint;
comment on type public.entry_draw is 'The draw of an entry''s competition: the prize this entry won (else the first prize), whether it won, the prize, its cash alternative and position, and for the winning entry the claim choice; the prize''s progress.';

alter type public.winner_summary add attribute prize_position smallint, add attribute prizes integer;
comment on type public.winner_summary is 'One prize''s draw as the public winners page lists it (list_winners): the prize as drawn, its position and how many prizes the competition had, with the winner''s photo and quote only while they consent.';

alter type public.my_prize add attribute prize_position smallint, add attribute prizes integer;
comment on type public.my_prize is 'One of the caller''s prizes: the prize and its cash alternative (as drawn), its position among the competition''s prizes, the claim, each step''s date, the proof reference once delivered, and their consent to a published photo and quote (null until first given).';

alter type public.prize_fulfilment add attribute prize_position smallint;

create type public.competition_prize as (
  prize_position integer,
  description text,
  value numeric(12,2),
  cash_alternative numeric(12,2),
  draw_id uuid,
  winning_number integer,
  winner_display_name text,
  winner_town text,
  prize_status public.prize_status,
  story jsonb
);
comment on type public.competition_prize is 'One prize of a competition, in order (the first is the competition''s own): what it is and, once drawn, its draw, winning ticket, winner as published, step and published story.';

-- The admin history's net also takes off what a charity partner is owed (decision 059).
alter type public.competition_history_row add attribute charity_owed numeric;
comment on type public.competition_history_row is 'One finished competition (drawn, closed or cancelled) in the admin history: its dates, tickets, revenue, refunds, prize cost (drawn only: every prize), what its charity partner is owed, and net.';
alter type public.competition_history_totals add attribute charity_owed numeric;
