-- The site's e-mail forms' requests, counted by visitor and kind before any address is looked up, so that past a
-- threshold a request needs a CAPTCHA. The function that writes them follows in the next migration.

create table private.email_requests (
  -- The visitor's key as the site's server forwards it to the auth server (their address).
  visitor text not null,
  -- Mail to accounts (sign-in links, resets) or to new addresses (sign-ups): each kind has its own thresholds.
  kind text not null constraint email_requests_kind_check check (kind in ('account', 'signup')),
  asked_at timestamptz not null default now()
);
create index email_requests_kind_asked_at_idx on private.email_requests (kind, asked_at);
create index email_requests_visitor_kind_asked_at_idx on private.email_requests (visitor, kind, asked_at);
alter table private.email_requests enable row level security;
comment on table private.email_requests is 'The site''s e-mail forms'' requests in the last hour, by visitor and kind, counted before any address is looked up: past a few per visitor, or many for the whole site, a request needs a CAPTCHA. Written only by take_email_request, rows over an hour old deleted by it.';
revoke all on table private.email_requests from public, anon, authenticated, service_role;
