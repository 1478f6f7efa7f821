-- Declared result shapes (issue 24, item 3), the fourth batch: the activity log's page and the admin dashboard.
-- The types, by hand (the generator writes functions, never types).

create type public.activity_row as (id bigint, created_at timestamp with time zone, action text, actor_id uuid, actor_name text, actor_email text, subject_id uuid, subject_kind text, subject_label text, details jsonb);
comment on type public.activity_row is 'One activity-log row as the activity screen shows it: the action, the actor''s name and e-mail, the subject''s kind (user, competition, draw, top_up or complaint) and label, and the details recorded.';

create type public.activity_page as (rows public.activity_row[], next_before bigint, kinds text[]);
comment on type public.activity_page is 'One page of the activity log, newest first (next_before for the next page, or null on the last), and every action recorded so far, for the kind filter.';

create type public.dashboard_counts as (players bigint, approved_players bigint, pending_approvals bigint, live_competitions bigint, opening_soon bigint, awaiting_draw bigint, open_complaints bigint, overdue_complaints bigint, flagged_players bigint);
comment on type public.dashboard_counts is 'The dashboard''s counts: players, approved players, accounts awaiting approval, competitions by phase (live, opening soon, awaiting the draw), open and overdue complaints, and players with a flag awaiting review.';

create type public.dashboard_day as (day date, signups bigint, tickets bigint, credit_sold numeric);
comment on type public.dashboard_day is 'One Europe/London day of the dashboard: sign-ups, paid tickets sold and credit bought (top-ups, pounds).';

create type public.dashboard_totals as (signups numeric, tickets numeric, credit_sold numeric);
comment on type public.dashboard_totals is 'The dashboard''s days added up.';

create type public.admin_dashboard as (generated_at timestamp with time zone, "from" date, "to" date, counts public.dashboard_counts, days public.dashboard_day[], totals public.dashboard_totals);
comment on type public.admin_dashboard is 'Every figure of the admin dashboard: when it was worked out, the first and last day of the series (today last), the counts, the 30 days and their totals.';
