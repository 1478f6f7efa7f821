-- ----------------------------------------------------------------------------
-- CSV cells: a semicolon is a separator too (issue 21, item 6.1)
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
