-- referral_invitation: what a friend's invite link says (supabase/schemas/78-referrals.sql), written by hand because
-- it adds a type; get_referral_invitation, which returns it, follows in the next migration.

create type public.referral_invitation as (first_name text, credit numeric);
comment on type public.referral_invitation is 'What a friend''s invite link says: the inviter''s first name (null when it may not be shown) and the referral credit each gets.';
