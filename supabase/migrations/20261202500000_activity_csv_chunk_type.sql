-- Declared result shapes (issue 24, item 3), the fifth batch, part three: the activity log's CSV chunk
-- (admin_activity_csv). The type, by hand (the generator writes functions, never types).

create type public.activity_csv_chunk as (csv text, next_before bigint, done boolean);
comment on type public.activity_csv_chunk is 'One chunk of the activity log as CSV, newest first: its lines (the header in the first chunk only), the id to pass as p_before for the next chunk (null on the last) and whether it is the last chunk.';
