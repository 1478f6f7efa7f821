-- Declared result shapes (issue 24, item 3), the fourth batch: the admin users list and a user's page. Their approval
-- word (approved, pending, rejected or deleted, derived by private.admin_user_of) becomes the approval_state enum,
-- so public.admin_user's field changes type (no table stores it); then the types, by hand.

create type public.approval_state as enum ('approved', 'pending', 'rejected', 'deleted');
comment on type public.approval_state is 'Where an account stands as the admin screens show it, derived (private.admin_user_of): deleted, else approved, else rejected, else pending.';

alter type public.admin_user alter attribute approval type public.approval_state;

create type public.admin_user_page as (rows public.admin_user[], next_cursor text);
comment on type public.admin_user_page is 'One page of the admin users list, newest first; next_cursor is what to pass for the next page, or null on the last.';

create type public.admin_user_profile as (id uuid, name text, email text, role public.user_role, approval public.approval_state, kyc_status public.kyc_status, credits numeric(12,2), created_at timestamp with time zone, deleted_at timestamp with time zone, open_flags bigint, date_of_birth date, town text, email_notifications boolean, approved_at timestamp with time zone, approved_by_name text, rejected_at timestamp with time zone, rejection_reason text, total_spent numeric(12,2), total_entries integer, verified_at timestamp with time zone);
comment on type public.admin_user_profile is 'One user on their admin page: public.admin_user''s fields, their profile, who approved them and when, the rejection, totals and verification.';

create type public.admin_user_entry as (id uuid, competition_id uuid, competition_title text, kind public.entry_kind, quantity integer, amount numeric(12,2), status public.entry_status, first_ticket integer, last_ticket integer, created_at timestamp with time zone);
comment on type public.admin_user_entry is 'One of a user''s entries on their admin page, with its competition and first and last ticket numbers.';

create type public.admin_user_activity as (id bigint, action text, created_at timestamp with time zone, details jsonb, actor_id uuid, actor_name text, role text);
comment on type public.admin_user_activity is 'One activity-log row about or by a user on their admin page; role says which (subject or actor).';

create type public.admin_user_detail as ("user" public.admin_user_profile, protections public.protections, entries public.admin_user_entry[], activity public.admin_user_activity[], large_adjustment_threshold numeric);
comment on type public.admin_user_detail is 'One user''s admin page: the user, their limits and breaks, the 50 latest entries, the 20 latest activity rows and the large-adjustment threshold.';
