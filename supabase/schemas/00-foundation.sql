-- ============================================================================
-- Foundation: default privileges, the private schema, the function style, helpers every area uses.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- How the sources are laid out, and the one way a function is written (held by tests/db/schemas.test.ts).
--
-- Files: one topic each, loaded in name order; none much over 1,000 lines. Each table comes with its row-level
-- security, comments, grants, indexes, triggers and policies; each type just before the first table or function
-- that needs it (a type several topics return sits in the first file that loads it).
--
-- Constraints: named for what they check (scripts/db-schemas/constraint-names.ts): a foreign key
-- `<table>_<column>_fkey`, a check `<table>_<what>_check` (the column it bounds, or a few words for a rule between
-- columns); never Postgres's `<table>_check<N>`.
--
-- Functions:
--   create or replace function <schema>.<name>(p_<argument> <type>, …) returns <type>
--   language <sql|plpgsql> [immutable|stable] [strict] [security definer] set search_path = '' as $$
--   …
--   $$;
--   comment on function …; revoke all on function … from public, anon, authenticated, service_role; then one
--   grant per role that may call it.
-- - sql for one query, plpgsql for a guard, a lock or several steps. Volatility written only when not volatile.
-- - security definer when the function reads or writes rows its caller's role may not; never security invoker
--   written out. search_path is always empty, so every name is schema-qualified (public., private., auth.).
-- - Arguments are p_<name>, with two exceptions: names callers pass by name and so keep (add_credits,
--   deduct_credits and get_credit_balance's user_id and amount, has_permission's permission, the auth hook's
--   event, the admin's changes object p), and the one row or object a helper is about, which takes a short name
--   used all through its body (c a competition, p a protections row or changes, r, s, sp, acct).
-- - The caller is checked first, by a shared guard: private.require_user (signed in, two-step given when owed),
--   private.require_user_first_step (signed in, before the second step), private.require_admin,
--   private.require_super_admin, private.require_server (the secret key only), private.require_approved (the
--   account may spend), private.require_visible_competition (drafts for admins only). A function anyone may call
--   says so in its comment and grants.
-- - Refusals raise a stable hint (the code the site switches on) with a message for people.

-- Function bodies are checked when they run, not when they load, so an area may call a function of a later
-- one (pg_dump does the same).
set check_function_bodies = off;
-- Postgres lets PUBLIC execute every new function and Supabase grants the API roles
-- everything new in public, so nothing is callable unless a migration grants it.
alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke execute on functions from anon, authenticated;
-- The API roles never insert rows themselves, so they need no sequence.
alter default privileges in schema public revoke all on sequences from anon, authenticated;
create schema private;
revoke all on schema private from public, anon, authenticated, service_role;
-- The auth server (supabase_auth_admin) calls one hook here: private.hook_mfa_verification_attempt.
grant usage on schema private to supabase_auth_admin;
comment on schema private is 'Internal helpers called by the public functions; no API role may use this schema.';

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

-- Spreadsheets in many locales split CSV on ';', so an unquoted `x;=1+1;y` became three cells, the middle
-- one a formula. private.csv_field is the one cell encoder of every CSV the site writes (the public
-- entrants file, the admin activity log and entries, the player's ledger); it now follows OWASP's CSV
-- injection guidance in full: a cell starting with = + - @ tab or CR gets a leading ' and is quoted, and a
-- cell containing , ; " CR or LF is quoted with its quotes doubled. The draw's ticket list does not use it:
-- its cells are ticket numbers and ticket ids only (no user text), so its bytes and hashes are unchanged.
create or replace function private.csv_field(p_value text) returns text
language sql immutable set search_path = '' as $$
  select case
    when p_value is null then ''
    when p_value ~ '^[=+\-@\t\r]'
      then '"' || replace('''' || p_value, '"', '""') || '"'
    when p_value ~ '[,;"\r\n]'
      then '"' || replace(p_value, '"', '""') || '"'
    else p_value
  end
$$;
comment on function private.csv_field(text) is 'The one cell encoder of every CSV the site writes (OWASP CSV injection): a cell starting with = + - @ tab or CR is prefixed with '' and quoted; a cell containing , ; " CR or LF is quoted, quotes doubled; null is empty.';
revoke all on function private.csv_field(text) from public, anon, authenticated, service_role;

-- True for a finite amount with at most two decimals. NaN sorts above Infinity, so one range test
-- refuses NaN, Infinity and -Infinity together.
create or replace function private.is_pounds(value numeric) returns boolean
language sql immutable parallel safe set search_path = '' as $$
  select value > '-Infinity'::numeric and value < 'Infinity'::numeric and value = round(value, 2)
$$;
comment on function private.is_pounds(numeric) is 'True for a finite amount in pounds and pence (no NaN, no Infinity, at most two decimals).';
revoke all on function private.is_pounds(numeric) from public, anon, authenticated, service_role;
