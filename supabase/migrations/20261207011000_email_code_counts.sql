-- E-mailed codes counted per address in the site's own SQL: the codes asked for through its forms (a few an hour
-- per address) and the codes typed for the one outstanding (five, then it is void until a new one is asked for).
-- The functions that write them follow in the next migration.

create table private.email_code_requests (
  -- The address a sign-in link, reset or inbox code was asked for, in lower case: known to the auth server or not.
  email text not null,
  asked_at timestamptz not null default now()
);
create index email_code_requests_email_asked_at_idx on private.email_code_requests (email, asked_at);
create index email_code_requests_asked_at_idx on private.email_code_requests (asked_at);
alter table private.email_code_requests enable row level security;
comment on table private.email_code_requests is 'E-mailed codes asked for through the site''s forms, by address (at most a few an hour each): written only by ask_for_email_code, rows over an hour old deleted by it.';
revoke all on table private.email_code_requests from public, anon, authenticated, service_role;

create table private.email_code_tries (
  email text primary key,
  -- When the code now outstanding was asked for through the site (or, for a code asked elsewhere, the first try at it).
  code_asked_at timestamptz not null default now(),
  tries smallint not null default 0
);
create index email_code_tries_code_asked_at_idx on private.email_code_tries (code_asked_at);
alter table private.email_code_tries enable row level security;
comment on table private.email_code_tries is 'Codes typed into the site''s forms for the code outstanding for an address, counted before the auth server checks them (a right one clears the row): after five the code is void until a new one is asked for. Written only by ask_for_email_code, take_email_code_try and clear_email_code_tries.';
revoke all on table private.email_code_tries from public, anon, authenticated, service_role;
