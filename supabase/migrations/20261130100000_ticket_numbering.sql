-- Pick your numbers (issue 25, item 1): a competition numbers its tickets in purchase order (as before) or lets
-- players pick them (or take a lucky dip); chosen numbers are held in a player's basket for a few minutes.
-- Tables and types, written by hand (the generator writes functions); the functions follow in the next migration.

create type public.ticket_numbering as enum ('in_order', 'pick');
comment on type public.ticket_numbering is 'How a competition numbers its online tickets: in purchase order, or chosen by the player (a grid or a lucky dip). Set before publishing, fixed after.';

create type public.ticket_number_page as (sold integer[], held integer[], mine integer[], mine_expires_at timestamp with time zone);
comment on type public.ticket_number_page is 'A page of a pick competition''s number grid (get_ticket_numbers): the numbers sold and held by others in the range, and the caller''s own basket (all of it) with when it expires.';

alter table public.competitions add column ticket_numbering public.ticket_numbering default 'in_order'::public.ticket_numbering not null;
comment on column public.competitions.ticket_numbering is 'in_order: online tickets numbered 1..N in purchase order; pick: players choose numbers from 1..N or take a lucky dip. Fixed at publish.';
grant select (ticket_numbering) on table public.competitions to anon, authenticated;

create table public.ticket_holds (
  competition_id uuid not null references public.competitions (id) on delete cascade,
  number integer not null check (number >= 1),
  user_id uuid not null references auth.users (id) on delete cascade,
  expires_at timestamptz not null,
  primary key (competition_id, number)
);
alter table public.ticket_holds enable row level security;
comment on table public.ticket_holds is 'Numbers in players'' baskets on pick competitions, one holder per number; an expired row blocks nobody (taken over or deleted). Written and read through functions only.';
revoke all on table public.ticket_holds from public, anon, authenticated, service_role;
grant all on table public.ticket_holds to service_role;
create index ticket_holds_user_idx on public.ticket_holds (user_id, competition_id);
