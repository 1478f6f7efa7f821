-- Declared result shapes (issue 24, item 3), the fifth batch: the admin competition calls, which all answer one admin
-- competition (public.competition's fields restated with the admin's), and the admin competition page and the prize
-- fulfilment screen, which nest it and one prize's fulfilment. The types, by hand (the generator writes functions,
-- never types).

create type public.admin_competition as (id uuid, slug text, title text, summary text, description text, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), images text[], ticket_price numeric(12,2), total_tickets integer, tickets_sold integer, tickets_left integer, max_tickets_per_user integer, ticket_numbering public.ticket_numbering, opens_at timestamp with time zone, closes_at timestamp with time zone, postal_deadline timestamp with time zone, draw_at timestamp with time zone, postal_entries bigint, postal_tickets integer, postal_tickets_per_entry integer, stamp_price numeric, entry_list_open boolean, status public.competition_status, is_open boolean, skill_question text, skill_options text[], seed_commitment text, external_randomness jsonb, published_at timestamp with time zone, closed_at timestamp with time zone, cancelled_at timestamp with time zone, cancel_reason text, draw public.competition_draw, skill_answer text, created_by uuid, created_at timestamp with time zone, updated_at timestamp with time zone, entry_count bigint, postal_entry_count bigint, revenue numeric, prize_status public.prize_status, prize_choice public.prize_choice);
comment on type public.admin_competition is 'A competition as the admin calls answer it: public.competition''s fields restated, then the skill answer, who created it and when, when it last changed, its active entries and postal entries, their revenue, and the prize''s status and the winner''s choice once drawn.';

create type public.competition_cancelled as (competition public.admin_competition, refunded_entries integer, refunded_total numeric(12,2));
comment on type public.competition_cancelled is 'A cancellation: the cancelled competition, and how many paid entries were refunded to credit and for how much.';

create type public.competition_stored_dates as (postal_deadline timestamp with time zone, draw_at timestamp with time zone);
comment on type public.competition_stored_dates is 'A competition''s postal deadline and draw time as stored: null in a draft means the default at publish.';

create type public.competition_figures as (online_tickets integer, postal_tickets integer, paid_entries bigint, postal_entries bigint, players bigint, revenue numeric, refunded_entries bigint, refunded_total numeric, void_postal_entries bigint);
comment on type public.competition_figures is 'A competition''s figures on its admin page: online and postal tickets, active paid and postal entries, players, revenue, refunds and void postal entries.';

create type public.postal_entry_record as (entry_id uuid, name text, address text, postcode text, user_id uuid, email text, answer text, tickets integer, ticket_numbers integer[], status public.entry_status, recorded_by text, created_at timestamp with time zone);
comment on type public.postal_entry_record is 'One postal entry on its competition''s admin page: the letter''s name, address and answer, the linked account''s e-mail, its tickets and their numbers, and who recorded it.';

create type public.fulfilment_competition as (id uuid, slug text, title text);
comment on type public.fulfilment_competition is 'The competition a prize to fulfil belongs to.';

create type public.fulfilment_story as (consent boolean, consent_source text, consent_note text, consent_changed_at timestamp with time zone, consent_changed_by text, photo_path text, photo_alt text, quote text, story_updated_at timestamp with time zone);
comment on type public.fulfilment_story is 'A winner''s photo consent (how it was given, by whom, when) and what is published, as the admin sees it.';

create type public.prize_fulfilment as (draw_id uuid, competition public.fulfilment_competition, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), winning_number integer, drawn_at timestamp with time zone, winner_display_name text, winner_town text, winner_user_id uuid, winner_name text, winner_email text, winner_address text, route text, prize_choice public.prize_choice, delivery_address text, claimed_at timestamp with time zone, prize_status public.prize_status, prize_status_updated_at timestamp with time zone, verified_at timestamp with time zone, delivered_at timestamp with time zone, fulfilment_note text, proof_of_delivery text, prize_cost numeric(12,2), winner_initials_only boolean, story public.fulfilment_story);
comment on type public.prize_fulfilment is 'One draw''s prize fulfilment for admins: the prize, the winner (name, e-mail or postal address, route), the claim, the status with its times, the note, the proof of delivery, the prize''s cost and the winner''s photo consent and story.';

create type public.admin_competition_detail as (competition public.admin_competition, stored_dates public.competition_stored_dates, figures public.competition_figures, postal_entries public.postal_entry_record[], fulfilment public.prize_fulfilment);
comment on type public.admin_competition_detail is 'One competition''s admin page: the competition, its stored dates, its figures, every postal entry and, once drawn, the prize fulfilment.';
