-- charities: the charity partners' tables (supabase/schemas/37-charities.sql), the types their functions return and
-- the bucket of donation proofs, written by hand because it adds tables, types and a bucket; the functions follow in
-- the next migration.

-- A charity, known by the number the Charity Commission (England and Wales: 6 or 7 digits), OSCR (Scotland:
-- SC and 6 digits) or the Charity Commission for Northern Ireland (NIC and 6 digits) registered it under.
create table public.charities (
  id uuid default gen_random_uuid() not null,
  registered_number text not null,
  name text not null,
  website text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint charities_pkey primary key (id),
  constraint charities_registered_number_key unique (registered_number),
  constraint charities_registered_number_check check ((registered_number ~ '^(SC[0-9]{6}|NIC[0-9]{6}|[0-9]{6,7})$'::text)),
  constraint charities_name_check check (((char_length(name) >= 2) AND (char_length(name) <= 120) AND (name = btrim(name)))),
  constraint charities_website_check check (((website IS NULL) OR ((char_length(website) <= 300) AND (website ~ '^https://[^\s/]+(/\S*)?$'::text))))
);
alter table public.charities enable row level security;
comment on table public.charities is 'Charities competitions support, one row per registered number (England and Wales: 6 or 7 digits; Scotland: SC and 6 digits; Northern Ireland: NIC and 6 digits), with the name and website as an admin last gave them. Read through get_competition_charity and list_charities.';
revoke all on table public.charities from public, anon, authenticated, service_role;
grant all on table public.charities to service_role;

-- What a competition promises its charity: a share of its ticket revenue, or a fixed sum. Set with the competition
-- (admin_create_competition, admin_update_competition) and fixed once it is published, as its dates are.
create table public.competition_charities (
  competition_id uuid not null,
  charity_id uuid not null,
  revenue_percent numeric(5,2),
  fixed_amount numeric(12,2),
  constraint competition_charities_pkey primary key (competition_id),
  constraint competition_charities_competition_id_fkey foreign key (competition_id) references public.competitions(id) on delete cascade,
  constraint competition_charities_charity_id_fkey foreign key (charity_id) references public.charities(id) on delete restrict,
  constraint competition_charities_one_term_check check (((revenue_percent IS NULL) <> (fixed_amount IS NULL))),
  constraint competition_charities_revenue_percent_check check (((revenue_percent IS NULL) OR ((revenue_percent > (0)::numeric) AND (revenue_percent <= (100)::numeric)))),
  constraint competition_charities_fixed_amount_check check (((fixed_amount IS NULL) OR ((fixed_amount > (0)::numeric) AND (fixed_amount <= (10000000)::numeric))))
);
alter table public.competition_charities enable row level security;
comment on table public.competition_charities is 'The charity a competition supports and what it gets: revenue_percent of the paid, not refunded ticket revenue, or fixed_amount; exactly one. Shown before entry; fixed once the competition is published.';
revoke all on table public.competition_charities from public, anon, authenticated, service_role;
grant all on table public.competition_charities to service_role;

create index competition_charities_charity_idx on public.competition_charities (charity_id);

-- A payment made to a competition's charity, as an admin recorded it, with the proof (the charity's receipt or
-- acknowledgement, a bank statement) uploaded to the charity-proofs bucket and served from the site's origin.
create table public.charity_donations (
  id uuid default gen_random_uuid() not null,
  competition_id uuid not null,
  amount numeric(12,2) not null,
  donated_on date not null,
  reference text not null,
  proof_path text not null,
  recorded_by uuid,
  recorded_at timestamp with time zone default now() not null,
  constraint charity_donations_pkey primary key (id),
  constraint charity_donations_competition_id_fkey foreign key (competition_id) references public.competition_charities(competition_id) on delete restrict,
  constraint charity_donations_recorded_by_fkey foreign key (recorded_by) references auth.users(id) on delete set null,
  constraint charity_donations_amount_check check (((amount > (0)::numeric) AND (amount <= (10000000)::numeric))),
  constraint charity_donations_reference_check check (((char_length(reference) >= 1) AND (char_length(reference) <= 100) AND (reference = btrim(reference)))),
  constraint charity_donations_proof_path_check check ((proof_path ~ '^/media/charity-proofs/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(pdf|jpg|png|webp)$'::text))
);
alter table public.charity_donations enable row level security;
comment on table public.charity_donations is 'Each payment to a competition''s charity: when, how much, the payment reference and the site path of its proof document (public). Recorded by admins (admin_record_charity_donation); never edited, so what was published stays published.';
revoke all on table public.charity_donations from public, anon, authenticated, service_role;
grant all on table public.charity_donations to service_role;

create index charity_donations_competition_idx on public.charity_donations (competition_id, donated_on);
create index charity_donations_recorded_by_idx on public.charity_donations (recorded_by);

create type public.charity_donation_record as (id uuid, donated_on date, amount numeric(12,2), reference text, proof_path text);
comment on type public.charity_donation_record is 'One donation as published: date, amount, payment reference and the site path of its proof.';

create type public.competition_charity as (
  name text,
  registered_number text,
  website text,
  revenue_percent numeric(5,2),
  fixed_amount numeric(12,2),
  owed numeric(12,2),
  paid numeric(12,2),
  donations public.charity_donation_record[]
);
comment on type public.competition_charity is 'A competition''s charity partner: the charity, what it gets (a share of revenue or a fixed sum), the amount owed (null until the draw, 0 once cancelled or closed without a draw), what has been paid, and each donation, oldest first.';

create type public.charity_competition_line as (
  slug text,
  title text,
  status public.competition_status,
  revenue_percent numeric(5,2),
  fixed_amount numeric(12,2),
  owed numeric(12,2),
  paid numeric(12,2),
  donations public.charity_donation_record[]
);
comment on type public.charity_competition_line is 'One published competition a charity partners, on the charities page: its terms, owed, paid and donations.';

create type public.charity_total as (
  name text,
  registered_number text,
  website text,
  owed numeric(12,2),
  paid numeric(12,2),
  competitions public.charity_competition_line[]
);
comment on type public.charity_total is 'A charity''s public totals over every published competition it partners (owed once drawn, paid), and each competition, newest first.';

create type public.charity_figures as (period text, owed numeric(12,2), paid numeric(12,2), charities integer);
comment on type public.charity_figures is 'The trust page''s charity figures for one period (''all'' or a London month ''YYYY-MM''): owed to charities by the competitions drawn in it, paid to them by the donations made in it, and how many charities those were.';

-- Donation proofs are public by name, like prize images: the charity's receipt or acknowledgement, a bank
-- statement, as PDF or a picture. Only an admin (aal2, proven factors) writes; the policies come with the functions.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('charity-proofs', 'charity-proofs', true, 5242880, array['application/pdf', 'image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;
