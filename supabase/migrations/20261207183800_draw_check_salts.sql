-- draw_check_salts: each day's secret salt for the draw-check hashes (supabase/schemas/36-transparency.sql), written
-- by hand because it adds a table; record_draw_check, which uses it, follows in the next migration.

-- Each London day's secret salt for those hashes, made by the database's CSPRNG on the day's first check and dropped
-- on the first check of a later day: no API role may read it.
create table private.draw_check_salts (
  checked_on date not null,
  salt bytea not null,
  constraint draw_check_salts_pkey primary key (checked_on),
  constraint draw_check_salts_salt_check check ((octet_length(salt) = 32))
);
alter table private.draw_check_salts enable row level security;
comment on table private.draw_check_salts is 'The secret salt of each London day''s draw-check hashes (32 random bytes): written and read only by record_draw_check, which drops earlier days'' salts.';
revoke all on table private.draw_check_salts from public, anon, authenticated, service_role;
