-- transparency_privacy: what the trust page keeps and shows (supabase/schemas/36-transparency.sql), written by hand
-- because it changes a table and a type; the functions follow in the next migration.

-- Checks recorded so far were hashed per address without a salt; none was ever recorded outside development.
delete from public.draw_checks;
-- A time of day would link one visitor's checks of different draws to each other and to the server's logs.
alter table public.draw_checks drop column checked_at;
-- What a winner chose is theirs: no longer in the per-draw rows.
alter type public.transparency_draw drop attribute prize_choice, drop attribute cash_alternative;
comment on table public.draw_checks is 'Draws a visitor''s browser reported it recomputed and found correct: one row per draw, London day and visitor network, the network only as sha256(the day''s secret salt, network, draw, day), with no time of day. Written by record_draw_check (the site, secret key only); counted by get_transparency_report.';
comment on table private.draw_check_salts is 'The secret salt of each London day''s draw-check hashes (32 random bytes): written and read only by record_draw_check; earlier days'' salts are dropped by forget_draw_check_salts (the cron).';
comment on type public.transparency_figures is 'One period''s figures on the trust page (period ''all'' or a London month ''YYYY-MM''): draws and prizes by the draw''s month (prize or cash as winners chose, and the cash alternatives paid, null unless at least five winners in the period have chosen, so no one winner''s choice can be read from them; prizes awaiting a claim, delivered), the median tickets in a draw (odds of 1 in that many per ticket), instant wins published and won in the competitions drawn, online and postal entries by the month made (postal received, and entered: not voided), complaints by the month received (acknowledged and answered within their deadlines, open, overdue), browser checks by the day made.';
comment on type public.transparency_draw is 'A drawn competition behind the trust page''s figures: its draw, tickets (postal among them), prize and its step (never what the winner chose), the town as published, its instant wins published and won, and browser checks (all time).';
