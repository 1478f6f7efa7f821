-- Declared result shapes (issue 24, item 3), the third batch: the admin's page of a user's ledger. The types, by hand.

create type public.admin_ledger_row as (id bigint, kind public.ledger_kind, amount numeric(12,2), balance_after numeric(12,2), reason text, reference text, created_at timestamp with time zone, created_by_name text);
comment on type public.admin_ledger_row is 'One credit-ledger row as the admin''s user page shows it, with the name of who posted it (null for the system).';

create type public.admin_ledger_page as (rows public.admin_ledger_row[], next_before bigint);
comment on type public.admin_ledger_page is 'One page of a user''s credit ledger, newest first; next_before is the id to pass for the next page, or null on the last.';
