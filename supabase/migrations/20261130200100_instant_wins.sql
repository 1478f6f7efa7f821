-- Issue 25 item 2: instant wins, provably fair (DECISIONS.md "Instant wins (issue 25, item 2)").

-- The prizes an admin attaches to a draft, in the order their winning numbers are assigned.
create table public.instant_win_prizes (
  id uuid primary key default gen_random_uuid(),
  competition_id uuid not null references public.competitions (id) on delete cascade,
  position integer not null check (position >= 1),
  kind text not null check (kind in ('credit', 'spin', 'physical')),
  title text not null check (char_length(title) between 1 and 120),
  credit_amount numeric(12, 2) check (credit_amount is null or (credit_amount > 0 and credit_amount <= 10000 and credit_amount = round(credit_amount, 2))),
  quantity integer not null check (quantity between 1 and 1000),
  created_at timestamptz not null default now(),
  unique (competition_id, position),
  check ((kind = 'credit') = (credit_amount is not null))
);
alter table public.instant_win_prizes enable row level security;
comment on table public.instant_win_prizes is 'Instant-win prizes of a competition (a credit amount, one wheel spin, or a physical prize), each with how many winning numbers it gets; set on a draft only, read through functions.';
revoke all on table public.instant_win_prizes from public, anon, authenticated, service_role;
grant all on table public.instant_win_prizes to service_role;

-- The secret winning numbers, derived from the competition seed at publish. Like competition_seeds:
-- RLS on, no policy, no grant to any API role (service_role included), so nobody can read them before
-- the draw reveals the seed; only the security-definer award and reveal functions do.
create table public.instant_win_numbers (
  competition_id uuid not null references public.competitions (id) on delete cascade,
  number integer not null check (number >= 1),
  prize_id uuid not null references public.instant_win_prizes (id) on delete cascade,
  slot integer not null check (slot >= 1),
  primary key (competition_id, number),
  unique (competition_id, slot)
);
alter table public.instant_win_numbers enable row level security;
comment on table public.instant_win_numbers is 'Secret instant-win numbers (labcash-instant-win-v1 from the seed at publish): unreadable by every API role until the draw reveals the seed; slot is the derivation order, which fixes the prize.';
revoke all on table public.instant_win_numbers from public, anon, authenticated, service_role;

-- Instant wins awarded: one per ticket (unique), written in the buying transaction.
create table public.instant_wins (
  id uuid primary key default gen_random_uuid(),
  competition_id uuid not null references public.competitions (id) on delete restrict,
  winning_number integer not null check (winning_number >= 1),
  ticket_number integer not null check (ticket_number >= 1),
  ticket_id uuid not null unique references public.tickets (id) on delete restrict,
  entry_id uuid not null references public.entries (id) on delete restrict,
  prize_id uuid not null references public.instant_win_prizes (id) on delete restrict,
  user_id uuid references auth.users (id) on delete set null,
  display_name text not null,
  status text not null check (status in ('awarded', 'awaiting_fulfilment', 'delivered')),
  delivered_at timestamptz,
  won_at timestamptz not null default now(),
  unique (competition_id, ticket_number),
  check ((status = 'delivered') = (delivered_at is not null))
);
create index instant_wins_user_id_idx on public.instant_wins (user_id);
create index instant_win_numbers_prize_id_idx on public.instant_win_numbers (prize_id);
create index instant_wins_entry_id_idx on public.instant_wins (entry_id);
create index instant_wins_prize_id_idx on public.instant_wins (prize_id);
alter table public.instant_wins enable row level security;
comment on table public.instant_wins is 'Instant wins awarded, once per ticket (unique ticket and competition + number): credit and spins are awarded at once (awarded); physical prizes, and any prize of a postal entrant with no account, wait for an admin (awaiting_fulfilment -> delivered).';
revoke all on table public.instant_wins from public, anon, authenticated, service_role;
grant all on table public.instant_wins to service_role;

alter table public.competitions add column instant_win_commitment text
  constraint competitions_instant_win_commitment_check check (instant_win_commitment ~ '^[0-9a-f]{64}$');
comment on column public.competitions.instant_win_commitment is 'SHA-256 of the canonical instant-win list (seed and numbers), published at publish with the seed commitment; null when the competition has no instant wins.';
grant select (instant_win_commitment) on table public.competitions to anon, authenticated;

-- The credit-card-funded part of a balance (code of practice 1.3: none of it is spent on instant wins).
alter table public.credit_ledger add column card_amount numeric(12, 2) not null default 0;
alter table public.credit_ledger add constraint credit_ledger_card_amount_check
  check (card_amount = 0 or (sign(card_amount) = sign(amount) and abs(card_amount) <= abs(amount)));
comment on column public.credit_ledger.card_amount is 'The credit-card-funded part of this movement (same sign as amount), set by private.post_ledger.';
alter table public.user_account_data add column card_credit numeric(12, 2) not null default 0;
comment on column public.user_account_data.card_credit is 'The credit-card-funded part of credits, maintained by private.post_ledger: card top-ups and their bonus add to it, debits spend it last.';
-- Credit bought by credit card before this column: counted as still unspent, up to the balance (the
-- cautious reading: spends take other credit first).
update public.user_account_data a
   set card_credit = least(a.credits, greatest(0, coalesce((
         select sum(t.amount + t.bonus - t.refunded_amount) from public.top_ups t
          where t.user_id = a.id and t.funding = 'credit' and t.credited_at is not null), 0)))
 where exists (select 1 from public.top_ups t where t.user_id = a.id and t.funding = 'credit' and t.credited_at is not null);
alter table public.user_account_data add constraint user_account_data_card_credit_check
  check (card_credit >= 0 and card_credit <= credits);

-- Code of practice 1.10: instant-win competitions are never the majority of live ones.
insert into public.app_settings (key, value) values ('instant_win_max_live_percent', '50'::jsonb)
on conflict (key) do nothing;
