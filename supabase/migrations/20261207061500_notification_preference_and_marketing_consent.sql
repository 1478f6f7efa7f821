-- notification_preference_and_marketing_consent: profiles.email_notifications was the player's marketing consent;
-- the specification's email_notifications is the notification preference (true for a new profile), and PECR needs
-- marketing off unless given. Two meanings, two columns (supabase/schemas/20-accounts.sql, docs/decisions/052).
-- Written by hand for the column, its data and the type; the functions follow from the sources.

-- Every recorded marketing choice carries over unchanged: the old flag held it, and public.marketing_consents keeps
-- its history.
alter table public.profiles add column marketing_consent boolean default false not null;
update public.profiles set marketing_consent = email_notifications;
comment on column public.profiles.marketing_consent is 'The player''s current marketing consent ("E-mail me about new competitions and results"): false unless they gave it; every change is recorded in public.marketing_consents (private.record_marketing_consent).';

-- The notification preference was never asked: everyone gets the specification's default, except deleted accounts,
-- which get no mail at all.
alter table public.profiles alter column email_notifications set default true;
update public.profiles p set email_notifications = true
 where not exists (select 1 from public.user_account_data a where a.id = p.id and a.deleted_at is not null);
comment on column public.profiles.email_notifications is 'The player''s notification preference (spec §3, true for a new profile): whether news of their own entries that the site also shows (instant wins, private.optional_mail_kinds) is e-mailed too. Never marketing; mail that must reach them goes whatever it says.';
comment on table public.profiles is 'A user''s public-facing profile (spec §3): name, notification preference, marketing consent, date of birth, and the town shown with their name if they win (optional).';

alter type public.admin_user_profile add attribute marketing_consent boolean;
comment on type public.admin_user_profile is 'One user on their admin page: public.admin_user''s fields, their profile, who approved them and when, the rejection, totals, verification and their marketing consent.';
