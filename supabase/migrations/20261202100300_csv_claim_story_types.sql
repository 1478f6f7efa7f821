-- Declared result shapes (issue 24, item 3), the fifth batch: the competitions area's last fixed shapes, a CSV chunk
-- (the public ticket list and entrants, the admin's entries), a prize claim and the winner-story calls. The types, by
-- hand (the generator writes functions, never types).

create type public.csv_chunk as (csv text, last_number integer, done boolean);
comment on type public.csv_chunk is 'One chunk of a CSV read in ticket order: its lines (the header in the first chunk only), the last ticket number in it (null when empty) and whether it is the last chunk.';

create type public.prize_claim as (draw_id uuid, prize_choice public.prize_choice, claimed_at timestamp with time zone, prize_status public.prize_status, delivery_address text);
comment on type public.prize_claim is 'A winner''s claim: prize or cash, when, the prize''s status and the address to send it to (null for cash).';

create type public.story_consent as (draw_id uuid, consent boolean);
comment on type public.story_consent is 'A winner''s consent to publishing their photo and quote, as it now stands.';

create type public.story_change as (draw_id uuid, previous_photo text);
comment on type public.story_change is 'A winner''s story published, replaced or removed: the photo it replaced or removed (null if none), which the caller deletes from the bucket.';
