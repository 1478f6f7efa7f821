-- ticket_number_page_owned: the grid page names the caller's own tickets, so they are marked apart from other
-- players' sold numbers. Written by hand (types are not written by `npm run db:migration`); the functions that
-- fill the new attribute follow in the next migration.

alter type public.ticket_number_page add attribute owned integer[];
comment on type public.ticket_number_page is 'A page of a pick competition''s number grid (get_ticket_numbers): the numbers sold and held by others in the range, the caller''s own basket (all of it) with when it expires, and the caller''s own tickets in the range (also in sold).';
