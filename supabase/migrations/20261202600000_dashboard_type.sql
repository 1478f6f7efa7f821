-- The account dashboard's one read (issue 27 item 3): whether to invite a monthly limit, and the titles of the
-- prizes waiting for a claim, newest first. public.get_my_dashboard() answers it (next migration).
create type public.my_dashboard as (needs_limit_prompt boolean, unclaimed_prizes text[]);
comment on type public.my_dashboard is 'get_my_dashboard(): the account dashboard''s own facts beside the account row the proxy already read.';
