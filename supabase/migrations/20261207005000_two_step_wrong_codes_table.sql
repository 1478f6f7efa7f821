-- Wrong authenticator codes are counted per visitor, in SQL, by the auth server's MFA verification attempt
-- hook (the functions follow in the next migration): the table that remembers a day of them, and the auth
-- server's role's way into the private schema to call the hook.

grant usage on schema private to supabase_auth_admin;

create table private.two_step_wrong_codes (
  id bigint generated always as identity primary key,
  factor_id uuid not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The client address the auth server saw (the site forwards each visitor's own).
  visitor text not null,
  typed_at timestamptz not null default now()
);
alter table private.two_step_wrong_codes enable row level security;
comment on table private.two_step_wrong_codes is 'Wrong authenticator codes of the last day, one row per code: which factor, whose, from which visitor, when. Written and read only by the auth server''s MFA verification hook (hook_mfa_verification_attempt); older rows are pruned as new ones arrive.';
revoke all on table private.two_step_wrong_codes from public, anon, authenticated, service_role;
create index two_step_wrong_codes_factor_idx on private.two_step_wrong_codes (factor_id, typed_at);
create index two_step_wrong_codes_visitor_idx on private.two_step_wrong_codes (factor_id, visitor, typed_at);
