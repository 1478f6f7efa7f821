-- transparency: the trust page's table of browser checks, each day's salt for their hashes, and the types its
-- report returns (supabase/schemas/36-transparency.sql), written by hand because it adds tables and types;
-- record_draw_check, forget_draw_check_salts and get_transparency_report follow in the next migration.

-- One row per visitor, draw and London day whose browser reported that it recomputed the draw and found it checks
-- out. The visitor is kept only as a hash of their network (an IPv4 address, an IPv6 /48) with the draw, the day and
-- that day's secret salt, and no time of day: one network counts once a day per draw, no address is stored, and once
-- the day's salt is gone no row can be traced to an address by trying every address, nor two rows linked to one
-- visitor.
create table public.draw_checks (
  draw_id uuid not null,
  checked_on date not null,
  visitor_hash text not null,
  constraint draw_checks_pkey primary key (draw_id, checked_on, visitor_hash),
  constraint draw_checks_draw_id_fkey foreign key (draw_id) references public.draws(id) on delete cascade,
  constraint draw_checks_visitor_hash_check check ((visitor_hash ~ '^[0-9a-f]{64}$'::text))
);
alter table public.draw_checks enable row level security;
comment on table public.draw_checks is 'Draws a visitor''s browser reported it recomputed and found correct: one row per draw, London day and visitor network, the network only as sha256(the day''s secret salt, network, draw, day), with no time of day. Written by record_draw_check (the site, secret key only); counted by get_transparency_report.';
revoke all on table public.draw_checks from public, anon, authenticated, service_role;
grant all on table public.draw_checks to service_role;

create index draw_checks_checked_on_idx on public.draw_checks (checked_on);

-- Each London day's secret salt for those hashes, made by the database's CSPRNG on the day's first check and dropped
-- by the cron once the day is over (forget_draw_check_salts): no API role may read it.
create table private.draw_check_salts (
  checked_on date not null,
  salt bytea not null,
  constraint draw_check_salts_pkey primary key (checked_on),
  constraint draw_check_salts_salt_check check ((octet_length(salt) = 32))
);
alter table private.draw_check_salts enable row level security;
comment on table private.draw_check_salts is 'The secret salt of each London day''s draw-check hashes (32 random bytes): written and read only by record_draw_check; earlier days'' salts are dropped by forget_draw_check_salts (the cron).';
revoke all on table private.draw_check_salts from public, anon, authenticated, service_role;

create type public.transparency_figures as (
  period text,
  competitions_drawn integer,
  prize_value numeric(12,2),
  prizes_chosen integer,
  cash_chosen integer,
  cash_paid numeric(12,2),
  awaiting_claim integer,
  prizes_delivered integer,
  median_tickets numeric,
  instant_wins_published integer,
  instant_wins_won integer,
  online_entries integer,
  online_tickets integer,
  postal_received integer,
  postal_entered integer,
  postal_tickets integer,
  complaints_received integer,
  complaints_acknowledged_in_time integer,
  complaints_answered_in_time integer,
  complaints_open integer,
  complaints_overdue integer,
  draw_checks integer,
  draws_checked integer
);
comment on type public.transparency_figures is 'One period''s figures on the trust page (period ''all'' or a London month ''YYYY-MM''): draws and prizes by the draw''s month (prize or cash as winners chose, and the cash alternatives paid, null unless at least five winners in the period have chosen, so a period with one draw does not give its winner''s choice away; prizes awaiting a claim, delivered), the median tickets in a draw (odds of 1 in that many per ticket), instant wins published and won in the competitions drawn, online and postal entries by the month made (postal received, and entered: not voided), complaints by the month received (acknowledged and answered within their deadlines, open, overdue), browser checks by the day made.';

create type public.transparency_town as (town text, winners integer);
comment on type public.transparency_town is 'A town or county as winners published it, and how many draw winners it has.';

create type public.transparency_draw as (
  draw_id uuid,
  slug text,
  title text,
  month text,
  drawn_at timestamp with time zone,
  ticket_count integer,
  postal_tickets integer,
  prize_value numeric(12,2),
  prize_status public.prize_status,
  winner_town text,
  instant_wins_published integer,
  instant_wins_won integer,
  checks integer
);
comment on type public.transparency_draw is 'A drawn competition behind the trust page''s figures: its draw, tickets (postal among them), prize and its step (never what the winner chose), the town as published, its instant wins published and won, and browser checks (all time).';

create type public.transparency_report as (
  generated_at timestamp with time zone,
  all_time public.transparency_figures,
  months public.transparency_figures[],
  towns public.transparency_town[],
  winners_without_town integer,
  draws public.transparency_draw[]
);
comment on type public.transparency_report is 'The trust page: figures for all time and each of the last twelve London months with any, newest first; winners by town as published; the draws of those months, newest first.';
