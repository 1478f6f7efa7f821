-- Every account gives a date of birth (issue "Hardening" item 11). The sign-up trigger checked the
-- age only when a date came with the sign-up: a call to the auth server's /signup (or its admin API)
-- with no date_of_birth in the user metadata made an account whose age nobody had checked. The site's
-- form always sends one; the database now insists on it, whoever creates the user: a public sign-up,
-- the admin API with the secret key, the seed or a script. The server is not exempt: the spec asks
-- every account for a date of birth, and an account made by the server is still a player's account.
-- (The auth server inserts every user the same way, so the trigger could not tell them apart anyway.)
--
-- A valid date of birth is a YYYY-MM-DD date (other forms depend on DateStyle: is 01/02/1990 January
-- or February? and 'infinity' or 'epoch' are no one's birthday), at most 120 years ago, as the sign-up
-- form says. Under 18 is refused as before, with the same message and code. Users that already exist
-- are untouched: this checks new users only, and create_account_rows still rebuilds rows without one.

create or replace function private.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  given text := new.raw_user_meta_data ->> 'date_of_birth';
  dob date;
begin
  if given is null or btrim(given) = '' then
    raise exception 'A date of birth is required to join LabCash' using errcode = '22023', hint = 'date_of_birth_required';
  end if;
  begin
    dob := case when given ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then given::date end;
  exception when data_exception then
    dob := null; -- 1990-02-31, year 0000
  end;
  if dob is null or dob < (current_date - interval '120 years')::date then
    raise exception 'Date of birth is not a valid date' using errcode = '22007', hint = 'invalid_input';
  end if;
  if dob > (current_date - interval '18 years')::date then
    raise exception 'You must be 18 or over to join LabCash' using errcode = '22023', hint = 'under_18';
  end if;
  perform private.create_account_rows(new.id);
  perform private.log_activity('user.signed_up', new.id, jsonb_build_object('email', new.email));
  return new;
end;
$$;
comment on function private.handle_new_user() is 'Trigger: a new auth user gets a profile and account data; a user without a date of birth (YYYY-MM-DD, at most 120 years ago) is refused (date_of_birth_required, invalid_input), as is one under 18 (under_18), whoever creates them.';
