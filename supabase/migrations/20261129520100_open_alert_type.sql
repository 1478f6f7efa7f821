-- Declared result shapes (issue 24, item 3): the type admin_open_alerts returns a set of, written by hand (the
-- generator writes functions, never types); the function follows in the next migration.

create type public.open_alert as (id bigint, kind public.alert_kind, subject text, raised_at timestamp with time zone);
comment on type public.open_alert is 'An alert no super admin has acknowledged yet, as the console''s notice shows it.';
