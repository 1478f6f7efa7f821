-- Declared result shapes (issue 24, item 3), the fifth batch: the health checks and the System page.
-- The types, by hand (the generator writes functions, never types). A job run and an alert restate their tables'
-- columns less one each (the job's name, who acknowledged), which the pages never showed; a webhook delivery is
-- shown whole, so the overview names the table's own row type.

create type public.ops_cron_check as (state text, last_run_at timestamp with time zone);
comment on type public.ops_cron_check is 'Whether the scheduled job runs: ok, waiting (never ran, not yet due), stale or failing, and when it last ran.';

create type public.ops_check as (cron public.ops_cron_check, mail text);
comment on type public.ops_check is 'The public health check''s states (no counts): the scheduled job, and mail (ok or failing).';

create type public.cron_run as (id bigint, started_at timestamp with time zone, finished_at timestamp with time zone, ok boolean, result jsonb, error text);
comment on type public.cron_run is 'One run of the scheduled job: when, whether it worked, what it did (result) or why it failed.';

create type public.deep_health as (overdue_draws bigint, oldest_overdue_draw_at timestamp with time zone, mail_queued bigint, oldest_queued_mail_at timestamp with time zone, mail_failed bigint, webhooks_waiting bigint, payments_needing_person bigint, open_alerts bigint, last_cron_run public.cron_run);
comment on type public.deep_health is 'The deeper health check: queue lengths, the oldest overdue items and the last run of the scheduled job (or null).';

create type public.cron_health as (stale boolean, runs public.cron_run[]);
comment on type public.cron_health is 'Whether the scheduled job is stale, and its latest 20 runs, newest first.';

create type public.overdue_draw as (id uuid, slug text, title text, draw_at timestamp with time zone, overdue_minutes integer);
comment on type public.overdue_draw is 'A competition whose draw time passed with no draw yet, and by how many minutes.';

create type public.payment_needing_person as (kind public.payment_issue, reference text, top_up_id uuid, amount numeric, detail text, since timestamp with time zone, player public.person_ref);
comment on type public.payment_needing_person is 'A payment a person must deal with: an amount mismatch (by event id) or money owed after a refund (by top-up), since when, and the player (or null).';

create type public.mail_failure as (id bigint, to_email text, kind text, subject text, attempts integer, error text, created_at timestamp with time zone);
comment on type public.mail_failure is 'A mail that failed for good: to whom, what, how many attempts and the last error.';

create type public.mail_health as (queued bigint, failed bigint, failures public.mail_failure[]);
comment on type public.mail_health is 'Mail waiting and failed, and the latest 50 failures, newest first.';

create type public.auth_refusal_hour as (hour timestamp with time zone, sign_in integer, sign_in_limited integer, code integer, code_limited integer);
comment on type public.auth_refusal_hour is 'Refused sign-ins and two-step codes in one hour, and those refused for the rate limit.';

create type public.storage_use as (database_bytes bigint, image_count bigint, image_bytes numeric);
comment on type public.storage_use is 'The database''s size and the competition images stored (how many, how many bytes).';

create type public.ops_alert as (id bigint, kind public.alert_kind, incident text, subject text, detail text, raised_at timestamp with time zone, acknowledged_at timestamp with time zone);
comment on type public.ops_alert is 'An alert as the System page shows it: its kind, incident key, words, when raised and when acknowledged.';

create type public.system_overview as (can_act boolean, cron public.cron_health, overdue_draws public.overdue_draw[], webhooks public.webhook_deliveries[], payments public.payment_needing_person[], mail public.mail_health, auth_refusals public.auth_refusal_hour[], storage public.storage_use, alerts public.ops_alert[]);
comment on type public.system_overview is 'The System page: whether the caller may act (super admin), the job''s runs, overdue draws, webhook deliveries failed or waiting, payments needing a person, mail, refused sign-ins per hour, storage and the latest alerts.';

create type public.webhook_refusal_hour as (hour timestamp with time zone, provider text, refusals integer);
comment on type public.webhook_refusal_hour is 'Webhook calls refused for a bad signature in one hour, per provider.';
