-- Declared result shapes (issue 24, item 3), the second batch: the types, written by hand (the generator
-- writes functions, never types); the functions that return them follow in the next migration.

create type public.account as (id uuid, name text, email text, email_notifications boolean, date_of_birth date, town text, show_initials_only boolean, credits numeric(12,2), role public.user_role, approved boolean, approved_at timestamp with time zone, approved_by uuid, rejected_at timestamp with time zone, rejection_reason text, total_spent numeric(12,2), total_entries integer, kyc_status public.kyc_status, is_verified boolean, verified_at timestamp with time zone, age_verified boolean, metadata jsonb, created_at timestamp with time zone);
comment on type public.account is 'A user''s profile merged with their account data (spec §3).';

create type public.my_account as (id uuid, name text, email text, email_notifications boolean, date_of_birth date, town text, show_initials_only boolean, credits numeric(12,2), role public.user_role, approved boolean, approved_at timestamp with time zone, approved_by uuid, rejected_at timestamp with time zone, rejection_reason text, total_spent numeric(12,2), total_entries integer, kyc_status public.kyc_status, is_verified boolean, verified_at timestamp with time zone, age_verified boolean, metadata jsonb, created_at timestamp with time zone, two_step_owed boolean, welcome_due boolean);
comment on type public.my_account is 'The caller''s own account (public.account''s fields), whether the session owes its second step, and whether the "You''re approved" welcome is due.';

create type public.admin_user as (id uuid, name text, email text, role public.user_role, approval text, kyc_status public.kyc_status, credits numeric(12,2), created_at timestamp with time zone, deleted_at timestamp with time zone, open_flags bigint);
comment on type public.admin_user is 'One user as the admin users list shows them: approval is approved, pending, rejected or deleted; open_flags counts the flags awaiting review.';

create type public.player_intervention as (id uuid, user_id uuid, kind public.intervention_kind, note text, flag_id uuid, created_at timestamp with time zone, created_by_name text);
comment on type public.player_intervention is 'One intervention on a player as the admin screens show it, with the name of who recorded it.';

create type public.spinner_seed as (id bigint, server_seed_hash text, client_seed text, next_nonce integer, created_at timestamp with time zone, revealed_at timestamp with time zone, server_seed text);
comment on type public.spinner_seed is 'A LabSpinner seed pair as its player sees it: the server seed (hex) only once the pair is revealed.';

create type public.top_up_outcome as (status public.top_up_status, top_up_id uuid);
comment on type public.top_up_outcome is 'A top-up''s status after fail_top_up.';

create type public.factor_proof as (factors_proven boolean, inbox_confirmed boolean);
comment on type public.factor_proof is 'For the two-step page: every verified factor proven, and an inbox code confirmed in the last fifteen minutes.';
