-- Declared result shapes (issue 24, item 3), the third batch: LabSpinner's actions, whose refusals are raised, so
-- each answers one shape built of the types declared in 20261130300000. The types, by hand.

create type public.spin_result as (id bigint, seed_id bigint, client_seed text, nonce integer, wheel_id bigint, attempt integer, value bigint, segment_position smallint, label text, prize_credits numeric(12,2), created_at timestamp with time zone, server_seed_hash text, balance numeric(12,2), credits public.spin_credits);
comment on type public.spin_result is 'A spin just made (public.spinner_spin''s fields), the hash of the server seed it used, the balance after its prize and the spin credits left.';

create type public.seed_rotation as (revealed public.spinner_seed, seed public.spinner_seed);
comment on type public.seed_rotation is 'A rotation: the pair just revealed (its server seed shown) and the new active pair.';

create type public.spin_reveal as (spin public.spinner_spin, revealed public.spinner_seed, wheel public.spinner_wheel, seed public.spinner_seed);
comment on type public.spin_reveal is 'One of the caller''s spins with its seed pair revealed, the wheel version it used and the active pair after: what the browser recomputes the spin from.';

create type public.spin_request as (grant_id bigint, user_id uuid, reference text, credits public.spin_credits);
comment on type public.spin_request is 'A postal LabSpinner request just recorded, and the player''s spin credits after it.';
