-- The activity log in words: each row carries the records it names (activity_ref), so the site can write a
-- sentence with names and links for it, and the CSV is written by the site from rows (activity_export_chunk)
-- rather than as text in SQL, so its details column can be that same sentence. The functions follow in the
-- next migration.
create type public.activity_ref as (id uuid, kind text, name text, competition_id uuid, user_id uuid, user_name text, amount numeric, numbers integer[]);
comment on type public.activity_ref is 'A record an activity-log row names (its subject, or an id in its details), as the log''s sentences need it: kind (user, competition, draw, entry, top_up, complaint or referral); name (a user''s name, the title of the competition it belongs to, a complaint''s reference, a refused referral''s reason); the competition it belongs to; the user it concerns (a draw''s winner, an entry''s buyer, a top-up''s payer, a complainant) and their name; the amount in pounds (an entry or a top-up); an entry''s first ten ticket numbers.';

alter type public.activity_row add attribute refs public.activity_ref[];
comment on type public.activity_row is 'One activity-log row as the activity screen shows it: the action, the actor''s name and e-mail, the subject''s kind (user, competition, draw, top_up or complaint) and label, the details recorded, and the records it names (refs), for its sentence.';

drop function public.admin_activity_csv(text,text,text,date,date,bigint,integer);
drop type public.activity_csv_chunk;

create type public.activity_export_chunk as (rows public.activity_row[], next_before bigint);
comment on type public.activity_export_chunk is 'One chunk of the activity log for its CSV, newest first: the rows as the screen reads them, and the id to pass as p_before for the next chunk (null on the last).';
