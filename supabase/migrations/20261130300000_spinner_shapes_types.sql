-- Declared result shapes (issue 24, item 3), the third batch: LabSpinner's nested results. The types, written
-- by hand (the generator writes functions, never types); a field may be another declared type or an array of one.

create type public.spinner_segment as (position smallint, label text, colour text, label_colour text, prize_credits numeric(12,2), weight integer, probability numeric);
comment on type public.spinner_segment is 'One segment of a LabSpinner wheel version: position 1..n clockwise from the top, probability = weight / total weight (6 decimals).';

create type public.spinner_wheel as (wheel_id bigint, total_weight bigint, expected_prize numeric, segments public.spinner_segment[]);
comment on type public.spinner_wheel is 'One LabSpinner wheel version: its segments in position order, the total weight and the prize a spin pays on average (credits, 4 decimals).';

create type public.live_spinner_wheel as (wheel_id bigint, total_weight bigint, expected_prize numeric, segments public.spinner_segment[], enabled boolean);
comment on type public.live_spinner_wheel is 'The live wheel (public.spinner_wheel''s fields) and whether LabSpinner is on.';

create type public.spin_credits as (ticket_spend numeric, earned integer, granted integer, used integer, earned_available integer, postal_available integer, available integer, spend_per_spin integer, toward_next numeric, to_next numeric);
comment on type public.spin_credits is 'A player''s spin credits: net ticket spend, credits earned (1 per £10), postal grants, spins used, what is available of each, and the spend toward the next credit.';

create type public.refusal as (code text, message text);
comment on type public.refusal is 'Why something is refused: a stable code (lib/data/errors.ts) and its words.';

create type public.spinner_spin as (id bigint, seed_id bigint, client_seed text, nonce integer, wheel_id bigint, attempt integer, value bigint, segment_position smallint, label text, prize_credits numeric(12,2), created_at timestamp with time zone);
comment on type public.spinner_spin is 'One LabSpinner spin: the seed pair, client seed and nonce it used, the wheel version, the rejection-sampling attempt, the derived value, the segment and the prize paid.';

create type public.my_spinner as (enabled boolean, credits public.spin_credits, block public.refusal, seed public.spinner_seed, balance numeric(12,2), recent_spins public.spinner_spin[]);
comment on type public.my_spinner is 'The caller''s LabSpinner state: on/off, spin credits, what blocks play (or null), the active seed pair, balance and the last 10 spins.';

create type public.admin_spinner_wheel as (wheel_id bigint, total_weight bigint, expected_prize numeric, segments public.spinner_segment[], created_at timestamp with time zone, created_by_email text);
comment on type public.admin_spinner_wheel is 'The live wheel for the admin screen: public.spinner_wheel''s fields, when it was saved and by whom.';

create type public.spinner_observed as (position smallint, count bigint);
comment on type public.spinner_observed is 'Spins that landed on one segment of the live wheel.';

create type public.spinner_version as (wheel_id bigint, created_at timestamp with time zone, created_by_email text, spins bigint);
comment on type public.spinner_version is 'One wheel version: when and by whom it was saved, and the spins made on it.';

create type public.spinner_grant as (id bigint, user_id uuid, email text, reference text, created_at timestamp with time zone, created_by_email text);
comment on type public.spinner_grant is 'One postal LabSpinner request recorded by an admin (the free route), with the player''s and the admin''s e-mail.';

create type public.admin_spinner as (enabled boolean, wheel public.admin_spinner_wheel, observed public.spinner_observed[], spins bigint, versions public.spinner_version[], recent_grants public.spinner_grant[]);
comment on type public.admin_spinner is 'The LabSpinner admin screen: on/off, the live wheel, spins per segment and in all on it, the last 10 versions and the last 20 postal grants.';

create type public.player_spin_grant as (id bigint, reference text, created_at timestamp with time zone);
comment on type public.player_spin_grant is 'One postal request recorded for a player, as their admin page lists it.';

create type public.player_spins as (credits public.spin_credits, spins public.spinner_spin[], grants public.player_spin_grant[]);
comment on type public.player_spins is 'One player''s spin credits, last 20 spins and last 20 postal grants (the admin''s user page).';
