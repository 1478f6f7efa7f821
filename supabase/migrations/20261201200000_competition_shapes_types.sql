-- Declared result shapes (issue 24, item 3), the fourth batch: the player's competition calls (the entry quote,
-- their entries and their prizes). The types, by hand (the generator writes functions, never types).

create type public.entry_quote as (balance numeric(12,2), approved boolean, rejected boolean, held integer, cap_left integer, tickets_left integer, costs numeric[], shortfalls numeric[], skill_retry_at timestamp with time zone, block public.refusal);
comment on type public.entry_quote is 'What the competition page shows a signed-in player before entering: balance, approval, tickets held, what the cap and the tickets left allow, costs[i] and shortfalls[i] for i + 1 tickets, until when a wrong skill answer closes the question, and what stops them playing now (or null).';

create type public.entry_competition as (id uuid, slug text, title text, status public.competition_status, image text, closes_at timestamp with time zone, total_tickets integer, tickets_sold integer);
comment on type public.entry_competition is 'The competition of one of the caller''s entries, as their entries page shows it (its first image).';

create type public.entry_draw as (id uuid, winning_number integer, drawn_at timestamp with time zone, won boolean, prize_description text, cash_alternative numeric(12,2), prize_choice public.prize_choice, prize_status public.prize_status);
comment on type public.entry_draw is 'The draw of an entry''s competition: whether this entry won, the prize and its cash alternative, and for the winning entry the claim choice; the prize''s progress.';

create type public.my_entry as (entry_id uuid, kind public.entry_kind, quantity integer, amount numeric(12,2), status public.entry_status, created_at timestamp with time zone, ticket_numbers integer[], competition public.entry_competition, draw public.entry_draw);
comment on type public.my_entry is 'One of the caller''s entries with its ticket numbers (ascending), its competition and the draw once drawn (or null).';

create type public.prize_competition as (id uuid, slug text, title text, image text);
comment on type public.prize_competition is 'The competition a prize was won in, as the prizes page shows it (its first image).';

create type public.my_prize_story as (consent boolean, consent_source text, consent_changed_at timestamp with time zone, published boolean);
comment on type public.my_prize_story is 'A winner''s own view of their photo and quote: whether they consent, who recorded it and when, and whether anything is published.';

create type public.my_prize as (draw_id uuid, competition public.prize_competition, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), winning_number integer, drawn_at timestamp with time zone, prize_status public.prize_status, prize_choice public.prize_choice, delivery_address text, claimed_at timestamp with time zone, verified_at timestamp with time zone, delivered_at timestamp with time zone, proof_of_delivery text, story public.my_prize_story);
comment on type public.my_prize is 'One of the caller''s prizes: the prize and its cash alternative, the claim, each step''s date, the proof reference once delivered, and their consent to a published photo and quote (null until first given).';
