-- Declared result shapes (issue 24, item 3), the fourth batch: the admin mail screen's campaigns, outbox, preview and
-- send. The types, by hand (the generator writes functions, never types).

create type public.competition_ref as (id uuid, title text);
comment on type public.competition_ref is 'A competition referred to by its id and title.';

create type public.person_ref as (id uuid, name text);
comment on type public.person_ref is 'A person referred to by their id and name.';

create type public.mail_campaign as (id uuid, kind public.mail_kind, segment public.mail_segment, competition public.competition_ref, subject text, body_text text, recipients integer, queued bigint, sent bigint, failed bigint, sent_by public.person_ref, created_at timestamp with time zone);
comment on type public.mail_campaign is 'One mail campaign as the mail screen shows it: kind, segment, competition, subject and body, recipients, its outbox rows counted by status, and who sent it (Deleted user once anonymised).';

create type public.mail_campaign_sent as (id uuid, kind public.mail_kind, segment public.mail_segment, competition public.competition_ref, subject text, body_text text, recipients integer, queued bigint, sent bigint, failed bigint, sent_by public.person_ref, created_at timestamp with time zone, already_sent boolean);
comment on type public.mail_campaign_sent is 'A campaign just queued (public.mail_campaign''s fields), and whether it had already been sent by an earlier submit of the same request.';

create type public.mail_outbox_row as (id bigint, to_email text, to_user uuid, to_name text, kind text, subject text, status public.mail_status, transport public.mail_transport, attempts integer, error text, created_at timestamp with time zone, sent_at timestamp with time zone, campaign_id uuid);
comment on type public.mail_outbox_row is 'One outbox row as the mail screen shows it: recipient (and their name), kind, subject, status, transport, attempts, error and times.';

create type public.mail_outbox_page as (rows public.mail_outbox_row[], next_before bigint, campaign public.mail_campaign);
comment on type public.mail_outbox_page is 'One page of the mail outbox, newest first (next_before for the next page, or null on the last), and the campaign filtered by (or null).';

create type public.mail_held_back as (no_consent integer, protected integer);
comment on type public.mail_held_back is 'Members a marketing mail would not reach: without consent, and on a break, excluded or closed (both 0 for a service notice).';

create type public.mail_sample as (name text, email text);
comment on type public.mail_sample is 'The recipient a preview is rendered for.';

create type public.mail_preview as (kind public.mail_kind, segment public.mail_segment, competition public.competition_ref, members integer, recipients integer, held_back public.mail_held_back, subject text, body_text text, sample public.mail_sample, rendered text);
comment on type public.mail_preview is 'What a mail would do: the segment''s members now, who it reaches, who is held back, the subject and body, and the message rendered for the first recipient by name (sample, or null when nobody gets it).';
