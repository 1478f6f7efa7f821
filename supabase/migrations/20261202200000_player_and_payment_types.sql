-- Declared result shapes (issue 24, item 3), the fifth batch: top-ups, credit adjustments, notifications, referrals
-- and the cron's and admin's small answers. The types, by hand (the generator writes functions, never types).

create type public.top_up_quote as (amount numeric, bonus numeric, credit numeric, balance_after numeric, min numeric, max numeric, bonus_enabled boolean, monthly_limit numeric, monthly_remaining numeric, refusal public.refusal);
comment on type public.top_up_quote is 'What a top-up of an amount would give the player (amount, bonus, credit, balance after; null when the amount is not valid), the bounds, the monthly limit and what is left of it, and the refusal (or null).';

create type public.bonus_tier as ("from" numeric, percent numeric);
comment on type public.bonus_tier is 'One bonus tier: top-ups from this amount get this percent as bonus.';

create type public.top_up_options as (min numeric, max numeric, quick_picks integer[], bonus_enabled boolean, bonus_tiers public.bonus_tier[], monthly_limit numeric, monthly_remaining numeric, pending_limit numeric, pending_limit_from timestamp with time zone, needs_limit_prompt boolean, blocked public.refusal);
comment on type public.top_up_options is 'What the top-up page needs: bounds, quick picks, bonus tiers, the monthly limit, what is left and a pending increase, whether to invite a limit, and what blocks a top-up now (or null).';

create type public.top_up_entry as (entry_id uuid, ticket_numbers integer[], competition_slug text);
comment on type public.top_up_entry is 'The entry a top-up made for its purpose: its id, ticket numbers and competition.';

create type public.my_top_up as (id uuid, status public.top_up_status, amount numeric, bonus numeric, credit numeric, funding public.card_funding, provider public.payment_provider, balance numeric, created_at timestamp with time zone, credited_at timestamp with time zone, refusal_reason text, refusal_reason_code text, purpose jsonb, entry public.top_up_entry, entry_error public.refusal);
comment on type public.my_top_up is 'The owner''s top-up: status, amounts, funding, the balance now, why it was refused, its purpose {competition_id, quantity, answer}, and the entry it made or why that failed.';

create type public.credit_adjustment as (ledger_id bigint, amount numeric, balance numeric);
comment on type public.credit_adjustment is 'An admin''s credit adjustment: its ledger row, the amount and the player''s new balance.';

create type public.notification as (id bigint, kind text, title text, body text, link text, created_at timestamp with time zone, read_at timestamp with time zone);
comment on type public.notification is 'One notification as the notification centre shows it.';

create type public.notification_page as (items public.notification[], unread bigint);
comment on type public.notification_page is 'A page of the caller''s notifications, newest first, and how many are unread.';

create type public.push_settings as (kinds text[], endpoints text[]);
comment on type public.push_settings is 'The notification kinds the caller has pushed and the endpoints of their subscribed browsers.';

create type public.referral_code_check as (code text);
comment on type public.referral_code_check is 'An invite code that may be used, as stored (upper case, no spaces or dashes).';

create type public.referrals_settled as (checked integer);
comment on type public.referrals_settled is 'How many pending referrals the cron looked at.';

create type public.referral as (id uuid, status text, reason text, reason_text text, amount numeric, created_at timestamp with time zone, decided_at timestamp with time zone);
comment on type public.referral is 'One referral without names: its state, why it was refused (code and words), the credit and when.';

create type public.my_referrals as (code text, credit numeric, joined bigint, credited bigint, credited_total numeric, friends public.referral[], invited public.referral);
comment on type public.my_referrals is 'The caller''s invite code, the referral credit, how many friends joined and were credited (and the total), the latest 50 referrals, and their own invite (or null).';

create type public.admin_referral as (id uuid, status text, reason text, reason_text text, amount numeric, created_at timestamp with time zone, decided_at timestamp with time zone, user_id uuid, name text);
comment on type public.admin_referral is 'One referral as an admin sees it: public.referral''s fields and the other player (id and name).';

create type public.user_referrals as (code text, referred_by public.admin_referral, referred public.admin_referral[]);
comment on type public.user_referrals is 'A player''s invite code, who invited them (or null) and whom they invited, newest first.';

create type public.flags_raised as (raised integer);
comment on type public.flags_raised is 'How many new player-protection flags the cron raised.';

create type public.users_approved as (approved public.person_ref[], skipped integer);
comment on type public.users_approved is 'The accounts a bulk approval approved (id and name) and how many it skipped.';

create type public.marketing_unsubscribed as (unsubscribed boolean);
comment on type public.marketing_unsubscribed is 'An unsubscribe link was used: always true (a bad or used link raises).';
